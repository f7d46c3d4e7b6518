/**
 * `phctl explain`'s answer as plain data: one object (or one part of it: a repository, a
 * mirror, a field) of the effective config, and for each of its values the documents that
 * gave it — the object's own manifest and the Defaults layers, winner first — and the
 * entries tombstones removed. Built from the merge's own trace (LayeredObject.trace()), so
 * what explain says is what the merge did. The JSON form is this data as is (docs/design.md
 * describes its shape); src/render/explain.ts writes the text form.
 */
import type { ValidDoc } from "../manifest/check.js";
import { OWN_PRIORITY, type Contributor } from "./contributor.js";
import type { LayeredObject, LayerSummary } from "./effective.js";
import { mergeNode, type TraceEntry } from "./merge.js";
import { describeSelector } from "./selector.js";
import { listRule, setKey } from "./shape.js";

/** What a plan key names: an object, and the place of the key's part in its document. */
export interface ExplainTarget {
  key: string;
  kind: "Project" | "User" | "Team";
  name: string;
  /** The part's path in the effective document, as traces write it: `spec.git.repositories[docs]`. */
  base: string;
}

/** One document's say about a value. */
export interface ExplainContributor {
  from: "own" | "layer";
  /** The Defaults document's name (from: layer). */
  layer?: string;
  /** The layer's priority; null for the object's own manifest (it wins over every layer). */
  priority: number | null;
  /** The layer's selector, for people (from: layer). */
  selector?: string;
  file: string;
  line: number;
  column: number;
  value: unknown;
}

/** One value of the object and its chain, winner first. */
export interface ExplainValue {
  /** Relative to the key's part (`enableForking`, `spec.access.reporters.users[bwong]`). */
  path: string;
  value: unknown;
  chain: ExplainContributor[];
  /** The entry is not in the effective object: tombstones (`removedBy`) took it out. */
  removed: boolean;
  removedBy: ExplainContributor[];
  /**
   * At an `inherit: false` (`path` ends in `inherit`; the chain names who wrote it): the
   * documents it cut off, at the place asked about — they select the object and give nothing.
   */
  cutOff?: ExplainContributor[];
}

/** A layer that selects the object (or, for a repository key, the repository). */
export interface ExplainLayer {
  name: string;
  file: string;
  line: number;
  priority: number;
  selector: string;
  description?: string;
  /**
   * The layer selects the object but gives it nothing here: an `inherit: false` cut it off —
   * where that is (`path` relative to the key's part, the document and line that wrote it).
   */
  cutOff?: { path: string; file: string; line: number; from: "own" | "layer"; layer?: string };
}

/** The answer: stable in shape (`phctl explain --format json` prints it). */
export interface Explanation {
  key: string;
  kind: string;
  name: string;
  /** The field asked about, relative to the key's part; null: the whole part. */
  field: string | null;
  /** Where the object's own document starts. */
  file: string;
  line: number;
  /** The effective value of the key's part (or field); null when nothing sets it. */
  value: unknown;
  layers: ExplainLayer[];
  values: ExplainValue[];
}

const KINDS = { project: "Project", user: "User", team: "Team" } as const;

/** The target of a plan key, or undefined when explain does not know the key's form. */
export function parseKey(key: string): ExplainTarget | undefined {
  const [top, name, part, ...rest] = key.split("/");
  const kind = KINDS[top as keyof typeof KINDS];
  if (!kind || !name) return undefined;
  const tail = rest.join("/");
  const at = (base: string): ExplainTarget => ({ key, kind, name, base });
  if (part === undefined) return at("spec");
  if (kind === "User" && part === "service" && tail && !tail.includes("/"))
    return at(`spec.services.${tail}`);
  if (kind !== "Project") return undefined;
  if (part === "group" && !tail) return at("spec.git.group");
  if (!tail) return undefined;
  if (part === "repo") return at(`spec.git.repositories[${tail}]`);
  if (part === "mirror") return at(`spec.git.mirrors[${tail}]`);
  if (part === "artifact") return at(`spec.artifacts.repositories[${tail}]`);
  return undefined;
}

/** The path below `base` a FIELD names (`spec.` may be written or left out of a top-level one). */
export function fieldPath(target: ExplainTarget, field: string): string {
  const f = target.base === "spec" && field.startsWith("spec.") ? field.slice(5) : field;
  return `${target.base}.${f}`;
}

