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
import { accessLevelForm, listRule, type ListRule } from "./shape.js";

/** Thrown where the fast merge would have to report a problem: run mergeNode instead. */
export const BAIL = new Error("the fast merge gives up here: run mergeNode");

export interface FastContext {
  kind: string;
  name: string;
  /** Layers of kind Repository for one entry of spec.git.repositories, in precedence. */
  repositoryLayers?: (key: string) => Contributor[];
}

/**
 * The effective value at `dotted` from `vs`, the defined values of contributors `cs` (in
 * precedence, one value each). Throws BAIL (see above).
 */
export function fastNode(
  ctx: FastContext,
  dotted: string,
  cs: readonly Contributor[],
  vs: readonly unknown[],
): unknown {
  if (vs.length === 0) return undefined;
  const first = vs[0];
  if (vs.length === 1 && !cs[0].layer && ownAlone(ctx, dotted, first)) return clone(first);
  const top = accessLevelForm(dotted, ctx.kind, first);
  if (isMap(top)) return fastMap(ctx, dotted, cs, vs);
  if (Array.isArray(top)) {
    const rule = listRule(ctx.kind, dotted);
    if (rule.merge !== "replace") return fastList(ctx, rule, dotted, cs, vs);
  }
  const winner = cs[0];
  if (winner.layer)
    for (let i = 1; i < cs.length; i++)
      if (cs[i].priority === winner.priority && !equal(vs[i], first)) throw BAIL;
  return clone(first);
}

/** merge.ts's ownAlone without a trace, for values with no word of layering. */
function ownAlone(ctx: FastContext, dotted: string, value: unknown): boolean {
  if (value === null || typeof value !== "object") return true;
  if (dotted === "spec" || dotted === "spec.access" || dotted.startsWith("spec.access."))
    return false;
  return !(
    ctx.repositoryLayers &&
    (dotted === "spec.git" || (dotted === "spec.git.repositories" && Array.isArray(value)))
  );
}

function fastMap(
  ctx: FastContext,
  dotted: string,
  cs: readonly Contributor[],
  vs: readonly unknown[],
): Record<string, unknown> {
  // The contributors whose value is a mapping here, each as that mapping.
  const mcs: Contributor[] = [];
  const maps: Record<string, unknown>[] = [];
  const lists: boolean[] = [];
  for (let i = 0; i < vs.length; i++) {
    const form = accessLevelForm(dotted, ctx.kind, vs[i]);
    if (!isMap(form)) continue;
    mcs.push(cs[i]);
    maps.push(form);
    lists.push(form !== vs[i]);
  }
  // The object's own keys in its order, then the layers' sorted (as mergeMap).
  const keys = new Set<string>();
  let rest: Set<string> | undefined;
  for (let i = 0; i < maps.length; i++)
    if (mcs[i].layer) for (const k of Object.keys(maps[i])) (rest ??= new Set()).add(k);
    else for (const k of Object.keys(maps[i])) keys.add(k);
  if (rest) for (const k of [...rest].sort()) keys.add(k);
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const bcs: Contributor[] = [];
    const bvs: unknown[] = [];
    for (let i = 0; i < maps.length; i++) {
      // An access level written as a list: its `users` is the list itself (stepInto).
      const v = lists[i] ? (k === "users" ? vs[i] : undefined) : maps[i][k];
      if (v === undefined) continue;
      bcs.push(mcs[i]);
      bvs.push(v);
    }
    const v = fastNode(ctx, `${dotted}.${k}`, bcs, bvs);
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
  dotted: string,
  cs: readonly Contributor[],
  vs: readonly unknown[],
): unknown[] {
  const entries = new Map<string, Entry>();
  for (let c = 0; c < vs.length; c++) {
    const list = vs[c];
    if (!Array.isArray(list)) continue;
    const by = cs[c];
    // The same key twice in one document stays twice: the duplicate rules report it.
    const here = new Map<string, number>();
    for (const item of list as unknown[]) {
      const key =
        rule.merge === "set" ? String(item) : rule.key(item as Record<string, unknown>, ctx.name);
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
  const reachable = dotted === "spec.git.repositories" && ctx.repositoryLayers;
  for (let i = 0; i < ordered.length; i++) {
    const e = ordered[i];
    if (rule.merge === "set") {
      out[i] = e.key;
      continue;
    }
    const reach = reachable ? ctx.repositoryLayers!(e.key) : [];
    if (reach.length === 0) {
      out[i] = fastNode(ctx, dotted, e.cs, e.vs);
      continue;
    }
    // Repository layers reach the entry: all of them, with the values, in precedence.
    const pairs = e.cs.map((c, j) => ({ c, v: e.vs[j] }));
    for (const c of reach) pairs.push({ c, v: c.value });
    pairs.sort((a, b) => byPrecedence(a.c, b.c));
    out[i] = fastNode(
      ctx,
      dotted,
      pairs.map((p) => p.c),
      pairs.map((p) => p.v),
    );
  }
  return out;
}
