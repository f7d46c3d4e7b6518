/**
 * Plans scoped to a change (`plan --base`): which top-level objects — `user/<name>`,
 * `team/<name>`, `organization/<name>`, `project/<slug>` — a change of the manifests
 * touches, and the desired state narrowed to them, so that a plan reads and diffs those
 * alone and its cost follows the size of the pull request, not of the organization. Pure.
 *
 * What a change touches (`changeScope`):
 * - every top-level object added, removed or whose declaration changed — which is every
 *   declared object of every kind (a repository, an access entry, …) added, removed or
 *   modified in its fields, its dependencies or `phctl/protect`, as the object it is under;
 * - the objects that read a fact about another one the change alters (a user declared or
 *   not, its wiki account; an organization declared or not: `readersOfMovedFacts`);
 * - everything, when phctl.yaml changes a setting that decides what a plan holds
 *   (`PLANNING_SETTINGS`).
 * What the objects in scope reference is read from the organization-wide lists every plan
 * reads (users, organizations, organization teams, licenses); a referenced declared object
 * joins the scope only when an entry in scope depends on it (src/engine/scope-read.ts).
 */
import equal from "fast-deep-equal";
import { kinds as allKinds } from "../kinds/index.js";
import type { DesiredObject, ResourceKind } from "../kinds/kind.js";
import type { DesiredState, ManifestConfig } from "../manifest/types.js";
import { topKeyOf } from "../manifest/keys.js";

export { topKeyOf } from "../manifest/keys.js";

/** Declared objects by kind name. */
export type DesiredByKind = ReadonlyMap<string, DesiredObject[]>;

/** Every kind's declared objects of a state. */
export function desiredOf(
  state: DesiredState,
  kinds: readonly ResourceKind[] = allKinds,
): DesiredByKind {
  return new Map(kinds.map((k) => [k.kind, k.desired(state)]));
}

/**
 * The state whose desired objects are those of the objects in `scope`, with what they
 * depend on: projects and teams narrowed, users and organizations whole (access entries
 * and team members depend on declared users; users and projects on declared
 * organizations). The planner keeps the objects in scope of what it declares.
 */
export function desiredScope(state: DesiredState, scope: ReadonlySet<string>): DesiredState {
  return {
    ...state,
    teams: state.teams.filter((x) => scope.has(x.key)),
    projects: state.projects.filter((x) => scope.has(x.key)),
  };
}

/** The top-level keys a state declares. */
export function declaredTopKeys(state: DesiredState): Set<string> {
  return new Set([
    ...state.organizations.map((x) => x.key),
    ...state.users.map((x) => x.key),
    ...state.teams.map((x) => x.key),
    ...state.projects.map((x) => x.key),
  ]);
}

/**
 * The desired state narrowed to the top-level objects of `keys` (keys at any depth), so
 * that the kinds read those alone. References are left to the caller (emptied here).
 */
export function scopeState(state: DesiredState, keys: Iterable<string>): DesiredState {
  const tops = new Set([...keys].map(topKeyOf));
  return {
    ...state,
    organizations: state.organizations.filter((x) => tops.has(x.key)),
    users: state.users.filter((x) => tops.has(x.key)),
    teams: state.teams.filter((x) => tops.has(x.key)),
    projects: state.projects.filter((x) => tops.has(x.key)),
    referencedUsers: [],
    referencedOrganizations: [],
  };
}

/**
 * phctl.yaml settings that decide what a plan holds: when the change alters one, every
 * object may plan differently and the scope is everything. (concurrency, timeouts, the
 * journal and maxRemovals change how apply runs, not what is planned.)
 */
export const PLANNING_SETTINGS = ["organization", "apiUrl", "prune", "ignore"] as const;

/** The planning settings that differ between two configs. */
export function settingsChanged(base: ManifestConfig, head: ManifestConfig): string[] {
  return PLANNING_SETTINGS.filter((s) => !equal(base[s], head[s]));
}

