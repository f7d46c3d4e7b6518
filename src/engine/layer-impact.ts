/**
 * The blast radius of Defaults layers in a plan: which layers the plan involves and how many
 * objects each selects ("defaults/repositories.yaml: 1,840 repositories in 200 projects"). Pure.
 *
 * - A plan of one config involves the layers whose values decide at least one changed field
 *   (`changes[].layer`).
 * - A pull request (`plan --base`) involves the Defaults documents it adds, removes or alters
 *   in what decides values (selector, priority, values); such a document changes exactly the
 *   objects its old or its new selector matches — those are its count, and the scope the plan
 *   reads (`keys`).
 */
import equal from "fast-deep-equal";
import type { LayerSummary } from "../layers/effective.js";
import type { LayerImpact, PlanEntry } from "./plan.js";
import { topKeyOf } from "./scope.js";

/** The impact of a layer over the union of what its summaries (base, head) select. */
function impactOf(
  summaries: readonly LayerSummary[],
  change?: LayerImpact["change"],
): { impact: LayerImpact; keys: Set<string> } {
  const last = summaries[summaries.length - 1];
  const keys = new Set(summaries.flatMap((s) => s.selected));
  const { file, line, column } = last.source;
  const repositories = last.select.kind === "Repository";
  return {
    impact: {
      name: last.name,
      source: { file, line, column },
      kind: last.select.kind,
      objects: keys.size,
      ...(repositories ? { projects: new Set([...keys].map(topKeyOf)).size } : {}),
      ...(change ? { change } : {}),
    },
    keys,
  };
}

/** The layers whose values decide a changed field of `entries`, in the order of `layers`. */
export function decidingLayers(
  entries: readonly PlanEntry[],
  layers: readonly LayerSummary[] | undefined,
): LayerImpact[] {
  if (!layers || layers.length === 0) return [];
  const named = new Set<string>();
  for (const e of entries) for (const c of e.changes) if (c.layer) named.add(c.layer);
  return layers.filter((l) => named.has(l.name)).map((l) => impactOf([l]).impact);
}

/** Does a Defaults document decide values differently on the two sides? */
const decidesAlike = (a: LayerSummary, b: LayerSummary) =>
  a.priority === b.priority && equal(a.select, b.select) && equal(a.values, b.values);

/**
 * The Defaults documents that differ between `base` and `head` (by name), with the top-level
 * keys of every object their old or new selector matches: what the change touches through them.
 */
export function changedLayers(
  base: readonly LayerSummary[],
  head: readonly LayerSummary[],
): { layers: LayerImpact[]; keys: string[] } {
  const was = new Map(base.map((l) => [l.name, l]));
  const out: LayerImpact[] = [];
  const keys = new Set<string>();
  const add = (summaries: LayerSummary[], change: LayerImpact["change"]) => {
    const got = impactOf(summaries, change);
    out.push(got.impact);
    for (const k of got.keys) keys.add(topKeyOf(k));
  };
  for (const l of head) {
    const b = was.get(l.name);
    was.delete(l.name);
    if (!b) add([l], "added");
    else if (!decidesAlike(b, l)) add([b, l], "changed");
  }
  for (const b of was.values()) add([b], "removed");
  return { layers: out, keys: [...keys].sort() };
}
