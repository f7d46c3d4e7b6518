/**
 * Each changed field of a plan at its own manifest line (src/manifest/field-sources.ts): a
 * change carries `source`, and an entry that changes fields is located at the first of them
 * in the file — what a reviewer opens and an annotation marks. Entries that change no field
 * (creates, deletes) keep their object's line. A value a Defaults layer gave is at the layer's
 * line, and the change names the layer (`layer`).
 */
import { readFileSync } from "node:fs";
import { decodeYamlBytes } from "../manifest/decode.js";
import { locateFields } from "../manifest/field-sources.js";
import type { LayerSource, LayerSummary, Source } from "../manifest/types.js";
import type { PlanEntry, SourceRef } from "./plan.js";

/** A manifest file's text as the loader decodes it, from the working directory. */
export function readManifestText(file: string): string | undefined {
  try {
    const d = decodeYamlBytes(readFileSync(file));
    return d.ok ? d.text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The Defaults document that holds `at`, when one does: the nearest document start at or
 * before it in its file, a layer's or the object's own (`own`, its document's start).
 */
export function layerHolding(
  layers: readonly LayerSummary[] | undefined,
  own: SourceRef | undefined,
  at: SourceRef,
): LayerSummary | undefined {
  let best: LayerSummary | undefined;
  for (const l of layers ?? [])
    if (l.source.file === at.file && l.source.line <= at.line)
      if (!best || l.source.line > best.source.line) best = l;
  if (best && own && own.file === at.file && own.line <= at.line && own.line > best.source.line)
    return undefined;
  return best;
}

const ref = (s: Source): SourceRef => ({ file: s.file, line: s.line, column: s.column });
const earlier = (a: SourceRef, b: SourceRef) =>
  a.line < b.line || (a.line === b.line && (a.column ?? 1) < (b.column ?? 1));

/** Locate the changed fields of `entries` in place; `read` gives a manifest's text. */
export function locateChanges(
  entries: PlanEntry[],
  read: (file: string) => string | undefined = readManifestText,
  fromLayer?: (kind: string, key: string, field: string) => LayerSource | undefined,
): void {
  const asked = entries.filter((e) => e.changes.length > 0 && e.source && e.action !== "create");
  if (asked.length === 0) return;
  // A value a Defaults layer gave is at the layer's line, whatever the object's file says.
  const layerAt = asked.map((e) => e.changes.map((c) => fromLayer?.(e.kind, e.key, c.field)));
  const found = locateFields(
    asked.map((e) => ({
      kind: e.kind,
      key: e.key,
      source: { ...e.source!, column: e.source!.column ?? 1 },
      fields: e.changes.map((c) => c.field),
    })),
    read,
  );
  asked.forEach((e, i) => {
    let first: SourceRef | undefined;
    e.changes = e.changes.map((c, j) => {
      const layer = layerAt[i][j];
      const at = layer ?? found[i][j];
      if (!at) return c;
      const source = ref(at);
      // The entry is at its first field in its own file; at a layer's only when all are there.
      const better =
        !first ||
        (source.file === first.file
          ? earlier(source, first)
          : first.file !== e.source!.file && source.file === e.source!.file);
      if (better) first = source;
      return { ...c, source, ...(layer ? { layer: layer.layer } : {}) };
    });
    if (first) e.source = first;
  });
}