/** What a change touches. */
export interface ChangeScope {
  /** Top-level keys, sorted; empty when `everything` or when the change touches nothing. */
  keys: string[];
  /** The phctl.yaml settings that differ; when any does, everything is planned. */
  settings: string[];
}

/** Deep equality of normalised state, where they are declared aside (`source`: lines move). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    return a.length === bs.length && a.every((x, i) => same(x, bs[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = Object.keys(ao).filter((k) => k !== "source" && ao[k] !== undefined);
  const other = Object.keys(bo).filter((k) => k !== "source" && bo[k] !== undefined);
  return keys.length === other.length && keys.every((k) => same(ao[k], bo[k]));
}

type TopLevel = { key: string };
const topLevel = (s: DesiredState): TopLevel[] => [
  ...s.organizations,
  ...s.users,
  ...s.teams,
  ...s.projects,
];

/**
 * The top-level objects a change from `base` to `head` touches: those whose normalised
 * declaration differs (sources aside), and those whose declared objects read a fact about
 * another declared object that differs (`readersOfMovedFacts`). Equivalent to comparing
 * every kind's desired objects — fields, dependencies, protection — (test/engine/scope.test.ts
 * holds the two to the same answer) at a fraction of the cost.
 */
export function changeScope(base: DesiredState, head: DesiredState): ChangeScope {
  const settings = settingsChanged(base.config, head.config);
  if (settings.length > 0) return { keys: [], settings };
  const touched = new Set<string>();
  const was = new Map(topLevel(base).map((x) => [x.key, x]));
  for (const x of topLevel(head)) {
    const b = was.get(x.key);
    was.delete(x.key);
    if (!b || !same(b, x)) touched.add(x.key);
  }
  for (const key of was.keys()) touched.add(key);
  for (const key of readersOfMovedFacts(base, head)) touched.add(key);
  return { keys: [...touched].sort(), settings: [] };
}

/** Per declared user: declared, with a wiki account declared, active. */
const userFacts = (state: DesiredState) =>
  new Map(
    state.users.map((u) => [
      u.username,
      `${u.services.wiki !== undefined} ${u.services.wiki?.status}`,
    ]),
  );

/**
 * Objects whose desired objects or checks read a fact about another declared object that
 * the change alters:
 * - a user declared or no longer declared: what names it (access entries and team
 *   members depend on a declared user; an access entry of a user that exists nowhere is
 *   blocked);
 * - a user's wiki account declared, removed or (de)activated: the projects it edits
 *   (editors depend on the account and need it active);
 * - an organization declared or no longer declared: its users and projects (they depend
 *   on a declared organization).
 */
function readersOfMovedFacts(base: DesiredState, head: DesiredState): string[] {
  const was = userFacts(base);
  const now = userFacts(head);
  const declared = new Set<string>();
  const wiki = new Set<string>();
  for (const u of new Set([...was.keys(), ...now.keys()])) {
    if (was.has(u) !== now.has(u)) declared.add(u);
    else if (was.get(u) !== now.get(u)) wiki.add(u);
  }
  const orgsWere = new Set(base.organizations.map((o) => o.name));
  const orgsNow = new Set(head.organizations.map((o) => o.name));
  const orgs = new Set([...orgsWere, ...orgsNow].filter((o) => orgsWere.has(o) !== orgsNow.has(o)));
  if (declared.size + wiki.size + orgs.size === 0) return [];
  const out: string[] = [];
  const orgOf = (s: DesiredState, o: string | undefined) => o ?? s.config.organization;
  for (const s of [base, head]) {
    for (const p of s.projects)
      if (
        Object.values(p.access).some((l) => l.users.some((u) => declared.has(u))) ||
        p.access.editors.users.some((u) => wiki.has(u)) ||
        orgs.has(orgOf(s, p.organization) ?? "")
      )
        out.push(p.key);
    for (const t of s.teams) if (t.members.some((u) => declared.has(u))) out.push(t.key);
    for (const u of s.users) if (orgs.has(orgOf(s, u.organization) ?? "")) out.push(u.key);
  }
  return out;
}
