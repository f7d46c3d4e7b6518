/**
 * The manifest line of each changed field: a plan's update names `spec.title` at its own
 * line (9), not at its document's (2); a repository's `issueTracking` at that key inside the
 * list item. Loading keeps one position per object and no more — at 100,000s of objects a
 * position per field would cost as much as the load — so the fields a plan changes are
 * located afterwards, by reading again only what holds them, with the loader's reader: a list
 * item alone (its lines, found by indentation), else its document alone (between `---`
 * markers); a document whose items are asked about by the hundred is read whole once. A plan
 * of a few changes in a 50 MB file reads a few dozen lines.
 *
 * An object is found by its own recorded position (normalise.ts: a document's start, a list
 * item's, a service's key), a field by its key under it. A field the manifest leaves to its
 * default has no line of its own: the object's stands.
 */
import { parseYamlText } from "./parse.js";
import type { FieldPath } from "./positions.js";
import { FileLines, type Parsed } from "./file-lines.js";
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
  /** The list of the objects; none: the document itself, or `at`. */
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

/** Items of one document asked about beyond this: the document is read whole, once. */
const ITEMS_ONE_BY_ONE = 64;

const atOrBefore = (a: Source, b: Source) =>
  a.line < b.line || (a.line === b.line && a.column <= b.column);
const place = (s: Source) => `${s.line}:${s.column}`;

/** The value at `path` of a parsed document (undefined where it has none). */
function valueAt(value: unknown, path: FieldPath): unknown {
  let v = value;
  for (const seg of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}

/** One document read again, and its list items by position (made on first use). */
class DocIndex {
  private readonly items = new Map<string, Map<string, number>>();

  constructor(readonly doc: Parsed) {}

  /** The index of the item of `list` that starts at `at`. */
  itemAt(list: FieldPath, at: Source): number | undefined {
    const id = list.join(".");
    let byPlace = this.items.get(id);
    if (!byPlace) {
      byPlace = new Map();
      const items = valueAt(this.doc.value, list);
      const n = Array.isArray(items) ? items.length : 0;
      for (let i = 0; i < n; i++) byPlace.set(place(this.doc.handle.at([...list, i])), i);
      this.items.set(id, byPlace);
    }
    return byPlace.get(place(at));
  }
}

/** The fields' sources under `base` of `doc` (undefined: not written there). */
function fieldsOf(doc: Parsed, base: FieldPath, r: FieldRequest, layout: Layout) {
  const fieldPath = layout.field ?? ((f: string): FieldPath => [f]);
  return r.fields.map((f) => {
    const path = [...base, ...fieldPath(f)];
    return valueAt(doc.value, path) === undefined ? undefined : doc.handle.at(path, "key");
  });
}

/**
 * The source of each requested field (undefined: no line of its own, or not found), in the
 * order asked. `read` gives a file's text as the loader read it (undefined: gone).
 */
export function locateFields(
  requests: readonly FieldRequest[],
  read: (file: string) => string | undefined,
): (Source | undefined)[][] {
  const files = new Map<string, FileLines | undefined>();
  const linesOf = (file: string) => {
    if (!files.has(file)) {
      const text = read(file);
      files.set(file, text === undefined ? undefined : new FileLines(file, text, parseYamlText));
    }
    return files.get(file);
  };
  // How many items of each document are asked about.
  const itemsAsked = new Map<string, number>();
  const docId = (r: FieldRequest, lines: FileLines) =>
    `${r.source.file} ${lines.docLines(r.source.line)[0]}`;
  for (const r of requests) {
    const lines = LAYOUTS[r.kind]?.list ? linesOf(r.source.file) : undefined;
    if (lines) itemsAsked.set(docId(r, lines), (itemsAsked.get(docId(r, lines)) ?? 0) + 1);
  }
  const docs = new Map<string, DocIndex | undefined>();
  const docOf = (r: FieldRequest, lines: FileLines) => {
    const id = docId(r, lines);
    if (!docs.has(id)) {
      const [from, to] = lines.docLines(r.source.line);
      const found = lines.parse(from, to, 0);
      const doc = found?.filter((d) => atOrBefore(d.handle.start, r.source)).at(-1);
      docs.set(id, doc ? new DocIndex(doc) : undefined);
    }
    return docs.get(id);
  };

  const none = (r: FieldRequest) => r.fields.map(() => undefined);
  return requests.map((r) => {
    const layout: Layout | undefined = LAYOUTS[r.kind];
    const lines = layout ? linesOf(r.source.file) : undefined;
    if (!layout || !lines) return none(r);
    if (layout.list && (itemsAsked.get(docId(r, lines)) ?? 0) <= ITEMS_ONE_BY_ONE) {
      // The item alone: its first line's `- ` blanked, it reads as a mapping of its own.
      const [from, to] = lines.itemLines(r.source.line, r.source.column);
      const item = lines.parse(from, to, r.source.column - 1)?.[0];
      if (
        item &&
        item.value !== null &&
        typeof item.value === "object" &&
        !Array.isArray(item.value)
      )
        return fieldsOf(item, [], r, layout);
    }
    const index = docOf(r, lines);
    if (!index) return none(r);
    let base: FieldPath | undefined = layout.at ? layout.at(r.key) : [];
    if (layout.list) {
      const i = index.itemAt(layout.list, r.source);
      base = i === undefined ? undefined : [...layout.list, i];
    }
    return base ? fieldsOf(index.doc, base, r, layout) : none(r);
  });
}
