/**
 * A contributor: one document's say at one place of an object — the object's own manifest, or
 * a Defaults layer's `values` — with where that place is in its document. Merging and
 * locating walk contributors down the same paths, so a value and its source never disagree.
 */
import type { DocHandle, FieldPath } from "../manifest/positions.js";
import type { Selector } from "../manifest/schema/selector.js";
import type { OwnerList } from "../manifest/types.js";
import { accessLevelForm } from "./shape.js";

/** A Defaults document, ready to merge. */
export interface Layer {
  name: string;
  priority: number;
  select: Selector;
  values: Record<string, unknown>;
  handle: DocHandle;
  /** Position among all layers sorted by file and line: a stable order, never a winner. */
  order: number;
  description?: string;
  /** A Project layer's `spec.owners` (src/owners adds them to the selected projects'). */
  owners?: OwnerList;
}

export interface Contributor {
  /** Undefined: the object's own document, which wins over every layer. */
  layer?: Layer | undefined;
  priority: number;
  handle: DocHandle;
  /** Where `value` is in the contributor's document. */
  at: FieldPath;
  value: unknown;
}

export const OWN_PRIORITY = Number.POSITIVE_INFINITY;

export const isMap = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** Precedence: the object's own first, then higher priority, then file order (ties are checked). */
export function byPrecedence(a: Contributor, b: Contributor): number {
  if (a.priority !== b.priority) return b.priority > a.priority ? 1 : -1;
  return (a.layer?.order ?? -1) - (b.layer?.order ?? -1);
}

/** The contributor's say at key `k` below it (an access level written as a list reads as `users`). */
export function stepInto(c: Contributor, kind: string, dotted: string, k: string): Contributor {
  const v = c.value;
  if (Array.isArray(v) && accessLevelForm(dotted, kind, v) !== v)
    return k === "users" ? c : { ...c, value: undefined };
  const below = isMap(v) ? v[k] : undefined;
  // Nothing there: no path to build (the caller drops it).
  if (below === undefined) return NOTHING;
  return { layer: c.layer, priority: c.priority, handle: c.handle, at: [...c.at, k], value: below };
}

/** A contributor that says nothing (stepInto where there is no value). */
const NOTHING: Contributor = Object.freeze({
  priority: 0,
  handle: undefined as never,
  at: [],
  value: undefined,
});

/** `inherit: false` in a contributor's mapping drops every contributor after it there. */
export function cutAtInherit(cs: Contributor[]): Contributor[] {
  const i = cs.findIndex((c) => isMap(c.value) && c.value.inherit === false);
  return i < 0 ? cs : cs.slice(0, i + 1);
}

/** One line naming a contributor for people: `Defaults baseline (defaults/repos.yaml:7)`. */
export function describeContributor(c: Contributor, which: "key" | "value" = "key"): string {
  const at = c.handle.at(c.at, which);
  return c.layer
    ? `Defaults ${c.layer.name} (${at.file}:${at.line})`
    : `the object's own manifest (${at.file}:${at.line})`;
}
