/**
 * The live reads of the access review, through the same memoised readers plan uses
 * (src/engine/readers.ts), each once: the organizations, users, user teams and
 * organization teams (one list each), every live project's detail (its six lists and its
 * organization teams: one call per project, as plan's), and each organization's users from
 * the identity provider for their last login (GET /v1/metrics/users/search/{organization},
 * one call per organization). Only the last logins may fail without failing the review, one
 * organization's search at a time: the users it alone covers have an unknown last login, the
 * lastLogin section says which search failed and what to do, and the findings that need
 * last logins read "unknown" (findings.ts), never 0.
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
import { PhctlError } from "../errors.js";
import { redact } from "../secrets.js";
import type { AccessInput } from "./access.js";
import {
  failuresThatMatter,
  LOGIN_RETRY_ADVICE,
  loginFailureWords,
  type LoginFailure,
  type LoginsRead,
} from "./logins.js";
import { sectionOk } from "./sections.js";
import type { SectionStatus } from "./types.js";

/** What the access review reads live (AccessInput without the manifests and the clock). */
export type AccessLive = Pick<
  AccessInput,
  "organizations" | "users" | "logins" | "teams" | "orgTeams" | "projects" | "parentOrganization"
>;

/**
 * Last login per username, from each organization's identity-provider search; a search that
 * fails (any answer of the service: 5xx, 429, a timeout, another shape) is recorded with its
 * one line and the others still count. Errors that are not the service's answer (bugs) stop
 * the review.
 */
async function readLogins(rc: ReadContext, organizations: readonly string[]): Promise<LoginsRead> {
  const failed: LoginFailure[] = [];
  const answers = await Promise.all(
    organizations.map(async (organization) => {
      try {
        return await rc.api.call("metrics.usersSearch", { params: { organization } });
      } catch (e) {
        if (!(e instanceof PhctlError) || e.source === "internal") throw e;
        const error = redact(e.message.split("\n")[0] || "the read failed");
        failed.push({ organization, error });
        return [];
      }
    }),
  );
  const seen = new Map<string, string | null>();
  for (const users of answers) {
    rc.count(users);
    for (const u of users) {
      // An organization's search may also list its customers' users: keep the latest login.
      const was = seen.get(u.username);
      const at = u.dateLastAccessed;
      if (was === undefined || (at !== null && (was === null || at > was)))
        seen.set(u.username, at);
    }
  }
  failed.sort((a, b) => a.organization.localeCompare(b.organization));
  return { seen, failed };
}

/** The lastLogin section: failed when a failed search leaves some user's last login unknown. */
function loginSection(logins: LoginsRead, users: AccessLive["users"]): SectionStatus {
  const matter = failuresThatMatter(logins, users);
  if (matter.length === 0) return sectionOk("lastLogin", "Last login");
  return {
    name: "lastLogin",
    title: "Last login",
    status: "failed",
    error: loginFailureWords(matter),
    next: LOGIN_RETRY_ADVICE,
  };
}

/** Read what the access review needs; `sections` gets the access and lastLogin sections. */
export async function readAccessLive(
  rc: ReadContext,
  sections: SectionStatus[],
): Promise<AccessLive> {
  const orgs = readOrganizations(rc);
  // The logins are read alongside the rest (they need only the organization names).
  const loginRead = orgs.then((list) =>
    readLogins(
      rc,
      list.map((o) => o.name),
    ),
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
  const logins = await loginRead;
  sections.push(sectionOk("access", "Access"), loginSection(logins, users));
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
