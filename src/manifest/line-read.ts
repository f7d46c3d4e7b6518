/**
 * The line reader: the block YAML manifests are written in — mappings and lists by
 * indentation, one-line scalars and flow collections, comments, `---` between documents and
 * at the end — read line by line into values and the packed events js-yaml would give
 * (fast-events.ts), with no object per event. js-yaml's parser keeps an object per event, ten
 * times the file in memory at 760,000 repositories; this keeps the values and 9 bytes an
 * event. Anything else declines (fast-read.ts then asks js-yaml): block scalars, multi-line
 * scalars, anchors, tags, escapes, nesting past MAX_DEPTH, anything it does not expect.
 * test/manifest/line-read-scale.test.ts holds it to js-yaml's events and values.
 */
import { EVENT_ID, SCALAR_STYLE } from "js-yaml";
import { PackedBuilder, scalarMeta, type Packed } from "./packed.js";
import {
  blockKey,
  decline,
  DECLINE,
  inlineValue,
  quoted,
  type BlockKey,
  type LineContext,
} from "./line-scalars.js";
import { MAX_DEPTH, NON_STRING_PLAIN } from "./yaml-rules.js";

const { DOCUMENT, SEQUENCE, MAPPING, POP } = EVENT_ID;
const EMPTY = scalarMeta(SCALAR_STYLE.PLAIN, false);
/** A plain key: verbatim text. */
const KEY = scalarMeta(SCALAR_STYLE.PLAIN, true);

/** Text the line reader leaves to js-yaml whatever the structure: tabs, lone CRs, unusual characters. */
const UNREAD =
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  /[\t\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\u2028\u2029\uFEFF\uFFFE\uFFFF]|\r(?!\n)|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A document's root: its mapping's event, or where an empty document's content would start. */
export type LineRoot = { event: number } | { emptyAt: number };

export interface LineReading {
  values: unknown[];
  roots: LineRoot[];
  events: Packed;
}

type Line = "content" | "marker" | "end";

class LineReader implements LineContext {
  readonly out: PackedBuilder;
  depth = 0;
  /** The current line: its start, its end (before `\r\n`), its first character. */
  private ls = 0;
  private le = 0;
  private first = 0;
  private kind: Line = "end";

  constructor(readonly text: string) {
    this.out = new PackedBuilder(text.length >> 3);
  }

  private get indent(): number {
    return this.first - this.ls;
  }

  /** Move to the next line that holds something (from the one starting at `from`). */
  private seek(from: number): Line {
    const { text } = this;
    for (let ls = from; ls < text.length;) {
      const nl = text.indexOf("\n", ls);
      const end = nl === -1 ? text.length : nl;
      const le = text[end - 1] === "\r" ? end - 1 : end;
      let p = ls;
      while (p < le && text[p] === " ") p++;
      if (p < le && text[p] !== "#") {
        // A document end marker (`...`): js-yaml's to read.
        if (p === ls && text.startsWith("...", ls) && (le === ls + 3 || text[ls + 3] === " "))
          decline();
        [this.ls, this.le, this.first] = [ls, le, p];
        const marker =
          p === ls && text.startsWith("---", ls) && (le === ls + 3 || text[ls + 3] === " ");
        return (this.kind = marker ? "marker" : "content");
      }
      ls = end + 1;
    }
    [this.ls, this.le, this.first] = [text.length, text.length, text.length];
    return (this.kind = "end");
  }

  private next(): Line {
    return this.seek(this.le + (this.text[this.le] === "\r" ? 2 : 1));
  }

  private isDash(p: number): boolean {
    return this.text[p] === "-" && (p + 1 === this.le || this.text[p + 1] === " ");
  }

  private key(p: number): BlockKey | undefined {
    return blockKey(this.text, p, this.le);
  }

  /** A block mapping whose first key is at `p` on the current line. */
  private mapping(p: number): Record<string, unknown> {
    if (++this.depth > MAX_DEPTH) decline();
    const { text, out } = this;
    const column = p - this.ls;
    const opened = out.push(MAPPING, p);
    const map: Record<string, unknown> = {};
    for (;;) {
      const k = this.key(p) ?? decline();
      let name: unknown = k.text;
      if (k.end - k.start > 1000) decline();
      if (text[k.start] === "'" || text[k.start] === '"') name = quoted(this, k.start, k.end);
      else if (NON_STRING_PLAIN.test(k.text)) decline();
      else out.push(KEY, k.start, k.end); // its text is the key: no copy, no lookup
      if (typeof name !== "string" || name === "__proto__" || Object.hasOwn(map, name)) decline();
      map[name] = this.valueAfter(k.after, column);
      if (this.kind !== "content" || this.indent < column) break;
      if (this.indent > column || this.isDash(this.first)) decline();
      p = this.first;
    }
    out.close(opened);
    this.depth--;
    return map;
  }

