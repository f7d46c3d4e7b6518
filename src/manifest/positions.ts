/**
 * Source positions of YAML nodes: a parsed document keeps its node ranges, and a field path
 * (`["spec", "git", "repositories", 1, "name"]`) is located by walking them — so every
 * diagnostic and every declared object names file, line and column without a second parse.
 */
import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from "yaml";
import type { Source } from "./types.js";

export type FieldPath = readonly (string | number)[];

/** One parsed YAML document and how to find positions in it (by either reader). */
export interface DocHandle {
  /** Relative to the current directory, `/`-separated. */
  readonly file: string;
  /** Position of a character offset of the file's text. */
  sourceAt(offset: number): Source;
  /** Where the document starts (its first content, else its `---`). */
  readonly start: Source;
  at(path: FieldPath, which?: "key" | "value"): Source;
}

/** A document of the full reader (the `yaml` library's nodes). */
export class YamlDocHandle implements DocHandle {
  constructor(
    /** Relative to the current directory, `/`-separated. */
    readonly file: string,
    readonly doc: Document.Parsed,
    private readonly lines: LineCounter,
  ) {}

  sourceAt(offset: number): Source {
    const { line, col } = this.lines.linePos(offset);
    return { file: this.file, line: Math.max(1, line), column: Math.max(1, col) };
  }

  get start(): Source {
    return this.sourceAt(this.doc.contents?.range[0] ?? this.doc.range[0]);
  }

  at(path: FieldPath, which: "key" | "value" = "value"): Source {
    return this.sourceAt(locate(this.doc, path, which));
  }
}

function keyName(n: unknown): string | undefined {
  if (isScalar(n)) return String(n.value);
  return undefined;
}

/** Byte offset of a field's key or value. */
export function locate(doc: Document, path: FieldPath, which: "key" | "value"): number {
  let node: unknown = doc.contents;
  let keyNode: Node | undefined;
  let offset = (node as Node | null)?.range?.[0] ?? doc.range?.[0] ?? 0;
  for (const seg of path) {
    if (isAlias(node)) node = node.resolve(doc);
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find((p) => keyName(p.key) === String(seg));
      if (!pair) return offset;
      keyNode = pair.key as Node;
      next = pair.value;
      offset = keyNode.range?.[0] ?? offset;
    } else if (isSeq(node) && typeof seg === "number") {
      keyNode = undefined;
      next = node.items[seg];
      if (next === undefined) return offset;
    } else {
      return offset;
    }
    const valueStart = (next as Node | null)?.range?.[0];
    const emptyValue = isScalar(next) && next.value === null && !next.source;
    if (valueStart !== undefined && !emptyValue) offset = valueStart;
    node = next;
  }
  if (which === "key" && keyNode?.range) return keyNode.range[0];
  return offset;
}
