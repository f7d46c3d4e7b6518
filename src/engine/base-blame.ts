/**
 * `plan --base`: every change's source names the document whose edit caused it. A change a
 * Defaults layer's edit causes — a narrowed selector, an entry dropped from its values, the
 * layer deleted — is planned from the head config, where the layer no longer gives anything:
 * the head alone would place it at the object's own file, naming no layer. The base config
 * knows who gave the value the change takes away: when that is a layer this change edits, the
 * change is placed at that layer (its head document; the base's when it was deleted) and names
 * it. A value the object's own manifest now writes stays the manifest's. Pure.
 */
import type { DesiredState, LayerSummary } from "../manifest/types.js";
import { topKeyOf } from "../manifest/keys.js";
import { layerHolding } from "./change-sources.js";
import type { LayerImpact, PlanEntry, SourceRef } from "./plan.js";

const ref = (s: SourceRef): SourceRef => ({
  file: s.file,
  line: s.line,
  ...(s.column !== undefined ? { column: s.column } : {}),
});

/** The layer a source of `state` is in (undefined: the object's own document, or none). */
function layerOf(
  state: DesiredState,
  key: string,
  at: SourceRef | undefined,
): LayerSummary | undefined {
  if (!at || !state.layers?.length) return undefined;
  return layerHolding(state.layers, state.sources.get(topKeyOf(key)), at);
}

/**
 * Re-place the entries of a split `plan --base` plan whose change a layer edit causes (see the
 * module comment). `changed`: the Defaults documents the change adds, alters or removes.
 */
export function blameChangedLayers(
  entries: PlanEntry[],
  base: DesiredState,
  head: DesiredState,
  changed: readonly LayerImpact[],
): void {
  if (changed.length === 0) return;
  const edited = new Map(changed.map((l) => [l.name, l]));
  // The edited layer that gave `key` (or its `field`) on the base, when one did.
  const gaveOnBase = (key: string, at: SourceRef | undefined, layer?: string) => {
    const name = layer ?? layerOf(base, key, at)?.name;
    return name === undefined ? undefined : edited.get(name);
  };
  for (const e of entries) {
    if (e.action === "delete") {
      const l = gaveOnBase(e.key, base.sources.get(e.key));
      if (l) Object.assign(e, { source: ref(l.source), layer: l.name });
      continue;
    }
    if (e.changes.length === 0) continue;
    let blamed: LayerImpact | undefined;
    e.changes = e.changes.map((c) => {
      // The head's own manifest writes it: its edit.
      if (c.source && !c.layer && !layerOf(head, e.key, c.source)) return c;
      if (c.layer && edited.has(c.layer)) return c;
      const was = base.layerSources?.(e.kind, e.key, c.field);
      const l = was && gaveOnBase(e.key, was, was.layer);
      if (!l) return c;
      blamed ??= l;
      return { ...c, source: ref(l.source), layer: l.name };
    });
    // The entry is at its first change's place: a layer's when each change is a layer's.
    if (blamed && e.changes.every((c) => c.layer)) {
      const first = e.changes[0];
      e.source = ref(first.source!);
      e.layer = first.layer!;
    }
  }
}

/** Name the layer that holds each entry's source (a create a layer gives is at its line). */
export function nameEntryLayers(entries: PlanEntry[], state: DesiredState): void {
  if (!state.layers?.length) return;
  for (const e of entries) {
    if (e.layer !== undefined || !e.source) continue;
    const l = layerOf(state, e.key, e.source);
    if (l) e.layer = l.name;
  }
}
