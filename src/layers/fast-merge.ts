/**
 * The merge of merge.ts for the common case, at a fraction of its cost (issue 35: `validate`
 * of a layered config spent most of its extra CPU building a contributor — with its path in
 * its document — for every place of every object, which only problems and explain read).
 * It merges values alone, beside the contributors they came from, and builds no path and no
 * place name. It handles only what gives no problem: no word of layering (`$remove`,
 * `inherit`) in any contributor, and no two layers of one priority that disagree. Anything
 * else throws BAIL and the caller runs mergeNode, the reference, which says why; where both
 * run they give the same value (test/layers/fast-merge.test.ts holds them equal).
 */
import equal from "fast-deep-equal";
import { byPrecedence, isMap, type Contributor } from "./contributor.js";
import { clone } from "./merge.js";
import type { Place } from "./place.js";
import { setItem, setKey, type ListRule } from "./shape.js";

/** Thrown where the fast merge would have to report a problem: run mergeNode instead. */
export const BAIL = new Error("the fast merge gives up here: run mergeNode");

export interface FastContext {
  kind: string;
  name: string;
  /** Layers of kind Repository for one entry of spec.git.repositories, in precedence. */
  repositoryLayers?: (key: string) => Contributor[];
}

/**
 * The effective value at `place` from `vs`, the defined values of contributors `cs` (in
 * precedence, one value each). Throws BAIL (see above).
 */
export function fastNode(
  ctx: FastContext,
  place: Place,
  cs: readonly Contributor[],
  vs: readonly unknown[],
): unknown {
  if (vs.length === 0) return undefined;
  const first = vs[0];
  if (vs.length === 1 && !cs[0].layer && ownAlone(ctx, place, first)) return clone(first);
  if (isMap(first) || (place.accessLevel && Array.isArray(first)))
    return fastMap(ctx, place, cs, vs);
  if (Array.isArray(first)) {
    const rule = place.rule;
    if (rule.merge !== "replace") return fastList(ctx, rule, place, cs, vs);
  }
  const winner = cs[0];
  if (winner.layer)
    for (let i = 1; i < cs.length; i++)
      if (cs[i].priority === winner.priority && !equal(vs[i], first)) throw BAIL;
  return clone(first);
}

/** merge.ts's ownAlone without a trace, for values with no word of layering. */
function ownAlone(ctx: FastContext, place: Place, value: unknown): boolean {
  if (value === null || typeof value !== "object") return true;
  if (!place.ownAlone) return false;
  return !(
    ctx.repositoryLayers &&
    (place.aboveRepositories || (place.repositories && Array.isArray(value)))
  );
}

const USERS = ["users"];

function fastMap(
  ctx: FastContext,
  place: Place,
  cs: readonly Contributor[],
  vs: readonly unknown[],
): Record<string, unknown> {
  // The contributors whose value is a mapping here (an access level's list: `{ users }`).
  const mcs: Contributor[] = [];
  const maps: Record<string, unknown>[] = [];
  const lists: boolean[] = [];
  for (let i = 0; i < vs.length; i++) {
    const v = vs[i];
    const list = place.accessLevel && Array.isArray(v);
    if (!list && !isMap(v)) continue;
    mcs.push(cs[i]);
    maps.push(v as Record<string, unknown>);
    lists.push(list);
  }
  // The object's own keys in its order, then the layers' sorted (as mergeMap).
  const keys = new Set<string>();
  let rest: Set<string> | undefined;
  for (let i = 0; i < maps.length; i++) {
    const ks = lists[i] ? USERS : Object.keys(maps[i]);
    if (mcs[i].layer) for (const k of ks) (rest ??= new Set()).add(k);
    else for (const k of ks) keys.add(k);
  }
  if (rest) for (const k of [...rest].sort()) keys.add(k);
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    // Most keys have one say (the object's own, or one layer's): no lists to build for it.
    let one = -1;
    let bcs: Contributor[] | undefined;
    let bvs: unknown[] | undefined;
    for (let i = 0; i < maps.length; i++) {
      // An access level written as a list: its `users` is the list itself (stepInto).
      const v = lists[i] ? (k === "users" ? maps[i] : undefined) : maps[i][k];
      if (v === undefined) continue;
      if (one < 0) {
        one = i;
        continue;
      }
      if (!bcs || !bvs) {
        bcs = [mcs[one]];
        bvs = [lists[one] ? maps[one] : maps[one][k]];
      }
      bcs.push(mcs[i]);
      bvs.push(v);
    }
    if (one < 0) continue;
    let v: unknown;
    if (bcs && bvs) v = fastNode(ctx, place.child(k), bcs, bvs);
    else {
      const only = lists[one] ? maps[one] : maps[one][k];
      // A scalar of one document: itself (fastNode would say so, after building a place).
      v =
        only === null || typeof only !== "object"
          ? only
          : fastNode(ctx, place.child(k), [mcs[one]], [only]);
    }
    if (v !== undefined) out[k] = v;
  }
  return out;
}
interface Entry {
  key: string;
  own: boolean;
  cs: Contributor[];
  vs: unknown[];
}