/** Split `spec.git.repositories[docs/x].name` into names and `[key]`s. */
function segments(path: string): { name?: string; key?: string }[] {
  const out: { name?: string; key?: string }[] = [];
  const re = /([^.[\]]+)|\[([^\]]*)\]/g;
  for (let m = re.exec(path); m; m = re.exec(path))
    out.push(m[1] !== undefined ? { name: m[1] } : { key: m[2] });
  return out;
}

/** The value at a trace-style path of an effective document (list entries by their key). */
export function valueAt(
  doc: Record<string, unknown>,
  kind: string,
  slug: string,
  path: string,
): unknown {
  let node: unknown = doc;
  let dotted = "";
  for (const s of segments(path)) {
    if (s.name !== undefined) {
      if (node === null || typeof node !== "object" || Array.isArray(node)) return undefined;
      node = (node as Record<string, unknown>)[s.name];
      dotted = dotted ? `${dotted}.${s.name}` : s.name;
    } else {
      if (!Array.isArray(node)) return undefined;
      const rule = listRule(kind, dotted);
      node = node.find((x) =>
        rule.merge === "keyed"
          ? rule.key(x as Record<string, unknown>, slug) === s.key
          : setKey(x) === s.key,
      );
    }
    if (node === undefined) return undefined;
  }
  return node;
}

/** Whether `path` is `base` or below it. */
export const isUnder = (path: string, base: string): boolean =>
  path === base || path.startsWith(`${base}.`) || path.startsWith(`${base}[`);

function contributor(c: Contributor): ExplainContributor {
  const at = c.handle.at(c.at, "key");
  const where = { file: at.file, line: at.line, column: at.column, value: c.value };
  if (!c.layer) return { from: "own", priority: null, ...where };
  return {
    from: "layer",
    layer: c.layer.name,
    priority: c.priority === OWN_PRIORITY ? null : c.priority,
    selector: describeSelector(c.layer.select),
    ...where,
  };
}

/** One contributor once (a Repository layer is cut off at each repository it selects). */
function dedupe(cs: ExplainContributor[]): ExplainContributor[] {
  const seen = new Set<string>();
  return cs.filter((c) => {
    const id = `${c.file}:${c.line}:${c.column}`;
    return seen.has(id) ? false : (seen.add(id), true);
  });
}

/** The trace of an object no layer touched: its own manifest gives every value. */
export function ownTrace(doc: ValidDoc): TraceEntry[] {
  const spec = (doc.value as { spec?: unknown }).spec ?? {};
  const own: Contributor = {
    priority: OWN_PRIORITY,
    handle: doc.handle,
    at: ["spec"],
    value: spec,
  };
  const trace: TraceEntry[] = [];
  mergeNode({ kind: doc.kind, name: doc.name, problems: [], trace }, "spec", "spec", [own]);
  return trace;
}

/**
 * The layers behind the target: those that select it (an object key: the object; a part's
 * key: the part, e.g. a Repository layer that selects the repository), and any other whose
 * values appear in its values' chains.
 */
function layersOf(
  target: ExplainTarget,
  layers: readonly LayerSummary[],
  values: readonly ExplainValue[],
): ExplainLayer[] {
  const key = target.base === "spec" ? `${target.kind.toLowerCase()}/${target.name}` : target.key;
  const named = new Set<string>();
  for (const v of values)
    for (const c of [...v.chain, ...v.removedBy]) if (c.layer !== undefined) named.add(c.layer);
  // Layers an `inherit: false` cut off, and where: the first cut that names each.
  const cut = new Map<string, ExplainLayer["cutOff"]>();
  for (const v of values)
    for (const c of v.cutOff ?? []) {
      const by = v.chain[0];
      if (c.layer === undefined || cut.has(c.layer) || !by) continue;
      cut.set(c.layer, {
        path: v.path.replace(/\.?inherit$/, "") || ".",
        file: by.file,
        line: by.line,
        from: by.from,
        ...(by.layer !== undefined ? { layer: by.layer } : {}),
      });
    }
  return layers
    .filter((l) => l.selected.includes(key) || named.has(l.name) || cut.has(l.name))
    .map((l) => {
      const cutOff = named.has(l.name) ? undefined : cut.get(l.name);
      return {
        name: l.name,
        file: l.source.file,
        line: l.source.line,
        priority: l.priority,
        selector: describeSelector(l.select),
        ...(l.description !== undefined ? { description: l.description } : {}),
        ...(cutOff ? { cutOff } : {}),
      };
    });
}

