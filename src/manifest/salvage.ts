/**
 * The well-formed part of a document that fails its schema. A schema error in one rule must
 * not hide an impossible date in an exception further down until the first is fixed: the
 * subtrees the errors point at are cut away (a list item, a field; the mapping around a
 * missing required field) until the rest passes the schema, and the checks that read a
 * document's own fields run on that rest. Its lists are shorter than the file's, so its
 * handle maps each list index back to the item's place in the file.
 */
import type { ValidDoc } from "./check.js";
import type { DocHandle, FieldPath } from "./positions.js";
import type { Kind } from "./schema/index.js";
import { validateAgainst } from "./validator.js";

/** A cut item, until the lists are compacted. */
const CUT = Symbol("cut");

/** Rounds of cutting before giving up (each cuts at least one node). */
const ROUNDS = 50;

/** `value` without the cut items, and for each list kept, the file's index of each item. */
function compact(value: unknown, indexes: Map<unknown[], number[]>): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    const at: number[] = [];
    value.forEach((x, i) => {
      if (x === CUT) return;
      out.push(compact(x, indexes));
      at.push(i);
    });
    indexes.set(out, at);
    return out;
  }
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(value)) out[k] = compact(x, indexes);
    return out;
  }
  return value;
}

/** A path in the compacted value → the same place in the file's value. */
function filePath(value: unknown, path: FieldPath, indexes: Map<unknown[], number[]>): FieldPath {
  const out: (string | number)[] = [];
  let at = value;
  for (const step of path) {
    if (Array.isArray(at) && typeof step === "number") {
      out.push(indexes.get(at)?.[step] ?? step);
      at = at[step];
    } else {
      out.push(step);
      at =
        at !== null && typeof at === "object" ? (at as Record<string, unknown>)[step] : undefined;
    }
  }
  return out;
}

/** An ajv instance path (`/spec/rules/0/name`) as a field path. */
function pointer(p: string): (string | number)[] {
  if (p === "") return [];
  return p
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function cut(work: unknown, path: FieldPath): void {
  let parent = work;
  for (const step of path.slice(0, -1)) {
    // Inside a part already cut: nothing more to do.
    if (parent === null || typeof parent !== "object") return;
    parent = (parent as Record<string | number, unknown>)[step];
  }
  if (parent === null || typeof parent !== "object") return;
  const last = path[path.length - 1];
  if (Array.isArray(parent)) parent[last as number] = CUT;
  else delete (parent as Record<string | number, unknown>)[last];
}

/**
 * The part of `value` (a document of `kind` with schema errors) that passes the schema, as a
 * document whose positions are the file's; undefined when nothing but its root would pass.
 */
export function salvage(
  kind: Kind,
  name: string,
  value: unknown,
  handle: DocHandle,
): ValidDoc | undefined {
  const work = structuredClone(value);
  for (let round = 0; round < ROUNDS; round++) {
    const indexes = new Map<unknown[], number[]>();
    const kept = compact(work, indexes);
    const errors = validateAgainst(kind, kept);
    if (errors.length === 0) {
      const map = (path: FieldPath) => filePath(kept, path, indexes);
      const mapped: DocHandle = {
        file: handle.file,
        start: handle.start,
        sourceAt: (offset) => handle.sourceAt(offset),
        at: (path, which) => handle.at(map(path), which),
      };
      return { kind, name, value: kept, handle: mapped } as ValidDoc;
    }
    const paths = errors.map((e) => {
      const p = filePath(kept, pointer(e.instancePath), indexes);
      const extra = (e.params as { additionalProperty?: string }).additionalProperty;
      return e.keyword === "additionalProperties" && extra !== undefined ? [...p, extra] : p;
    });
    // The root, a top-level field or the name cannot be cut: no part is left to check.
    const whole = (p: FieldPath) =>
      p.length <= 1 || (p.length === 2 && p[0] === "metadata" && p[1] === "name");
    if (paths.some(whole)) return undefined;
    // Deepest first: cutting an item replaces it, so no other path moves.
    for (const p of paths.sort((a, b) => b.length - a.length)) cut(work, p);
  }
  return undefined;
}
