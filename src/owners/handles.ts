/**
 * phctl names → code-review platform handles: a user is `@LOGIN` (phctl.yaml's
 * `owners.handles.users` where the login is not the username), a team `@GROUP/TEAM` — the
 * GitHub organization or the GitLab group (`owners.handles.group`, else phctl.yaml's
 * organization) and the team's name there (`owners.handles.teams` where it differs). GitHub
 * and GitLab write both the same way (`@org/team`, `@group/subgroup`).
 */
import type { ManifestConfig, OwnerList } from "../manifest/types.js";

/** One owner: its phctl name and its platform handle (undefined: a team with no group known). */
export interface Owner {
  name: string;
  handle: string | undefined;
}

/** Owners with their handles: what a CODEOWNERS line, a comment or a reviewer request needs. */
export interface NamedOwners {
  users: Owner[];
  teams: Owner[];
}

export function namedOwners(list: OwnerList, config: ManifestConfig): NamedOwners {
  const h = config.owners?.handles;
  const group = h?.group ?? config.organization;
  return {
    users: list.users.map((name) => ({ name, handle: `@${h?.users[name] ?? name}` })),
    teams: list.teams.map((name) => ({
      name,
      handle: group === undefined ? undefined : `@${group}/${h?.teams[name] ?? name}`,
    })),
  };
}

/** The handles of named owners, users first, in order; teams without a handle left out. */
export const handlesOf = (o: NamedOwners): string[] =>
  [...o.users, ...o.teams].flatMap((x) => (x.handle === undefined ? [] : [x.handle]));
