/**
 * The merge: an object's own spec and the layers that select it → the effective spec. Rules
 * by place (shape.ts): scalars and plain lists — the first contributor in precedence wins;
 * mappings merge key by key; keyed lists merge entry by entry, a tombstone removing one entry
 * of the contributors below it. Nothing is shared between objects: every mapping and list of
 * the result is new, so no object's value leaks into another's (gitlabform #209).
 *
 * Problems are returned, never thrown: two layers of one priority that disagree where they
 * decide, a tombstone that removes nothing.
 */
import equal from "fast-deep-equal";
import { byPrecedence, cutAtInherit, isMap, stepInto, type Contributor } from "./contributor.js";
import {
  accessLevelForm,
  listRule,
  setItem,
  setKey,
  tombstoneKey,
  usesLayerWords,
  type ListRule,
} from "./shape.js";

export type MergeProblem =
  | {
      code: "layer-conflict";
      /** Where, for people: `spec.git.repositories[docs].enableForking`. */
      path: string;
      winner: Contributor;
      other: Contributor;
    }
  | {
      code: "tombstone-unused";
      path: string;
      by: Contributor;
      key: string;
      /** The keys the contributors below do give here (for "did you mean"). */
      given: string[];
    }
  | { code: "tombstone-conflict"; path: string; by: Contributor; other: Contributor; key: string };

/** One value of the effective object and who said what about it, winner first. */
export interface TraceEntry {
  path: string;
  value: unknown;
  /** Contributors that set it, in precedence; the first is the winner. */
  chain: Contributor[];
  /** Tombstones that removed this entry from the contributors below them. */
  removedBy?: Contributor[];
  /** The entry was removed: it is not in the effective object. */
  removed?: boolean;
  /**
   * At an `inherit: false` (path `….inherit`, chain: the document that wrote it): the
   * contributors it cut off — they select the object, and nothing of theirs below counts.
   */
  cutOff?: Contributor[];
}

export interface MergeContext {
  kind: string;
  /** The object's name (an artifact repository's default name is its project's slug). */
  name: string;
  /** Layers of kind Repository for one entry of spec.git.repositories, in precedence. */
  repositoryLayers?: (key: string) => Contributor[];
  problems: MergeProblem[];
  /** Set to record every value's contributors (explain). */
  trace?: TraceEntry[];
}

/**
 * A copy of a plain (YAML-read) value: maps and lists new, scalars shared. Several times
 * faster than structuredClone on the many small mappings of a large config.
 */
export function clone<T>(v: T): T {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(clone) as T;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const x = clone((v as Record<string, unknown>)[k]);
    // A key named __proto__ stays a key (an assignment would set the prototype); any other
    // is assigned, several times faster than defining it.
    if (k === "__proto__")
      Object.defineProperty(out, k, {
        value: x,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[k] = x;
  }
  return out as T;
}

/** The `inherit: false` above a place: who wrote it, and where (`spec.git`). */
interface Floor {
  by: Contributor;
  shown: string;
}

/** Record an `inherit: false` at `shown` and the contributors it cut off (explain shows them). */
function traceCut(ctx: MergeContext, shown: string, by: Contributor, cut: Contributor[]): void {
  if (!ctx.trace || cut.length === 0) return;
  const at: Contributor = { ...by, at: [...by.at, "inherit"], value: false };
  ctx.trace.push({ path: `${shown}.inherit`, value: false, chain: [at], cutOff: cut });
}

/** The effective value at one place, from its contributors (sorted by precedence). */
export function mergeNode(
  ctx: MergeContext,
  dotted: string,
  shown: string,
  contributors: Contributor[],
  floor?: Floor,
): unknown {
  const defined = contributors.filter((c) => c.value !== undefined);
  if (defined.length === 0) return undefined;
  // The object's own value alone (most of a large object): nothing to merge, a copy will do.
  if (defined.length === 1 && !defined[0].layer && ownAlone(ctx, dotted, defined[0].value))
    return clone(defined[0].value);
  const top = accessLevelForm(dotted, ctx.kind, defined[0].value);
  if (isMap(top)) return mergeMap(ctx, dotted, shown, defined, floor);
  if (Array.isArray(top)) {
    const rule = listRule(ctx.kind, dotted);
    if (rule.merge !== "replace") return mergeList(ctx, rule, dotted, shown, defined, floor);
  }
  const winner = defined[0];
  if (winner.layer) {
    // One problem per place, however many layers of that priority disagree.
    const other = defined.find(
      (c) => c.priority === winner.priority && !equal(c.value, winner.value),
    );
    if (other) ctx.problems.push({ code: "layer-conflict", path: shown, winner, other });
  }
  ctx.trace?.push({ path: shown, value: winner.value, chain: defined });
  return clone(winner.value);
}

/**
 * May the own value at `dotted`, with no layer beside it, be taken as it is? Not when a trace
 * is recorded, when it holds a word of layering, where an access level may be written as a
 * list (the merge writes the mapping form), or above a repository list that Repository
 * layers may reach.
 */
function ownAlone(ctx: MergeContext, dotted: string, value: unknown): boolean {
  if (ctx.trace || value === null || typeof value !== "object") return !ctx.trace;
  if (dotted === "spec" || dotted === "spec.access" || dotted.startsWith("spec.access."))
    return false;
  if (
    ctx.repositoryLayers &&
    (dotted === "spec.git" || (dotted === "spec.git.repositories" && Array.isArray(value)))
  )
    return false;
  return !usesLayerWords(value);
}

function mergeMap(
  ctx: MergeContext,
  dotted: string,
  shown: string,
  defined: Contributor[],
  floor: Floor | undefined,
): Record<string, unknown> {
  const all = defined.filter((c) => isMap(accessLevelForm(dotted, ctx.kind, c.value)));
  const maps = cutAtInherit(all);
  const last = maps.at(-1);
  if (last && isMap(last.value) && last.value.inherit === false) {
    floor = { by: last, shown };
    traceCut(ctx, shown, last, all.slice(maps.length));
  }
  // The object's own keys in its order, then the layers' sorted: no order of files shows.
  const keys = new Set<string>();
  const rest = new Set<string>();
  for (const c of maps)
    for (const k of Object.keys(accessLevelForm(dotted, ctx.kind, c.value) as object))
      if (k !== "inherit") (c.layer ? rest : keys).add(k);
  for (const k of [...rest].sort()) keys.add(k);
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const child = `${dotted}.${k}`;
    // Only the contributors that say something at `k` (most layers say nothing at most keys).
    const below: Contributor[] = [];
    for (const c of maps) {
      const into = stepInto(c, ctx.kind, dotted, k);
      if (into.value !== undefined) below.push(into);
    }
    const v = mergeNode(ctx, child, `${shown}.${k}`, below, floor);
    if (v !== undefined) out[k] = v;
  }
  // A mapping that says nothing more (`git: {}`) is a setting all the same: who set it.
  if (keys.size === 0) ctx.trace?.push({ path: shown, value: out, chain: maps });
  return out;
}

