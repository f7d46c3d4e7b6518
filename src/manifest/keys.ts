/**
 * Stable identities of desired and live objects. The planner matches desired to live by
 * these keys, `--target` and `ignore` globs select by them, and plan entries carry them.
 */
import type { AccessLevel, UserService } from "../api/schemas.js";

export const organizationKey = (name: string) => `organization/${name}`;
export const userKey = (username: string) => `user/${username}`;
export const userServiceKey = (username: string, service: UserService) =>
  `user/${username}/service/${service}`;
export const teamKey = (name: string) => `team/${name}`;
export const teamMemberKey = (team: string, username: string) => `team/${team}/member/${username}`;
export const projectKey = (slug: string) => `project/${slug}`;
export const groupKey = (slug: string) => `project/${slug}/group`;
export const subgroupKey = (slug: string, path: string) => `project/${slug}/subgroup/${path}`;
/** `project/<slug>/repo/<subgroup>/<name>`, or `project/<slug>/repo/<name>` in the project group. */
export const repositoryKey = (slug: string, subgroup: string, name: string) =>
  `project/${slug}/repo/${subgroup ? `${subgroup}/` : ""}${name}`;
export const mirrorKey = (slug: string, to: string) => `project/${slug}/mirror/${to}`;
export const artifactRepoKey = (slug: string, name: string) => `project/${slug}/artifact/${name}`;
export const licenseKey = (slug: string, id: string) => `project/${slug}/license/${id}`;
export const accessUserKey = (slug: string, level: AccessLevel, username: string) =>
  `project/${slug}/access/${level}/user/${username}`;
export const accessTeamKey = (slug: string, level: AccessLevel, path: string) =>
  `project/${slug}/access/${level}/team/${path}`;