  /** A block list whose first `-` is at `p` on the current line. */
  private list(p: number): unknown[] {
    if (++this.depth > MAX_DEPTH) decline();
    const { text, out } = this;
    const column = p - this.ls;
    const opened = out.push(SEQUENCE, p);
    const items: unknown[] = [];
    for (;;) {
      let at = p + 1;
      while (at < this.le && text[at] === " ") at++;
      if (at === this.le || text[at] === "#") items.push(this.below(column));
      else if (this.isDash(at)) items.push(this.list(at));
      else if (this.key(at)) items.push(this.mapping(at));
      else {
        items.push(inlineValue(this, at, this.le));
        this.next();
      }
      if (this.kind !== "content" || this.indent < column) break;
      if (this.indent > column) decline();
      if (!this.isDash(this.first)) break;
      p = this.first;
    }
    out.close(opened);
    this.depth--;
    return items;
  }

  /** The value after a key whose `:` ends at `after`, in a mapping at `column`. */
  private valueAfter(after: number, column: number): unknown {
    const { text, le } = this;
    let p = after;
    while (p < le && text[p] === " ") p++;
    if (p < le && text[p] !== "#") {
      const value = inlineValue(this, p, le);
      this.next();
      return value;
    }
    this.next();
    // A list may sit at its key's indentation.
    if (this.kind === "content" && this.indent === column && this.isDash(this.first))
      return this.list(this.first);
    return this.nested(column);
  }

  /** The value on the lines after `-` or `key:`: a block collection indented past `column`, or empty. */
  private below(column: number): unknown {
    this.next();
    return this.nested(column);
  }

  private nested(column: number): unknown {
    if (this.kind !== "content" || this.indent <= column) {
      this.out.push(EMPTY, -1, -1);
      return null;
    }
    if (this.isDash(this.first)) return this.list(this.first);
    if (this.key(this.first)) return this.mapping(this.first);
    // A scalar or flow collection on a line of its own: nothing may continue it.
    const value = inlineValue(this, this.first, this.le);
    if (this.next() === "content" && this.indent > column) decline();
    return value;
  }

  /** Every document of the text. */
  read(): LineReading {
    const { text, out } = this;
    const values: unknown[] = [];
    const roots: LineRoot[] = [];
    if (this.seek(0) === "end") decline();
    while (this.kind !== "end") {
      let marker = -1;
      if (this.kind === "marker") {
        marker = this.ls;
        let p = this.ls + 3;
        while (p < this.le && text[p] === " ") p++;
        if (p < this.le && text[p] !== "#") decline();
        this.next();
      } else if (values.length > 0) decline();
      out.push(DOCUMENT);
      if (this.kind === "content" && text[this.first] === "{") {
        // A document that is one flow mapping on one line.
        roots.push({ event: out.length });
        values.push(inlineValue(this, this.first, this.le));
        if (this.next() === "content") decline();
      } else if (this.kind === "content") {
        if (this.indent !== 0 || this.isDash(this.first) || !this.key(this.first)) decline();
        roots.push({ event: out.length });
        values.push(this.mapping(this.first));
        if (this.kind === "content") decline();
      } else {
        // `---` and nothing after it: an empty document.
        if (marker < 0) decline();
        let at = marker + 3;
        while (text[at] === " ") at++;
        out.push(EMPTY, -1, -1);
        roots.push({ emptyAt: at });
        values.push(null);
      }
      out.push(POP);
    }
    return { values, roots, events: out.done() };
  }
}

/** The documents of `text` by the line reader, or undefined when it leaves them to js-yaml. */
export function readLines(text: string): LineReading | undefined {
  if (UNREAD.test(text)) return undefined;
  try {
    return new LineReader(text).read();
  } catch (e) {
    if (e === DECLINE) return undefined;
    throw e;
  }
}
