/**
 * The order keys of a manifest map are written in — the order of the properties in the
 * kind's JSON Schema (the one export writes them in) — so that a key adoption adds goes
 * where a person would look for it (`role` before `services`, `controllers` after
 * `admins`), not at the end of the map.
 */
import { KINDS, kindSchema, type Kind } from "../manifest/schema/index.js";
import type { Seg } from "./doc-text.js";

type Schema = Record<string, unknown>;

const variants = (s: Schema): Schema[] => [
  s,
  ...((s.anyOf ?? s.oneOf ?? []) as Schema[]).flatMap((v) => variants(v)),
];

function step(s: Schema, seg: Seg): Schema | undefined {
  for (const v of variants(s)) {
    if (typeof seg === "string") {
      const props = v.properties as Record<string, Schema> | undefined;
      if (props?.[seg]) return props[seg];
    } else if (v.items && typeof v.items === "object") return v.items as Schema;
  }
  return undefined;
}

const cache = new Map<string, Schema>();

/** The keys of the map at `path` of a `kind` document, in schema order (empty: unknown). */
export function keyOrder(kind: string, path: readonly Seg[]): string[] {
  if (!(KINDS as readonly string[]).includes(kind)) return [];
  let s: Schema | undefined = cache.get(kind);
  if (!s) {
    s = kindSchema(kind as Kind);
    cache.set(kind, s);
  }
  for (const seg of path) {
    s = step(s, seg);
    if (!s) return [];
  }
  return variants(s).flatMap((v) => Object.keys((v.properties as Schema | undefined) ?? {}));
}
