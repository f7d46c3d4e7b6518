/**
 * The live reads of the access review, through the same memoised readers plan uses
 * (src/engine/readers.ts), each once: the organizations, users, user teams and
 * organization teams (one list each), every live project's detail (its six lists and its
 * organization teams: one call per project, as plan's), and each organization's users from
 * the identity provider for their last login (GET /v1/metrics/users/search/{organization},
 * one call per organization). Only the last logins may fail without failing the review:
 * the lastLogin section then says so.
 */
import {
  readOrganizations,
  readOrgTeams,
  readProject,
  readProjects,
  readTeams,
  readUsers,
  type LiveProject,
} from "../engine/readers.js";
import type { ReadContext } from "../engine/read-context.js";
import type { AccessInput } from "./access.js";
import { guarded, sectionOk } from "./sections.js";
import type { SectionStatus } from "./types.js";

/** What the access review reads live (AccessInput without the manifests and the clock). */
export type AccessLive = Pick<
  AccessInput,
  "organizations" | "users" | "logins" | "teams" | "orgTeams" | "projects" | "parentOrganization"
>;

/** Last login per username, from each organization's identity-provider search. */
async function readLogins(
  rc: ReadContext,
  organizations: readonly string[],
): Promise<Map<string, string | null>> {
  const answers = await Promise.all(
    organizations.map((organization) =>
      rc.api.call("metrics.usersSearch", { params: { organization } }),
    ),
  );
  const out = new Map<string, string | null>();
  for (const users of answers) {
    rc.count(users);
    for (const u of users) {
      // An organization's search may also list its customers' users: keep the latest login.
      const was = out.get(u.username);
      const at = u.dateLastAccessed;
      if (was === undefined || (at !== null && (was === null || at > was))) out.set(u.username, at);
    }
  }
  return out;
}

/** Read what the access review needs; `sections` gets the access and lastLogin sections. */
export async function readAccessLive(
  rc: ReadContext,
  sections: SectionStatus[],
): Promise<AccessLive> {
  const orgs = readOrganizations(rc);
  // The logins are read alongside the rest (they need only the organization names).
  const loginRead = guarded(
    "lastLogin",
    "Last login",
    async () =>
      readLogins(
        rc,
        (await orgs).map((o) => o.name),
      ),
    undefined,
  );
  // Handled here too: a failing list below must not leave it rejected and unobserved.
  loginRead.catch(() => undefined);
  const [organizations, users, teams, orgTeams, list] = await Promise.all([
    orgs,
    readUsers(rc),
    readTeams(rc),
    readOrgTeams(rc),
    readProjects(rc),
  ]);
  const details = await Promise.all(list.map((p) => readProject(rc, p.projectSlug)));
  const projects = details.filter((p): p is LiveProject => p !== undefined);
  const [logins, loginStatus] = await loginRead;
  sections.push(sectionOk("access", "Access"), loginStatus);
  const parent = organizations.find((o) => o.parentOrganization === null);
  return {
    organizations,
    users,
    logins,
    teams,
    orgTeams,
    projects,
    parentOrganization: parent?.name ?? "",
  };
}
