/**
 * Positions in a YAML text for in-place edits (doc-text.ts): node ranges as the `yaml`
 * library reports them, where a node's content ends (its trailing comments and blank lines
 * left out), line starts and ends, columns, and the document's indentation step.
 */
import { isMap, isScalar, isSeq, type Document, type Node, type Pair } from "yaml";

/** An edit that cannot be made in place; the caller leaves the file as it is. */
export class EditError extends Error {}

export const range = (n: unknown): [number, number, number] => {
  const r = (n as Node | null)?.range;
  if (!r) throw new EditError("a node without a position");
  return r;
};

/** `key:` with nothing after it. */
export const isEmptyNull = (n: unknown) => isScalar(n) && n.value === null && !n.source;

export const isEmptyColl = (v: unknown) =>
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

/** End of a node's content: its trailing comments and blank lines left out. */
export function contentEnd(node: unknown): number {
  if (isMap(node) && !node.flow && node.items.length > 0)
    return pairEnd(node.items[node.items.length - 1]);
  if (isSeq(node) && !node.flow && node.items.length > 0)
    return contentEnd(node.items[node.items.length - 1]);
  return range(node)[1];
}

/** End of a scalar's text, without the line breaks a block scalar (`|`) takes along. */
export function valueEnd(text: string, node: unknown): number {
  const [start, end] = range(node);
  let e = end;
  while (e > start && /\s/.test(text[e - 1])) e--;
  return e;
}

export function pairEnd(pair: Pair): number {
  const keyEnd = range(pair.key)[1];
  return pair.value && !isEmptyNull(pair.value) ? contentEnd(pair.value) : keyEnd + 1;
}

export const lineStart = (text: string, off: number) => text.lastIndexOf("\n", off - 1) + 1;

/** Just after the newline that ends the line holding the character before `end`. */
export function lineEndAt(text: string, end: number): number {
  const nl = text.indexOf("\n", Math.max(0, end - 1));
  return nl < 0 ? text.length : nl + 1;
}

export const col = (text: string, off: number) => off - lineStart(text, off);

export const firstOnLine = (text: string, off: number) =>
  text.slice(lineStart(text, off), off).trim() === "";

/** The start of the comment lines right above the line of `off` (else of that line). */
export function aboveComments(text: string, off: number): number {
  let start = lineStart(text, off);
  while (start > 0) {
    const prev = lineStart(text, start - 1);
    if (!text.slice(prev, start).trimStart().startsWith("#")) break;
    start = prev;
  }
  return start;
}

/** The indentation step of the document's block maps (2 when none is nested). */
export function indentUnit(doc: Document, text: string): number {
  const root = doc.contents;
  if (!isMap(root) || root.flow) return 2;
  for (const p of root.items) {
    if (isMap(p.value) && !p.value.flow && p.value.items.length > 0) {
      const step = col(text, range(p.value)[0]) - col(text, range(p.key)[0]);
      if (step > 0) return step;
    }
  }
  return 2;
}