interface Entry {
  key: string;
  contributors: Contributor[];
  removedBy: Contributor[];
}

interface Tomb {
  key: string;
  by: Contributor;
  used: boolean;
}

function mergeList(
  ctx: MergeContext,
  rule: Exclude<ListRule, { merge: "replace" }>,
  dotted: string,
  shown: string,
  defined: Contributor[],
  floor: Floor | undefined,
): unknown[] {
  const keyOf = (item: unknown) =>
    rule.merge === "set" ? setKey(item) : rule.key(item as Record<string, unknown>, ctx.name);
  const lists = defined.filter((c) => Array.isArray(c.value));
  const tombs: Tomb[] = [];
  lists.forEach((c) => {
    (c.value as unknown[]).forEach((item, i) => {
      const key = tombstoneKey(item);
      if (key !== undefined) tombs.push({ key, by: { ...c, at: [...c.at, i] }, used: false });
    });
  });
  const entries = new Map<string, Entry>();
  for (const c of lists) {
    const here = new Map<string, number>();
    (c.value as unknown[]).forEach((item, i) => {
      if (tombstoneKey(item) !== undefined) return;
      const key = keyOf(item);
      const at: Contributor = { ...c, at: [...c.at, i], value: item };
      const removedBy: Contributor[] = [];
      for (const t of tombs) {
        if (t.key !== key || t.by.handle === c.handle || t.by.priority < c.priority) continue;
        t.used = true;
        if (t.by.priority === c.priority)
          ctx.problems.push({
            code: "tombstone-conflict",
            path: `${shown}[${key}]`,
            by: t.by,
            other: at,
            key,
          });
        else removedBy.push(t.by);
      }
      if (removedBy.length > 0) {
        ctx.trace?.push({
          path: `${shown}[${key}]`,
          value: item,
          chain: [at],
          removedBy,
          removed: true,
        });
        return;
      }
      // The same key twice in one document stays twice: the duplicate rules report it.
      const n = here.get(key) ?? 0;
      here.set(key, n + 1);
      const id = n === 0 ? key : `${key}\u0000${n}`;
      const entry = entries.get(id) ?? { key, contributors: [], removedBy: [] };
      entry.contributors.push(at);
      entries.set(id, entry);
    });
  }
  for (const t of tombs)
    if (!t.used)
      ctx.problems.push({
        code: "tombstone-unused",
        path: shown,
        by: t.by,
        key: t.key,
        given: [...entries.values()].map((e) => e.key),
      });
  // The object's own entries in its order, then the layers' by key: no order of files shows.
  const own = (e: Entry) => e.contributors.some((c) => !c.layer);
  const ordered = [
    ...[...entries.values()].filter(own),
    ...[...entries.values()]
      .filter((e) => !own(e))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
  ];
  const out: unknown[] = [];
  // An empty list a document writes (`reporters: []`) is a setting too.
  if (ordered.length === 0 && ctx.trace) ctx.trace.push({ path: shown, value: out, chain: lists });
  for (const e of ordered) {
    const path = `${shown}[${e.key}]`;
    if (rule.merge === "set") {
      ctx.trace?.push({ path, value: e.key, chain: e.contributors });
      out.push(setItem(e.key, e.contributors[0]?.value));
      continue;
    }
    // Repository layers, but none below an `inherit: false` above this entry.
    const reach =
      dotted === "spec.git.repositories" && ctx.repositoryLayers ? ctx.repositoryLayers(e.key) : [];
    const more = reach.filter((c) => floor === undefined || byPrecedence(c, floor.by) < 0);
    if (floor && more.length < reach.length)
      traceCut(
        ctx,
        floor.shown,
        floor.by,
        reach.filter((c) => !more.includes(c)),
      );
    const cs = more.length > 0 ? [...e.contributors, ...more].sort(byPrecedence) : e.contributors;
    out.push(mergeNode(ctx, dotted, path, cs, floor));
  }
  return out;
}
