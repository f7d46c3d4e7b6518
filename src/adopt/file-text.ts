/**
 * One manifest file being adopted: its text split into one segment per YAML document (from
 * a document's `---` to the next one's), each edited on its own (DocText) while the plain
 * value it should read as is kept beside it (ops.ts). Removing a document drops its segment;
 * removing the first one keeps the file's leading comment lines (the schema line, a header).
 * A file left without documents is to be deleted.
 */
import equal from "fast-deep-equal";
import { parseAllDocuments } from "yaml";
import { DocText, EditError } from "./doc-text.js";
import { keyOrder } from "./key-order.js";
import { applyToText, applyToValue, type Op } from "./ops.js";

/** A manifest document's identity: `Kind/name` (`Project/ci-tools`). */
export const docId = (kind: string, name: string) => `${kind}/${name}`;

interface Segment {
  text: string;
  /** `Kind/name`, when the document has both. */
  id?: string;
  /** Created on the first edit. */
  doc?: DocText;
  /** The plain value the edited text must read as. */
  expected?: Record<string, unknown>;
  removed: boolean;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export class FileText {
  private readonly segments: Segment[] = [];

  constructor(
    readonly file: string,
    readonly original: string,
  ) {
    const docs = parseAllDocuments(original, { merge: true, logLevel: "error" });
    if (!Array.isArray(docs)) return; // an empty stream: no documents
    const starts = docs.map((d, i) => (i === 0 ? 0 : d.range[0]));
    docs.forEach((d, i) => {
      const text = original.slice(starts[i], starts[i + 1] ?? original.length);
      const value: unknown = d.errors.length === 0 ? d.toJS({ maxAliasCount: 100 }) : undefined;
      const kind = isObj(value) ? value.kind : undefined;
      const name = isObj(value) && isObj(value.metadata) ? value.metadata.name : undefined;
      this.segments.push({
        text,
        removed: false,
        ...(typeof kind === "string" && typeof name === "string" ? { id: docId(kind, name) } : {}),
      });
    });
  }

  /** `Kind/name` of every document, in file order. */
  ids(): string[] {
    return this.segments.flatMap((s) => (s.id ? [s.id] : []));
  }

  private segment(id: string): Segment {
    const s = this.segments.find((x) => x.id === id && !x.removed);
    if (!s) throw new EditError(`${id} is not in ${this.file}`);
    return s;
  }

  /** The document's plain value as edited so far (what the next edit is decided on). */
  value(id: string): Record<string, unknown> {
    const s = this.segment(id);
    if (!s.doc) this.open(s);
    return s.expected!;
  }

  private open(s: Segment): void {
    const kind = s.id?.split("/")[0] ?? "";
    s.doc = new DocText(s.text, (path) => keyOrder(kind, path));
    const v = s.doc.value();
    if (!isObj(v)) throw new EditError("a document that is not a map");
    s.expected = structuredClone(v);
  }

  /** Apply one edit to a document. Throws EditError when the text cannot take it. */
  apply(id: string, op: Op): void {
    const s = this.segment(id);
    if (op.op === "removeDocument") {
      s.removed = true;
      return;
    }
    if (!s.doc) this.open(s);
    applyToValue(s.expected!, op);
    applyToText(s.doc!, op);
  }

  /** Is the document removed (its later edits are moot)? */
  removed(id: string): boolean {
    return this.segments.some((x) => x.id === id && x.removed);
  }

  /** Every edited document reads back as the value its edits should give. */
  check(): void {
    for (const s of this.segments) {
      if (s.removed || !s.doc) continue;
      if (!equal(s.doc.value(), s.expected))
        throw new EditError("the edited text does not read back as the adopted values");
    }
  }

  /** The new text; undefined when no document is left (the file is to be deleted). */
  text(): string | undefined {
    const kept = this.segments.filter((s) => !s.removed);
    if (kept.length === 0) return this.segments.length === 0 ? this.original : undefined;
    const out = kept.map((s) => s.doc?.text ?? s.text);
    const first = this.segments[0];
    if (first.removed) out.unshift(leadingComments(first.text));
    return out.join("");
  }
}

/** The comment and blank lines a text starts with (a file's schema line and header). */
function leadingComments(text: string): string {
  const lines = text.split(/(?<=\n)/);
  const head: string[] = [];
  for (const l of lines) {
    if (l.trim() !== "" && !l.trimStart().startsWith("#")) break;
    head.push(l);
  }
  return head.join("");
}
