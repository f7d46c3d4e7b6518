/**
 * ProjectAccess (`project/<slug>/access/<level>/user/<username>`): a user on one of the six
 * access levels of a project; identity only. Each level's list is authoritative under its
 * project: revoking access is the point, so a live member no manifest lists is removed.
 * Adding at developers, maintainers or reporters is queued (entitlement queue: apply waits
 * for the job); admins, controllers and editors are immediate. Editors need an active wiki
 * account, and the user must exist (declared or live): otherwise the entry is blocked.
 *
 * Reads: no call of its own (the roles of each declared project that exists live come from
 * the project detail the Project kind reads).
 */
import { createOrFind } from "../api/create-or-find.js";
import { AccessLevels, type AccessLevel } from "../api/schemas.js";
import { accessUserKey, projectKey, userKey, userServiceKey } from "../manifest/keys.js";
import type { DesiredState } from "../manifest/types.js";
import { defineKind } from "./kind.js";
import {
  blockedCreate,
  desiredMembers,
  fetchProject,
  field,
  goneOk,
  levelIn,
  liveMembers,
  parentProjectKey,
  settle,
  type LevelMembers,
} from "./project-shared.js";

export type AccessFields = {
  project: string;
  level: AccessLevel;
  username: string;
};

/** Levels whose adds go through the entitlement queue (the git host is called). */
export const QUEUED_LEVELS: ReadonlySet<AccessLevel> = new Set([
  "developers",
  "maintainers",
  "reporters",
]);

/** The declared users by name (once per state: access lists name users thousands of times). */
const usersByName = new WeakMap<DesiredState, Map<string, DesiredState["users"][number]>>();
function declaredUser(state: DesiredState, username: string) {
  let byName = usersByName.get(state);
  if (!byName) {
    byName = new Map(state.users.map((u) => [u.username, u]));
    usersByName.set(state, byName);
  }
  return byName.get(username);
}

function dependsOn(state: DesiredState, slug: string, level: AccessLevel, username: string) {
  const user = declaredUser(state, username);
  return [
    projectKey(slug),
    ...(user ? [userKey(username)] : []),
    ...(user && level === "editors" && user.services.wiki
      ? [userServiceKey(username, "wiki")]
      : []),
  ];
}

/** The users of each level: identity fields, keys, and what must exist first. */
const USERS: LevelMembers<AccessLevel, AccessFields> = {
  levels: AccessLevels,
  key: accessUserKey,
  fields: (project, level, username) => ({ project, level, username }),
  declared: (p, level) => p.access[level].users,
  live: (p, level) => p.roles[level],
  dependsOn,
};

export const projectAccessKind = defineKind<AccessFields>({
  kind: "ProjectAccess",
  ownership: { mode: "authoritative", parentKey: parentProjectKey },
  immutable: {},
  destructiveDelete: true,
  desired: (state) => desiredMembers(USERS, state),
  read: (ctx, state) => liveMembers(USERS, ctx, state),
  check: (d, l, ctx) => {
    if (l) return undefined;
    const { username, level } = d.fields;
    const declared = declaredUser(ctx.state, username) !== undefined;
    if (!declared && !ctx.liveUsers.has(username))
      return blockedCreate(
        "ProjectAccess",
        d,
        "username",
        `user ${username} does not exist: declare it in a User manifest or create it first`,
      );
    if (level === "editors" && !ctx.wikiUsers.has(username))
      return blockedCreate(
        "ProjectAccess",
        d,
        "username",
        `editors need an active wiki account: user ${username} has none`,
      );
    return undefined;
  },
  create: async (api, entry) => {
    const projectSlug = field(entry.after, "project");
    const level = levelIn(AccessLevels, field(entry.after, "level"), "access level");
    const username = field(entry.after, "username");
    // A queued add shows in the roles only once its job completes: re-read a few times.
    const tries = QUEUED_LEVELS.has(level) ? 5 : 1;
    await createOrFind(
      async () => {
        await api.callAndWait("access.addUser", { params: { projectSlug, level, username } });
        return true;
      },
      () =>
        settle(
          async () =>
            (await fetchProject(api, projectSlug))?.roles[level].includes(username)
              ? true
              : undefined,
          tries,
        ),
    );
  },
  delete: async (api, entry, live) => {
    const { project, level, username } = live.fields;
    await goneOk(
      () => api.call("access.removeUser", { params: { projectSlug: project, level, username } }),
      {
        what: entry.key,
        absent: async () =>
          !(await fetchProject(api, project))?.roles[
            levelIn(AccessLevels, level, "access level")
          ].includes(username),
      },
    );
  },
});
