/**
 * The admin floor (a safety rail of apply, src/engine/guards.ts): a project is never left
 * without an admin, nor a declared git group without a maintainer (users or organization
 * teams) — judged on the projects whose admins or maintainers the plan changes (or whose
 * users it makes inactive), and on the projects it creates: one created without its access
 * entries (a dependency of a targeted or scoped object) is judged by its manifest, whose
 * admins a later apply adds. A user whose status after the plan is `inactive` (the plan's,
 * else live, else declared) does not count: an inactive user cannot act as admin or
 * maintainer. Pure.
 */
import type { LiveObject } from "../kinds/kind.js";
import { groupKey, projectKey, userKey } from "../manifest/keys.js";
import type { DesiredState } from "../manifest/types.js";
import type { Refusal } from "./guards.js";
import type { PlanEntry } from "./plan.js";

function list(keys: readonly string[], max = 5): string {
  const shown = keys.slice(0, max).join(", ");
  return keys.length > max ? `${shown}, … (${keys.length - max} more)` : shown;
}

/** Access keys after the plan: live ones, minus deletes, plus creates. */
function after(
  liveKeys: readonly string[],
  planned: readonly PlanEntry[],
  prefix: string,
): { keys: Set<string>; removed: string[]; changed: boolean } {
  const keys = new Set(liveKeys);
  const removed: string[] = [];
  let changed = false;
  for (const e of planned) {
    if (e.action === "delete") {
      keys.delete(e.key);
      removed.push(e.key.slice(prefix.length));
      changed = true;
    } else if (e.action === "create") {
      keys.add(e.key);
      changed = true;
    }
  }
  return { keys, removed, changed };
}

const FLOOR_KEY = /^project\/([^/]+)\/access\/(admins|maintainers)\//;

/** Keys by `<slug> <level>` for the admins and maintainers levels. */
function byFloor<T>(items: Iterable<T>, keyOf: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const t of items) {
    const m = FLOOR_KEY.exec(keyOf(t));
    if (!m) continue;
    const k = `${m[1]} ${m[2]}`;
    const items = out.get(k);
    if (items) items.push(t);
    else out.set(k, [t]);
  }
  return out;
}

/** A user's status after the plan: the plan's, else live, else as declared (default active). */
function statusAfter(
  entries: readonly PlanEntry[],
  live: ReadonlyMap<string, LiveObject>,
  state: DesiredState,
): { status: (username: string) => string; madeInactive: Set<string> } {
  const planned = new Map<string, string>();
  const madeInactive = new Set<string>();
  for (const e of entries) {
    if (e.kind !== "User" || (e.action !== "create" && e.action !== "update")) continue;
    const status = e.after?.status;
    if (typeof status !== "string") continue;
    const username = e.key.slice("user/".length);
    planned.set(username, status);
    if (status === "inactive") madeInactive.add(username);
  }
  const declared = new Map((state.users ?? []).map((u) => [u.username, u.status]));
  return {
    status: (u) =>
      planned.get(u) ??
      (live.get(userKey(u))?.fields.status as string | undefined) ??
      declared.get(u) ??
      "active",
    madeInactive,
  };
}

/** The user an access key names (`…/access/admins/user/jdoe` → jdoe), if it names one. */
const accessUser = (key: string) => /\/access\/[^/]+\/user\/([^/]+)$/.exec(key)?.[1];

export function adminFloor(
  entries: readonly PlanEntry[],
  live: ReadonlyMap<string, LiveObject>,
  state: DesiredState,
): Refusal[] {
  const creates = new Set(entries.filter((e) => e.action === "create").map((e) => e.key));
  const liveKeys = byFloor(live.keys(), (k) => k);
  const planned = byFloor(entries, (e) => e.key);
  const { status, madeInactive } = statusAfter(entries, live, state);
  const inactive = (key: string) => {
    const u = accessUser(key);
    return u !== undefined && status(u) === "inactive";
  };
  const level = (slug: string, l: "admins" | "maintainers") => {
    const r = after(
      liveKeys.get(`${slug} ${l}`) ?? [],
      planned.get(`${slug} ${l}`) ?? [],
      `project/${slug}/access/${l}/`,
    );
    const idle = [...r.keys].filter(inactive);
    const touched = idle.some((k) => madeInactive.has(accessUser(k)!));
    return { ...r, active: r.keys.size - idle.length, idle, changed: r.changed || touched };
  };
  /** Declared users (and teams) of a level who will be active. */
  const activeDeclared = (users: readonly string[], teams = 0) =>
    users.filter((u) => status(u) !== "inactive").length + teams;
  /**
   * Left without anyone active: a level the plan changes, or the level of an object it
   * creates — unless the plan leaves that level alone and the manifest declares someone
   * active on it.
   */
  const empty = (
    slug: string,
    l: "admins" | "maintainers",
    r: ReturnType<typeof level>,
    created: boolean,
    declared: number,
  ) =>
    r.active === 0 && (r.changed || (created && (planned.has(`${slug} ${l}`) || declared === 0)));
  const how = (r: { removed: string[]; idle: string[] }) =>
    r.idle.length > 0
      ? `${list(r.idle.map((k) => accessUser(k)!))} ${r.idle.length === 1 ? "is" : "are"} inactive: an inactive user does not count`
      : r.removed.length > 0
        ? `the plan removes ${list(r.removed)}`
        : "none is declared";
  const reactivate = (r: { idle: string[] }) =>
    r.idle.length > 0
      ? `, or make ${list(r.idle.map((k) => accessUser(k)!))} active (status: active)`
      : "";
  const out: Refusal[] = [];
  for (const p of state.projects) {
    const admins = level(p.slug, "admins");
    const newProject = creates.has(projectKey(p.slug));
    if (empty(p.slug, "admins", admins, newProject, activeDeclared(p.access.admins.users)))
      out.push({
        rail: "admin-floor",
        message: `refusing: project ${p.slug} would be left without any ${admins.idle.length > 0 ? "active " : ""}admin (${how(admins)}); declare ${admins.idle.length > 0 ? "an active one" : "one"} under spec.access.admins${reactivate(admins)} (or pass --allow-no-admin if that is intended)`,
      });
    if (!p.git) continue;
    const maintainers = level(p.slug, "maintainers");
    const newGroup = newProject || creates.has(groupKey(p.slug));
    const declared = activeDeclared(
      p.access.maintainers.users,
      p.access.maintainers.organizationTeams.length,
    );
    if (empty(p.slug, "maintainers", maintainers, newGroup, declared))
      out.push({
        rail: "admin-floor",
        message: `refusing: the git group of project ${p.slug} would be left without ${maintainers.idle.length > 0 ? "an active" : "a"} maintainer (${how(maintainers)}); declare users or organizationTeams under spec.access.maintainers${reactivate(maintainers)} (or pass --allow-no-admin if that is intended)`,
      });
  }
  return out;
}
