/**
 * A YAML document's text and its parse, kept in step: the splices every in-place edit is
 * made of (the text is parsed again after each), lookups of nodes by path, and the value the
 * text reads as. doc-text.ts builds the edits on it.
 */
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node } from "yaml";
import type { Pair, YAMLMap, YAMLSeq } from "yaml";
import { EditError, indentUnit } from "./positions.js";

/** A step of a path: a map key, a list index, or the first list item a test accepts. */
export type Seg = string | number | ((item: unknown) => boolean);

export class YamlText {
  protected doc: Document.Parsed;
  readonly unit: number;

  /**
   * `orderAt(path)`: the keys of the map at `path` in the order they are written, so that an
   * added key goes before the first key that follows it (default: at the end).
   */
  constructor(
    public text: string,
    protected readonly orderAt: (path: readonly Seg[]) => readonly string[] = () => [],
  ) {
    this.doc = YamlText.parse(text);
    this.unit = indentUnit(this.doc, text);
  }

  private static parse(text: string): Document.Parsed {
    const doc = parseDocument(text, { merge: true, uniqueKeys: true, logLevel: "error" });
    if (doc.errors.length > 0) throw new EditError(`not valid YAML: ${doc.errors[0].message}`);
    return doc;
  }

  /** The document as plain data. */
  value(): unknown {
    return this.doc.toJS({ maxAliasCount: 100 });
  }

  /** The plain value at `path`; undefined when a step is missing. */
  valueAt(path: readonly Seg[]): unknown {
    const node = this.resolve(path);
    return node === undefined ? undefined : (node as Node).toJS(this.doc, { maxAliasCount: 100 });
  }

  /** The node at `path`; undefined when a step is missing. */
  resolve(path: readonly Seg[]): unknown {
    let node: unknown = this.doc.contents;
    for (const seg of path) {
      if (isAlias(node)) throw new EditError("a value reached through an alias");
      if (isMap(node) && typeof seg === "string") node = this.pair(node, seg)?.value;
      else if (isSeq(node) && typeof seg !== "string") node = node.items[this.index(node, seg)];
      else return undefined;
      if (node === undefined) return undefined;
    }
    return node;
  }

  protected insertLines(at: number, lines: string): void {
    const needsBreak = at > 0 && this.text[at - 1] !== "\n";
    this.splice(at, at, needsBreak ? `\n${lines.replace(/\n$/, "")}` : lines);
  }

  /** Remove whole lines, except the comment lines among them: a comment is never lost. */
  protected removeLines(start: number, end: number): void {
    const kept = this.text
      .slice(start, end)
      .split(/(?<=\n)/)
      .filter((l) => l.trimStart().startsWith("#"));
    this.splice(start, end, kept.join(""));
  }

  protected splice(start: number, end: number | undefined, insert: string): void {
    const to = end ?? start;
    this.text = this.text.slice(0, start) + insert + this.text.slice(to);
    this.doc = YamlText.parse(this.text);
  }

  protected pair(map: YAMLMap, key: string): Pair | undefined {
    return map.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
  }

  protected index(seq: YAMLSeq, seg: Seg): number {
    if (typeof seg === "number") return seg;
    if (typeof seg === "string") return -1;
    return seq.items.findIndex((item) => seg((item as Node).toJS(this.doc)));
  }
}