function fastList(
  ctx: FastContext,
  rule: Exclude<ListRule, { merge: "replace" }>,
  place: Place,
  cs: readonly Contributor[],
  vs: readonly unknown[],
): unknown[] {
  let lists = 0;
  let only = -1;
  for (let c = 0; c < vs.length; c++)
    if (Array.isArray(vs[c])) {
      lists++;
      only = c;
    }
  if (lists === 1 && !cs[only].layer)
    return ownList(ctx, rule, place, cs[only], vs[only] as unknown[]);
  const entries = new Map<string, Entry>();
  for (let c = 0; c < vs.length; c++) {
    const list = vs[c];
    if (!Array.isArray(list)) continue;
    const by = cs[c];
    // The same key twice in one document stays twice: the duplicate rules report it.
    const here = new Map<string, number>();
    for (const item of list as unknown[]) {
      const key =
        rule.merge === "set" ? setKey(item) : rule.key(item as Record<string, unknown>, ctx.name);
      const n = here.get(key) ?? 0;
      here.set(key, n + 1);
      const id = n === 0 ? key : `${key}\u0000${n}`;
      let entry = entries.get(id);
      if (!entry) entries.set(id, (entry = { key, own: false, cs: [], vs: [] }));
      entry.cs.push(by);
      entry.vs.push(item);
      if (!by.layer) entry.own = true;
    }
  }
  const all = [...entries.values()];
  const ordered = [
    ...all.filter((e) => e.own),
    ...all.filter((e) => !e.own).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
  ];
  const out: unknown[] = new Array<unknown>(ordered.length);
  const reachable = place.repositories && ctx.repositoryLayers;
  for (let i = 0; i < ordered.length; i++) {
    const e = ordered[i];
    if (rule.merge === "set") {
      out[i] = setItem(e.key, e.vs[0]);
      continue;
    }
    const reach = reachable ? ctx.repositoryLayers!(e.key) : [];
    if (reach.length === 0) {
      out[i] = fastNode(ctx, place, e.cs, e.vs);
      continue;
    }
    // Repository layers reach the entry: the two lists, each in precedence, merged.
    const bcs: Contributor[] = [];
    const bvs: unknown[] = [];
    let a = 0;
    let b = 0;
    while (a < e.cs.length || b < reach.length)
      if (b >= reach.length || (a < e.cs.length && byPrecedence(e.cs[a], reach[b]) <= 0)) {
        bcs.push(e.cs[a]);
        bvs.push(e.vs[a++]);
      } else {
        bcs.push(reach[b]);
        bvs.push(reach[b++].value);
      }
    out[i] = fastNode(ctx, place, bcs, bvs);
  }
  return out;
}

/**
 * fastList where the object's own document alone writes the list (a project's repositories,
 * most of a large config): its entries in its order, each with the Repository layers that
 * reach it. The same as fastList gives, without indexing entries by key.
 */
function ownList(
  ctx: FastContext,
  rule: Exclude<ListRule, { merge: "replace" }>,
  place: Place,
  own: Contributor,
  list: readonly unknown[],
): unknown[] {
  const out: unknown[] = new Array<unknown>(list.length);
  const reachable = place.repositories && ctx.repositoryLayers;
  const ownOnly = [own];
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (rule.merge === "set") {
      // A name, or a grant's mapping (`{ user: bob, expires: … }`) kept whole.
      out[i] =
        item !== null && typeof item === "object" ? setItem(setKey(item), item) : String(item);
      continue;
    }
    const reach = reachable
      ? ctx.repositoryLayers!(rule.key(item as Record<string, unknown>, ctx.name))
      : [];
    if (reach.length === 0) {
      out[i] = fastNode(ctx, place, ownOnly, [item]);
      continue;
    }
    // The object's own document comes first in precedence, then the layers (in theirs).
    const bvs: unknown[] = [item];
    for (const c of reach) bvs.push(c.value);
    out[i] = fastNode(ctx, place, [own, ...reach], bvs);
  }
  return out;
}
