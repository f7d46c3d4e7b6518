/**
 * From the day after its last day, a grant counts as absent: the desired state loses it, so
 * the authoritative lists make plan remove it live (the planner says "expired on DATE", from
 * the marks left here). An expired user loses every access entry and team membership and is
 * made inactive; an expired service account is made inactive (accounts are never deleted).
 * Only the lists that hold an expired grant are touched: a config with none costs one loop.
 */
import { AccessLevels, type AccessLevel } from "../api/schemas.js";
import * as K from "../manifest/keys.js";
import type { DesiredState, GrantExpiry } from "../manifest/types.js";
import { daysLeft, isExpired } from "./date.js";

const ACCESS = /^project\/([^/]+)\/access\/([^/]+)\/(user|team)\/(.+)$/;
const MEMBER = /^team\/([^/]+)\/member\/(.+)$/;
const SERVICE = /^user\/([^/]+)\/service\/(.+)$/;

/** Take the expired grants out of `state` (today: YYYY-MM-DD, UTC) and keep them all in `state.expiries`. */
export function applyExpiry(
  state: DesiredState,
  grants: Map<string, GrantExpiry>,
  today: string,
): void {
  if (grants.size === 0) return;
  state.expiries = grants;
  const projects = new Map(state.projects.map((p) => [p.slug, p]));
  const teams = new Map(state.teams.map((t) => [t.name, t]));
  const users = new Map(state.users.map((u) => [u.username, u]));
  const expiredUsers = new Map<string, GrantExpiry>();
  for (const g of [...grants.values()]) {
    g.daysLeft = daysLeft(g.expires, today);
    if (!isExpired(g.expires, today)) continue;
    g.expired = true;
    let m: RegExpExecArray | null;
    if ((m = ACCESS.exec(g.key))) {
      const list = projects.get(m[1])?.access[m[2] as AccessLevel];
      if (!list) continue;
      if (m[3] === "user") list.users = list.users.filter((u) => u !== m![4]);
      else list.organizationTeams = list.organizationTeams.filter((t) => t !== m![4]);
    } else if ((m = MEMBER.exec(g.key))) {
      const team = teams.get(m[1]);
      if (team) team.members = team.members.filter((u) => u !== m![2]);
    } else if ((m = SERVICE.exec(g.key))) {
      const account = users.get(m[1])?.services[
        m[2] as keyof DesiredState["users"][number]["services"]
      ];
      if (account) account.status = "inactive";
    } else if (g.kind === "User") {
      const name = g.key.slice("user/".length);
      const user = users.get(name);
      if (user) user.status = "inactive";
      expiredUsers.set(name, g);
    }
  }
  if (expiredUsers.size > 0) removeUsers(state, grants, expiredUsers);
}

/** An expired user's access entries and memberships go too, each marked with the user's date. */
function removeUsers(
  state: DesiredState,
  grants: Map<string, GrantExpiry>,
  gone: ReadonlyMap<string, GrantExpiry>,
): void {
  const mark = (key: string, kind: GrantExpiry["kind"], user: GrantExpiry) => {
    const own = grants.get(key);
    if (own?.expired) return;
    grants.set(key, {
      key,
      kind,
      expires: user.expires,
      source: state.sources.get(key) ?? user.source,
      expired: true,
      daysLeft: user.daysLeft ?? 0,
      viaUser: user.key,
    });
  };
  for (const p of state.projects)
    for (const level of AccessLevels) {
      const list = p.access[level];
      if (!list.users.some((u) => gone.has(u))) continue;
      list.users = list.users.filter((u) => {
        const user = gone.get(u);
        if (user) mark(K.accessUserKey(p.slug, level, u), "ProjectAccess", user);
        return !user;
      });
    }
  for (const t of state.teams) {
    if (!t.members.some((u) => gone.has(u))) continue;
    t.members = t.members.filter((u) => {
      const user = gone.get(u);
      if (user) mark(K.teamMemberKey(t.name, u), "TeamMember", user);
      return !user;
    });
  }
}
