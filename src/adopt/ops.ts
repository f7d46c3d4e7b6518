/**
 * The edits `drift --adopt` makes to one manifest document, as data: set a value, remove a
 * key, add a list item, drop list items, remove the document. Each is carried out twice and
 * independently — on the document's text in place (DocText) and on its plain value — so
 * that the file can be checked: the edited text must read back as the edited value.
 * Removing the last item or key of a list or map removes the list or map too, up to `keep`
 * path steps (a `spec` or a `git` section is never removed that way).
 */
import equal from "fast-deep-equal";
import type { DocText } from "./doc-text.js";
import { type Seg } from "./doc-text.js";

export type { Seg };

export type Op =
  | { op: "set"; path: Seg[]; value: unknown }
  | { op: "unset"; path: Seg[]; keep: number }
  | { op: "add"; path: Seg[]; value: unknown }
  | { op: "drop"; path: Seg[]; item: (v: unknown) => boolean; keep: number }
  | { op: "removeDocument" };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isEmpty = (v: unknown) =>
  (Array.isArray(v) && v.length === 0) || (isObj(v) && Object.keys(v).length === 0);

/** The value at `path` of a plain document value (undefined when a step is missing). */
export function getIn(root: unknown, path: readonly Seg[]): unknown {
  let v = root;
  for (const seg of path) {
    if (Array.isArray(v) && typeof seg !== "string")
      v = typeof seg === "number" ? v[seg] : v.find((x) => seg(x));
    else if (isObj(v) && typeof seg === "string") v = v[seg];
    else return undefined;
  }
  return v;
}

/** The container and step that hold the value at `path`, creating maps on the way. */
function holder(root: Obj, path: readonly Seg[]): { at: Obj | unknown[]; key: Seg } {
  let v: unknown = root;
  for (const seg of path.slice(0, -1)) {
    let next = getIn(v, [seg]);
    if (next === undefined || next === null) {
      if (!isObj(v) || typeof seg !== "string") throw new Error("no place for the value");
      next = {};
      v[seg] = next;
    }
    v = next;
  }
  if (!isObj(v) && !Array.isArray(v)) throw new Error("no place for the value");
  return { at: v, key: path[path.length - 1] };
}

function setIn(root: Obj, path: readonly Seg[], value: unknown): void {
  const { at, key } = holder(root, path);
  if (isObj(at) && typeof key === "string") at[key] = value;
  else throw new Error("not a map");
}

function unsetIn(root: Obj, path: readonly Seg[]): void {
  const parent = getIn(root, path.slice(0, -1));
  const key = path[path.length - 1];
  if (isObj(parent) && typeof key === "string") delete parent[key];
}

/** Remove empty maps and lists from `path` upwards while the path is longer than `keep`. */
function pruneJs(root: Obj, path: readonly Seg[], keep: number): void {
  for (let p = path; p.length > keep && isEmpty(getIn(root, p)); p = p.slice(0, -1))
    unsetIn(root, p);
}

/** Apply `op` to a plain document value (mutated). */
export function applyToValue(root: Obj, op: Op): void {
  switch (op.op) {
    case "set":
      return setIn(root, op.path, op.value);
    case "unset":
      unsetIn(root, op.path);
      return pruneJs(root, op.path.slice(0, -1), op.keep);
    case "add": {
      const list = getIn(root, op.path);
      if (Array.isArray(list)) {
        if (!list.some((x) => equal(x, op.value))) list.push(op.value);
      } else setIn(root, op.path, [op.value]);
      return;
    }
    case "drop": {
      const list = getIn(root, op.path);
      if (!Array.isArray(list)) return;
      const kept = list.filter((x) => !op.item(x));
      list.splice(0, list.length, ...kept);
      return pruneJs(root, op.path, op.keep);
    }
    case "removeDocument":
      return;
  }
}

function pruneText(doc: DocText, path: readonly Seg[], keep: number): void {
  for (let p = path; p.length > keep && isEmpty(doc.valueAt(p)); p = p.slice(0, -1)) doc.unset(p);
}

/** Apply `op` to a document's text (removeDocument is the file's business). */
export function applyToText(doc: DocText, op: Op): void {
  switch (op.op) {
    case "set":
      return doc.set(op.path, op.value);
    case "unset":
      doc.unset(op.path);
      return pruneText(doc, op.path.slice(0, -1), op.keep);
    case "add": {
      const list = doc.valueAt(op.path);
      if (Array.isArray(list) && list.some((x) => equal(x, op.value))) return;
      return doc.append(op.path, op.value);
    }
    case "drop": {
      for (;;) {
        const list = doc.valueAt(op.path);
        if (!Array.isArray(list) || !list.some((x) => op.item(x))) break;
        doc.removeItem(op.path, op.item);
      }
      return pruneText(doc, op.path, op.keep);
    }
    case "removeDocument":
      return;
  }
}
