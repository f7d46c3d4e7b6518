/**
 * `drift --adopt` where a Defaults layer gave the drifted value: the live value goes into the
 * layer only when the layer's selector names this object alone — by exact names, not labels,
 * globs or an organization, which would also choose objects added later (a repository, for a
 * Repository layer); otherwise it is written into the object's own document as an override,
 * and the adoption says so — a layer's value never changes silently for the other objects it
 * selects, today or tomorrow.
 */
import type { FieldChange, PlanEntry } from "../engine/plan.js";
import { blockerValue } from "../export/items.js";
import type { Blocker } from "../kinds/repository-fields.js";
import type { LayerSummary } from "../layers/effective.js";
import { fieldWinner } from "../layers/field-sources.js";
import type { FieldPath } from "../manifest/positions.js";
import type { LoadResult } from "../pipeline/types.js";

/** A changed field whose desired value a layer gave. */
export interface LayeredChange {
  change: FieldChange;
  layer: LayerSummary;
  /** Where the layer says it, in the layer's document (`spec.values…`). */
  at: FieldPath;
  /** How many other objects (repositories, for a Repository layer) the layer selects. */
  others: number;
  /** The layer's selector names this object alone (namesAlone): adoption may write into it. */
  alone: boolean;
}

const GLOB = /[*?[\]{}]/;
const exactly = (globs: readonly string[] | undefined, name: string) =>
  globs !== undefined && globs.length === 1 && globs[0] === name && !GLOB.test(name);

/**
 * Does `layer`'s selector name the object of `key` alone — one exact name (and, for a
 * Repository layer, one exact repository and its subgroup, if any), no labels, no globs, no
 * organization — and select nothing else? Only then is the layer that object's own.
 */
export function namesAlone(layer: LayerSummary, key: string): boolean {
  const s = layer.select;
  if (s.matchLabels && Object.keys(s.matchLabels).length > 0) return false;
  if (s.matchExpressions && s.matchExpressions.length > 0) return false;
  if (s.organization !== undefined) return false;
  const parts = key.split("/");
  if (!exactly(s.names, parts[1] ?? "")) return false;
  if (s.kind === "Repository") {
    const rest = parts.slice(3);
    const name = rest.pop() ?? "";
    if (!exactly(s.repositories, name)) return false;
    if (s.subgroups !== undefined && !exactly(s.subgroups, rest.join("/"))) return false;
  } else if (s.repositories !== undefined || s.subgroups !== undefined) return false;
  return layer.selected.every((k) => k === selectedKey(key));
}

/** What adoption did with a layer's value, for the report. */
export interface LayerAdoption {
  key: string;
  field: string;
  layer: string;
  /**
   * `layer`: written into the layer (or, for a list entry, taken out of it); `override`: into
   * the object's own document; `tombstone`: a list entry removed in the object's own document.
   */
  written: "layer" | "override" | "tombstone";
  file: string;
  others: number;
  /** One line for people. */
  message: string;
}

/** The changes of `e` whose desired value a layer gave, by change. */
export function layeredChanges(loaded: LoadResult, e: PlanEntry): Map<FieldChange, LayeredChange> {
  const out = new Map<FieldChange, LayeredChange>();
  const layers = loaded.layers;
  if (!layers || e.action !== "update") return out;
  for (const c of e.changes) {
    const w = fieldWinner(layers.layered, e.kind, e.key, c.field);
    const name = w?.contributor.layer?.name;
    const layer = layers.layers.find((l) => l.name === name);
    if (!w || !layer) continue;
    const others = layer.selected.filter((k) => k !== selectedKey(e.key)).length;
    out.set(c, { change: c, layer, at: w.at, others, alone: namesAlone(layer, e.key) });
  }
  return out;
}

/** The key a layer's `selected` lists for an entry's object (a repository, or its document). */
function selectedKey(key: string): string {
  const parts = key.split("/");
  return parts[2] === "repo" ? key : parts.slice(0, 2).join("/");
}

/** A live value as a manifest writes it (undefined: none a manifest can write in its place). */
export function manifestValue(kind: string, c: FieldChange): unknown {
  if (c.before === null || c.before === undefined) return undefined;
  if (kind === "Repository") {
    if (c.field === "fork") return undefined;
    if (c.field === "commitBlocker") return blockerValue(c.before as Blocker);
    if (c.field === "bundle") return { frequency: c.before };
  }
  return c.before;
}

/**
 * "1,839 other repositories" for the report; a layer that selects no other today, by labels or
 * globs: "every project its selector chooses (by labels, globs or organization: none other today)".
 */
export function othersText(l: Pick<LayeredChange, "others" | "layer">): string {
  const n = l.others;
  const kind = l.layer.select.kind;
  const what =
    { Repository: "repositor", Project: "project", User: "user", Team: "team" }[kind] ?? "object";
  const noun =
    what === "repositor" ? (n === 1 ? "repository" : "repositories") : n === 1 ? what : `${what}s`;
  if (n === 0)
    return `every ${what === "repositor" ? "repository" : what} its selector chooses (by labels, globs or organization: none other today)`;
  return `${n.toLocaleString("en-US")} other ${noun}`;
}

/** The report of a layered change written into `file` (`written` says where). */
export function layerAdoption(
  e: PlanEntry,
  l: LayeredChange,
  written: LayerAdoption["written"],
  file: string,
): LayerAdoption {
  const field = l.change.field;
  const message =
    written === "layer"
      ? `${e.key}: ${field} written into Defaults ${l.layer.name} (${file}), which selects nothing else`
      : `${e.key}: override written to ${file}: Defaults ${l.layer.name} gives ${field} to ${othersText(l)}`;
  return { key: e.key, field, layer: l.layer.name, written, file, others: l.others, message };
}
