/**
 * Identical changes counted together, so that an organization-wide change reads as one line
 * ("enableForking: true → false on 999 repositories in 100 projects (layer no-forks, …)")
 * before the thousand entries that carry it out. A change is one field of an update (or of a
 * ticket or blocked entry), or a whole created or deleted object; two are identical when they
 * have the same action, kind, field, before → after and source document (the Defaults layer
 * whose value the field takes, or the file of the object's own manifest). Every change is in
 * exactly one group. Pure: the renderers get plain data.
 */
import { canonical } from "../engine/reviewed.js";
import { projectOf, type PlanEntry } from "../engine/plan.js";
import type { ChangeGroup, GroupSource } from "../engine/plan-groups.js";
import { byName } from "./markdown-groups.js";

export type { ChangeGroup, GroupSource };

/** A cluster this big (changes) is an organization-wide change: summarised, its objects folded. */
export const GROUPED = 10;

const ACTION_ORDER = { create: 0, update: 1, delete: 2, ticket: 3, blocked: 4 } as const;

/** One change of an entry: a field, or the whole object (`field` absent). */
interface Unit {
  entry: PlanEntry;
  field?: string;
  before?: unknown;
  after?: unknown;
  layer?: string;
  file?: string;
  line?: number;
}

/** The changes an entry makes: each field of an update, ticket or blocked entry; else the whole. */
export function unitsOf(e: PlanEntry): Unit[] {
  const whole = e.action === "create" || e.action === "delete" || e.changes.length === 0;
  if (whole)
    return [{ entry: e, ...(e.source ? { file: e.source.file, line: e.source.line } : {}) }];
  return e.changes.map((c) => {
    // A field left to its default has no line of its own: its document is the object's file.
    const file = c.source?.file ?? e.source?.file;
    return {
      entry: e,
      field: c.field,
      before: c.before ?? null,
      after: c.after ?? null,
      ...(c.layer !== undefined ? { layer: c.layer } : {}),
      ...(file !== undefined ? { file } : {}),
      ...(c.source ? { line: c.source.line } : {}),
    };
  });
}

/** A value as identity compares it: JSON, objects with their keys sorted. */
const valueKey = (v: unknown) =>
  v === undefined || v === null || typeof v !== "object" ? JSON.stringify(v ?? null) : canonical(v);

/** What makes two changes the same change, whatever document they come from. */
const changeKey = (
  action: string,
  kind: string,
  field?: string,
  before?: unknown,
  after?: unknown,
) =>
  `${JSON.stringify([action, kind, field ?? null])}${field === undefined ? "" : `\u0000${valueKey(before)}\u0000${valueKey(after)}`}`;
const changeOf = (u: Unit) => changeKey(u.entry.action, u.entry.kind, u.field, u.before, u.after);
/** What makes two changes identical: the same change from the same document. */
const identity = (u: Unit) =>
  `${changeOf(u)}\u0001${JSON.stringify([u.layer ?? null, u.file ?? null])}`;

/** How many projects the keys are in. */
export function projectCount(keys: Iterable<string>): number {
  const slugs = new Set<string>();
  for (const k of keys) {
    const s = projectOf(k);
    if (s !== undefined) slugs.add(s);
  }
  return slugs.size;
}

function groupOf(units: readonly Unit[]): ChangeGroup {
  const u = units[0];
  const lines = new Set(units.map((x) => x.line));
  const source: GroupSource = {
    ...(u.layer !== undefined ? { layer: u.layer } : {}),
    ...(u.file !== undefined ? { file: u.file } : {}),
    ...(lines.size === 1 && u.line !== undefined ? { line: u.line } : {}),
  };
  const keys = units.map((x) => x.entry.key).sort(byName);
  return {
    action: u.entry.action,
    kind: u.entry.kind,
    ...(u.field !== undefined ? { field: u.field, before: u.before, after: u.after } : {}),
    source,
    count: units.length,
    projects: projectCount(keys),
    keys,
  };
}

/** Largest first; then by action, kind, field and document, for a stable order. */
function compareGroups(a: ChangeGroup, b: ChangeGroup): number {
  return (
    b.count - a.count ||
    ACTION_ORDER[a.action] - ACTION_ORDER[b.action] ||
    byName(a.kind, b.kind) ||
    byName(a.field ?? "", b.field ?? "") ||
    byName(canonical([a.before, a.after]), canonical([b.before, b.after])) ||
    byName(a.source.layer ?? "", b.source.layer ?? "") ||
    byName(a.source.file ?? "", b.source.file ?? "")
  );
}

/** The entries' changes in groups of identical ones, largest first. */
export function changeGroups(entries: readonly PlanEntry[]): ChangeGroup[] {
  const byIdentity = new Map<string, Unit[]>();
  for (const e of entries)
    for (const u of unitsOf(e)) {
      const id = identity(u);
      const list = byIdentity.get(id);
      if (list) list.push(u);
      else byIdentity.set(id, [u]);
    }
  return [...byIdentity.values()].map(groupOf).sort(compareGroups);
}

/**
 * The groups that make the same change from different documents (a layer's value, and the
 * objects whose own manifests say the same): one line of the summary, largest source first.
 */
export interface ChangeCluster {
  action: ChangeGroup["action"];
  kind: string;
  field?: string;
  before?: unknown;
  after?: unknown;
  /** The changes of all its groups. */
  count: number;
  /** Largest first. */
  groups: ChangeGroup[];
}

/** The groups clustered by what they change (whatever document), largest cluster first. */
export function changeClusters(groups: readonly ChangeGroup[]): ChangeCluster[] {
  const byChange = new Map<string, ChangeCluster>();
  for (const g of groups) {
    const id = clusterId(g);
    const c = byChange.get(id);
    if (c) {
      c.groups.push(g);
      c.count += g.count;
    } else
      byChange.set(id, {
        action: g.action,
        kind: g.kind,
        ...(g.field !== undefined ? { field: g.field, before: g.before, after: g.after } : {}),
        count: g.count,
        groups: [g],
      });
  }
  // `groups` is sorted largest first, so each cluster's groups are too.
  return [...byChange.values()].sort(
    (a, b) => b.count - a.count || compareGroups(a.groups[0], b.groups[0]),
  );
}

/**
 * The summary of a plan: the clusters of at least `GROUPED` changes, and the keys of the
 * entries every change of which is in one of them (those a rendering may fold away).
 */
export interface GroupedSummary {
  clusters: ChangeCluster[];
  /** Changes outside the summarised clusters. */
  others: number;
  folded: ReadonlySet<PlanEntry>;
}

export function groupedSummary(
  entries: readonly PlanEntry[],
  min = GROUPED,
): GroupedSummary | undefined {
  const all = changeClusters(changeGroups(entries));
  const clusters = all.filter((c) => c.count >= min);
  if (clusters.length === 0) return undefined;
  const inSummary = new Set<string>();
  for (const c of clusters) inSummary.add(clusterId(c));
  const folded = new Set<PlanEntry>();
  for (const e of entries) {
    if (e.action === "delete" || e.action === "ticket" || e.action === "blocked") continue;
    if (unitsOf(e).every((u) => inSummary.has(changeOf(u)))) folded.add(e);
  }
  const others = all.filter((c) => c.count < min).reduce((a, c) => a + c.count, 0);
  return { clusters, others, folded };
}

/** The change a group or cluster makes. */
const clusterId = (c: Pick<ChangeCluster, "action" | "kind" | "field" | "before" | "after">) =>
  changeKey(c.action, c.kind, c.field, c.before, c.after);
