/**
 * Valid documents → DesiredState: defaults filled, set-like lists sorted and de-duplicated,
 * keys computed, and the source of every key recorded. Pure: the same documents in any
 * file or document order give the same state (apart from sources).
 */
import { UserServices, type UserService } from "../api/schemas.js";
import type { ValidDoc } from "./check.js";
import * as K from "./keys.js";
import { normaliseProject } from "./normalise-project.js";
import { grantee } from "./schema/expires.js";
import { RepositoryIndex } from "./resolve.js";
import {
  byKey,
  DeclaredSources,
  isProtected,
  References,
  sortedSet,
  SourceMap,
} from "./collect.js";
import { DEFAULTS } from "./schema/common.js";
import type {
  DesiredState,
  ManifestConfig,
  OrganizationState,
  ProjectState,
  ServiceAccountState,
  TeamState,
  UserState,
} from "./types.js";

export const DEPRECATED_SERVICES: readonly UserService[] = ["email", "irc", "wiki"];

/** The repository index of the declared projects (fork sources, mirror destinations). */
export function repositoryIndex(
  docs: readonly ValidDoc[],
  config: ManifestConfig,
): RepositoryIndex {
  return new RepositoryIndex(
    docs.flatMap((d) =>
      d.kind === "Project"
        ? [
            {
              slug: d.name,
              organization: d.value.spec.organization ?? config.organization,
              visibility: d.value.spec.visibility ?? DEFAULTS.project.visibility,
              groupPath: d.value.spec.git?.group?.path ?? d.name,
              repositories: () =>
                (d.value.spec.git?.repositories ?? []).map((r) => ({
                  subgroup: r.subgroup ?? DEFAULTS.repository.subgroup,
                  name: r.name,
                })),
            },
          ]
        : [],
    ),
  );
}

function normaliseUser(d: ValidDoc<"User">, config: ManifestConfig, sources: SourceMap): UserState {
  const s = d.value.spec;
  const username = d.name;
  const services: UserState["services"] = {};
  for (const service of UserServices) {
    const input = s.services?.[service];
    if (!input) continue;
    const account: ServiceAccountState = {
      key: K.userServiceKey(username, service),
      service,
      status: input.status ?? DEFAULTS.service.status,
      deprecated: DEPRECATED_SERVICES.includes(service),
      source: d.handle.at(["spec", "services", service], "key"),
    };
    if (service === "git" && s.services?.git?.personalProjectLimit !== undefined)
      account.personalProjectLimit = s.services.git.personalProjectLimit;
    if (service === "email")
      account.mailplan = s.services?.email?.mailplan ?? DEFAULTS.service.mailplan;
    services[service] = account;
    sources.set(account.key, account.source);
  }
  const user: UserState = {
    key: K.userKey(username),
    username,
    firstName: s.firstName,
    lastName: s.lastName,
    externalEmail: s.externalEmail,
    role: s.role ?? DEFAULTS.user.role,
    status: s.status ?? DEFAULTS.user.status,
    sendWelcome: s.sendWelcome ?? DEFAULTS.user.sendWelcome,
    services,
    protect: isProtected(d),
    source: d.handle.start,
  };
  if (s.displayName !== undefined) user.displayName = s.displayName;
  const organization = s.organization ?? config.organization;
  if (organization !== undefined) user.organization = organization;
  return user;
}

function normaliseTeam(d: ValidDoc<"Team">, sources: SourceMap, refs: References): TeamState {
  const s = d.value.spec ?? {};
  const members = (s.members ?? []).map((item, i) => {
    const m = grantee(item);
    const at = d.handle.at(["spec", "members", i]);
    sources.set(K.teamMemberKey(d.name, m), at);
    refs.add(m, at);
    return m;
  });
  return {
    key: K.teamKey(d.name),
    name: d.name,
    services: {
      gitservice: s.services?.gitservice ?? DEFAULTS.team.service,
      artifactservice: s.services?.artifactservice ?? DEFAULTS.team.service,
      wiki: s.services?.wiki ?? DEFAULTS.team.service,
    },
    members: sortedSet(members),
    protect: isProtected(d),
    source: d.handle.start,
  };
}

/**
 * Normalise valid documents. With duplicate identities (an error reported by the rules)
 * the first document wins, so this never throws. `release`: the array is the caller's to
 * spend — each document is dropped from it once normalised, so a large config's parsed
 * documents and its state are not all held at once.
 */
export function normalise(
  docs: ValidDoc[] | readonly ValidDoc[],
  config: ManifestConfig,
  { release = false }: { release?: boolean } = {},
): DesiredState {
  const sources = new SourceMap();
  const users = new References();
  const orgRefs = new References();
  const index = repositoryIndex(docs, config);
  const organizations: OrganizationState[] = [];
  const userStates: UserState[] = [];
  const teams: TeamState[] = [];
  const projects: ProjectState[] = [];
  const keys = new Set<string>();
  const spend = docs as (ValidDoc | undefined)[];
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i];
    if (release) spend[i] = undefined;
    let obj: OrganizationState | UserState | TeamState | ProjectState;
    switch (d.kind) {
      case "Organization":
        obj = {
          key: K.organizationKey(d.name),
          name: d.name,
          protect: isProtected(d),
          source: d.handle.start,
        };
        break;
      case "User":
        obj = normaliseUser(d, config, sources);
        if (obj.organization !== undefined)
          orgRefs.add(obj.organization, d.handle.at(["spec", "organization"]));
        break;
      case "Team":
        obj = normaliseTeam(d, sources, users);
        break;
      case "Project":
        obj = normaliseProject(d, config, { sources, users, index, release });
        if (d.value.spec.organization !== undefined)
          orgRefs.add(d.value.spec.organization, d.handle.at(["spec", "organization"]));
        break;
      case "Defaults":
      case "Policy":
        continue;
    }
    if (keys.has(obj.key)) continue;
    keys.add(obj.key);
    sources.set(obj.key, obj.source);
    // Policy selectors on plan entries and live objects match these (src/engine/policy-check.ts).
    const labels = d.value.metadata.labels;
    if (labels && Object.keys(labels).length > 0) obj.labels = labels;
    if (d.kind === "Organization") organizations.push(obj as OrganizationState);
    else if (d.kind === "User") userStates.push(obj as UserState);
    else if (d.kind === "Team") teams.push(obj as TeamState);
    else projects.push(obj as ProjectState);
  }
  const declaredOrgs = new Set(organizations.map((o) => o.name));
  if (config.organization !== undefined) declaredOrgs.add(config.organization);
  return {
    config,
    organizations: organizations.sort(byKey),
    users: userStates.sort(byKey),
    teams: teams.sort(byKey),
    projects: projects.sort(byKey),
    referencedUsers: users.without(new Set(userStates.map((u) => u.username))),
    referencedOrganizations: orgRefs.without(declaredOrgs),
    sources: new DeclaredSources(sources.toMap(), projects),
  };
}
