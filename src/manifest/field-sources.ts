/**
 * The manifest line of each changed field: a plan's update names `spec.title` at its own
 * line (9), not at its document's (2); a repository's `issueTracking` at that key inside the
 * list item. Loading keeps one position per object and no more — at 100,000s of objects a
 * position per field would cost as much as the load — so the fields a plan changes are
 * located afterwards, in those files alone, read again with the same reader (the fast one
 * for plain manifests): what a plan of a few changes costs is a read of a few files.
 *
 * An object is found by its own recorded position (normalise.ts: a document's start, a list
 * item's, a service's key), a field by its key under it. A field the manifest leaves to its
 * default has no line of its own: the object's stands.
 */
import { parseYamlText } from "./parse.js";
import type { DocHandle, FieldPath } from "./positions.js";
import type { Source } from "./types.js";

/** The changed fields of one object, where its declaration is. */
export interface FieldRequest {
  /** The plan's kind (`Project`, `Repository`, …). */
  kind: string;
  key: string;
  source: Source;
  fields: readonly string[];
}

/** Where a kind's objects sit in a document, and its fields' keys under them. */
interface Layout {
  /** The list (or mapping) of the objects; none: the document itself. */
  list?: FieldPath;
  /** A single object's path (a user's service, a project's group). */
  at?: (key: string) => FieldPath;
  /** A field's path under the object (default: the field's own name). */
  field?: (field: string) => FieldPath;
}

const spec = (f: string): FieldPath => ["spec", f];

const LAYOUTS: Record<string, Layout> = {
  Organization: { field: spec },
  User: { field: spec },
  Project: { field: spec },
  Team: { field: (f) => ["spec", "services", f] },
  UserService: { at: (key) => ["spec", "services", key.slice(key.lastIndexOf("/") + 1)] },
  GitGroup: { at: () => ["spec", "git", "group"] },
  Repository: {
    list: ["spec", "git", "repositories"],
    field: (f) => [f === "fork" ? "forkFrom" : f],
  },
  Mirror: { list: ["spec", "git", "mirrors"] },
  ArtifactRepo: { list: ["spec", "artifacts", "repositories"] },
};

const before = (a: Source, b: Source) =>
  a.line < b.line || (a.line === b.line && a.column <= b.column);

/** The value at `path` of a parsed document (undefined where it has none). */
function valueAt(value: unknown, path: FieldPath): unknown {
  let v = value;
  for (const seg of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}

/** One file, read again: its documents, and the list items by position (made on first use). */
class FileIndex {
  private readonly items = new Map<string, Map<string, number>>();

  constructor(readonly docs: { handle: DocHandle; value: unknown }[]) {}

  /** The document whose start is the last at or before `at` (-1: none). */
  docAt(at: Source): number {
    let lo = 0;
    let hi = this.docs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (before(this.docs[mid].handle.start, at)) lo = mid + 1;
      else hi = mid - 1;
    }
    return hi;
  }

  /** The index of the item of `list` in document `doc` that starts at `at`. */
  itemAt(doc: number, list: FieldPath, at: Source): number | undefined {
    const id = `${doc} ${list.join(".")}`;
    let byPlace = this.items.get(id);
    if (!byPlace) {
      byPlace = new Map();
      const { handle, value } = this.docs[doc];
      const items = valueAt(value, list);
      const n = Array.isArray(items) ? items.length : 0;
      for (let i = 0; i < n; i++) {
        const s = handle.at([...list, i]);
        byPlace.set(`${s.line}:${s.column}`, i);
      }
      this.items.set(id, byPlace);
    }
    return byPlace.get(`${at.line}:${at.column}`);
  }
}

/** The path of the object `r` asks about in its document, if found. */
function objectPath(index: FileIndex, doc: number, r: FieldRequest, layout: Layout) {
  if (layout.at) return layout.at(r.key);
  if (!layout.list) return [];
  const i = index.itemAt(doc, layout.list, r.source);
  return i === undefined ? undefined : [...layout.list, i];
}

/**
 * The source of each requested field (undefined: no line of its own, or not found), in the
 * order asked. `read` gives a file's text as the loader read it (undefined: gone).
 */
export function locateFields(
  requests: readonly FieldRequest[],
  read: (file: string) => string | undefined,
): (Source | undefined)[][] {
  const files = new Map<string, FileIndex | undefined>();
  const indexOf = (file: string) => {
    if (!files.has(file)) {
      const text = read(file);
      files.set(
        file,
        text === undefined ? undefined : new FileIndex(parseYamlText(file, text).documents),
      );
    }
    return files.get(file);
  };
  const none = (r: FieldRequest) => r.fields.map(() => undefined);
  return requests.map((r) => {
    const layout: Layout | undefined = LAYOUTS[r.kind];
    if (!layout) return none(r);
    const index = indexOf(r.source.file);
    const doc = index ? index.docAt(r.source) : -1;
    const base = index && doc >= 0 ? objectPath(index, doc, r, layout) : undefined;
    if (!index || !base) return none(r);
    const { handle, value } = index.docs[doc];
    const fieldPath = layout.field ?? ((f: string): FieldPath => [f]);
    return r.fields.map((f) => {
      const path = [...base, ...fieldPath(f)];
      return valueAt(value, path) === undefined ? undefined : handle.at(path, "key");
    });
  });
}