/**
 * A cut-off contributor narrowed from the place of its `inherit: false` (`from`) to the place
 * asked about (`to`, below it): undefined when it gives nothing there. A list entry's key stops
 * the walk: the list is shown whole.
 */
function narrow(c: Contributor, from: string, to: string): Contributor | undefined {
  // A Repository layer's values are a repository's: they start at its entry.
  if (c.layer?.select.kind === "Repository") {
    const entry = /^spec\.git\.repositories\[[^\]]*\]/.exec(to)?.[0];
    if (entry === undefined) return c;
    from = entry;
  }
  if (to === from) return c;
  let value = c.value;
  const at = [...c.at];
  for (const seg of segments(to.slice(from.length))) {
    if (seg.name === undefined) break;
    if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[seg.name];
    if (value === undefined) return undefined;
    at.push(seg.name);
  }
  return { ...c, at, value };
}

/** Everything explain needs of one load. */
export interface ExplainInput {
  target: ExplainTarget;
  field?: string;
  /** The object's effective document. */
  doc: ValidDoc;
  /** Its layered object, when a layer (or a tombstone) touched it. */
  layered?: LayeredObject;
  layers: readonly LayerSummary[];
}

/** The explanation of a target (and field) of a loaded config. */
export function explain(i: ExplainInput): Explanation {
  const { target, doc } = i;
  const base = i.field !== undefined ? fieldPath(target, i.field) : target.base;
  const trace = i.layered ? i.layered.trace() : ownTrace(doc);
  // Relative to the key's part; a place above it (an `inherit: false` on spec.git) stays whole.
  const strip = (p: string) =>
    p === target.base
      ? "."
      : p.startsWith(`${target.base}.`)
        ? p.slice(target.base.length + 1)
        : p.startsWith(`${target.base}[`)
          ? p.slice(target.base.length)
          : p;
  const values: ExplainValue[] = [];
  for (const t of trace) {
    let cutOff: Contributor[] | undefined = t.cutOff;
    if (!isUnder(t.path, base)) {
      // An `inherit: false` above the place asked about: the layers it cut off there.
      const place = t.path.slice(0, -".inherit".length);
      if (!cutOff || !isUnder(base, place)) continue;
      cutOff = cutOff.flatMap((c) => narrow(c, place, base) ?? []);
      if (cutOff.length === 0) continue;
    }
    const same = cutOff && values.find((v) => v.cutOff && v.path === strip(t.path));
    if (same && cutOff) {
      same.cutOff = dedupe([...same.cutOff!, ...cutOff.map(contributor)]);
      continue;
    }
    values.push({
      path: strip(t.path),
      value: t.value,
      chain: t.chain.map(contributor),
      removed: t.removed === true,
      removedBy: (t.removedBy ?? []).map(contributor),
      ...(cutOff ? { cutOff: dedupe(cutOff.map(contributor)) } : {}),
    });
  }
  const value = valueAt(doc.value, doc.kind, doc.name, base);
  // The document's first line of its own (its start may be a comment above it).
  const start = doc.handle.at(["apiVersion"], "key");
  return {
    key: target.key,
    kind: doc.kind,
    name: doc.name,
    field: i.field === undefined ? null : strip(base),
    file: start.file,
    line: start.line,
    value: value === undefined ? null : value,
    layers: layersOf(target, i.layers, values),
    values,
  };
}

/** Every path the trace names below the target (for did-you-mean on a FIELD). */
export function fieldsOf(i: Omit<ExplainInput, "field">): string[] {
  const trace = i.layered ? i.layered.trace() : ownTrace(i.doc);
  const out = new Set<string>();
  for (const t of trace)
    if (t.path.startsWith(`${i.target.base}.`)) {
      const rest = t.path.slice(i.target.base.length + 1);
      // Every prefix of a path is a field one may ask about.
      const parts = rest.split(/(?=[.[])/);
      for (let n = 1; n <= parts.length; n++) out.add(parts.slice(0, n).join(""));
    }
  return [...out];
}
