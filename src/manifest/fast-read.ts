/**
 * The fast reader. js-yaml's event parser gives a flat list of events that point into the
 * text by offset (no node objects), values are built from it, and a position is found by
 * walking a document's events only when one is asked for. The `yaml` library's reader
 * (parse.ts) builds a full node tree with ranges and costs about five times as much: at
 * 10,000 users and 2,000 projects that is most of a plan's CPU time.
 *
 * It reads the plain YAML manifests are made of and declines everything else — a syntax
 * error or duplicate key, anchors and aliases, tags, directives, merge keys (`<<`), keys that
 * are not plain strings, documents that are not mappings, an empty stream — and then the full
 * reader takes the whole file, so diagnostics and every edge of YAML stay the `yaml`
 * library's. test/manifest/fast-read.test.ts holds the two readers to the same values and
 * the same positions.
 */
import {
  constructFromEvents,
  EVENT_ID,
  getScalarValue,
  parseEvents,
  SCALAR_STYLE,
  type Event,
  type ScalarEvent,
} from "js-yaml";
import type { ParsedDocument } from "./parse.js";
import type { DocHandle, FieldPath } from "./positions.js";
import type { Source } from "./types.js";

const { DOCUMENT, SEQUENCE, MAPPING, SCALAR, ALIAS, POP } = EVENT_ID;

/** Plain scalars the core schema resolves to something other than a string. */
const NON_STRING_PLAIN =
  /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/**
 * Text the two readers do not read alike, found by the differential test: merge keys (`<<`),
 * a byte order mark, tabs in indentation (the full reader refuses more of them), document
 * end markers (documents are counted differently around them) and indented document markers
 * (js-yaml takes them as markers, the full reader as text).
 */
const DECLINED_TEXT =
  /<<|\ufeff|^[ ]*\t|^\.\.\.(?:[ \t\r\n]|$)|^[ \t]+(?:---|\.\.\.)(?:[ \t\r\n]|$)/m;

/** A block scalar's header from its indicator on: `|-2 # comment`. */
const BLOCK_HEADER = /^[|>][-+1-9]{0,2}(?:[ \t]+(?:#.*)?)?\r?$/;

/**
 * A file's events packed into one typed array (no object per event for the collector to
 * trace): per event its type, start (a collection's, a scalar's value start), value end,
 * scalar style and whether the scalar is verbatim text (`fast`).
 */
const STRIDE = 5;
const [TYPE, START, END, STYLE, FAST] = [0, 1, 2, 3, 4];

function pack(events: readonly Event[]): Int32Array {
  const packed = new Int32Array(events.length * STRIDE);
  events.forEach((e, i) => {
    const at = i * STRIDE;
    packed[at + TYPE] = e.type;
    if (e.type === MAPPING || e.type === SEQUENCE) packed[at + START] = e.start;
    else if (e.type === SCALAR) {
      packed[at + START] = e.valueStart;
      packed[at + END] = e.valueEnd;
      packed[at + STYLE] = e.style;
      packed[at + FAST] = e.fast ? 1 : 0;
    }
  });
  return packed;
}

/** The indicator of the block scalar whose content starts at `contentStart`; -1 if not found. */
function blockHeader(text: string, contentStart: number): number {
  const end = contentStart - 1;
  if (end < 0 || text[end] !== "\n") return -1;
  const lineStart = text.lastIndexOf("\n", end - 1) + 1;
  const line = text.slice(lineStart, end);
  for (let p = line.search(/[|>]/); p !== -1;) {
    if (BLOCK_HEADER.test(line.slice(p))) return lineStart + p;
    const next = line.slice(p + 1).search(/[|>]/);
    p = next === -1 ? -1 : p + 1 + next;
  }
  return -1;
}

/** One file's text, its packed events and where its lines start. */
class Reading {
  private readonly lineStarts: number[] = [0];
  private readonly ev: Int32Array;

  constructor(
    readonly file: string,
    readonly text: string,
    events: readonly Event[],
  ) {
    this.ev = pack(events);
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1))
      this.lineStarts.push(i + 1);
  }

  sourceAt(offset: number): Source {
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { file: this.file, line: lo + 1, column: Math.max(1, offset - starts[lo] + 1) };
  }

  private type(i: number): number {
    return this.ev[i * STRIDE + TYPE];
  }

  /** A scalar's text (keys: plain or quoted, one line). */
  private scalarText(i: number): string {
    const at = i * STRIDE;
    const event = {
      type: SCALAR,
      valueStart: this.ev[at + START],
      valueEnd: this.ev[at + END],
      style: this.ev[at + STYLE],
      fast: this.ev[at + FAST] === 1,
    } as ScalarEvent;
    return getScalarValue(this.text, event);
  }

  /** Where a scalar starts as the `yaml` library counts it (quotes and block headers included); -1 for an empty one. */
  scalarStart(i: number): number {
    const at = i * STRIDE;
    const [start, end] = [this.ev[at + START], this.ev[at + END]];
    switch (this.ev[at + STYLE]) {
      case SCALAR_STYLE.PLAIN:
        return end > start ? start : -1;
      case SCALAR_STYLE.SINGLE_QUOTED:
      case SCALAR_STYLE.DOUBLE_QUOTED:
        return start - 1;
      default:
        return blockHeader(this.text, start);
    }
  }

  /** Where the node at event `i` starts; -1 for an empty scalar. */
  nodeStart(i: number): number {
    const t = this.type(i);
    return t === MAPPING || t === SEQUENCE ? this.ev[i * STRIDE + START] : this.scalarStart(i);
  }

  /** The event after the node at `i` (and all it holds). */
  private skip(i: number): number {
    const t = this.type(i);
    if (t !== MAPPING && t !== SEQUENCE) return i + 1;
    let depth = 1;
    let j = i + 1;
    while (depth > 0) {
      const u = this.type(j);
      if (u === MAPPING || u === SEQUENCE) depth++;
      else if (u === POP) depth--;
      j++;
    }
    return j;
  }

  /** Character offset of a field's key or value, as the full reader's `locate` finds it. */
  locate(root: number, path: FieldPath, which: "key" | "value"): number {
    let node = root;
    let keyAt = -1;
    let offset = this.nodeStart(root);
    for (const seg of path) {
      const t = this.type(node);
      let next = -1;
      if (t === MAPPING) {
        const want = String(seg);
        keyAt = -1;
        for (let i = node + 1; this.type(i) !== POP; i = this.skip(i + 1)) {
          if (this.scalarText(i) === want) {
            keyAt = this.scalarStart(i);
            next = i + 1;
            break;
          }
        }
        if (next < 0) return offset;
        offset = keyAt;
      } else if (t === SEQUENCE && typeof seg === "number") {
        keyAt = -1;
        let i = node + 1;
        for (let n = 0; n < seg && this.type(i) !== POP; n++) i = this.skip(i);
        if (this.type(i) === POP) return offset;
        next = i;
      } else {
        return offset;
      }
      const start = this.nodeStart(next);
      if (start >= 0) offset = start;
      node = next;
    }
    return which === "key" && keyAt >= 0 ? keyAt : offset;
  }
}

class EventDocHandle implements DocHandle {
  constructor(
    private readonly reading: Reading,
    /** Index of the document's root mapping event. */
    private readonly root: number,
  ) {}

  get file(): string {
    return this.reading.file;
  }

  sourceAt(offset: number): Source {
    return this.reading.sourceAt(offset);
  }

  get start(): Source {
    return this.sourceAt(this.reading.nodeStart(this.root));
  }

  at(path: FieldPath, which: "key" | "value" = "value"): Source {
    return this.sourceAt(this.reading.locate(this.root, path, which));
  }
}

/**
 * Root mapping event of every document, or undefined when the stream holds anything the
 * fast reader declines (see the file comment).
 */
function documentRoots(text: string, ev: readonly Event[]): number[] | undefined {
  const roots: number[] = [];
  // Per open collection: -1 for a sequence or document, else the number of nodes seen in
  // the mapping so far (even: the next node is a key).
  const open: number[] = [];
  for (let i = 0; i < ev.length; i++) {
    const e = ev[i];
    if (e.type === DOCUMENT) {
      if (e.directives.length > 0) return undefined;
      open.push(-2);
      continue;
    }
    if (e.type === POP) {
      open.pop();
      continue;
    }
    if (e.type === ALIAS || e.anchorStart !== -1 || e.tagStart !== -1) return undefined;
    const parent = open.length - 1;
    const inMapping = open[parent];
    if (inMapping === -2) {
      if (e.type !== MAPPING) return undefined;
      roots.push(i);
      open[parent] = -1;
    } else if (inMapping >= 0) {
      if (inMapping % 2 === 0) {
        // A key: a one-line string.
        if (e.type !== SCALAR) return undefined;
        if (e.style === SCALAR_STYLE.LITERAL_BLOCK || e.style === SCALAR_STYLE.FOLDED_BLOCK)
          return undefined;
        if (e.style === SCALAR_STYLE.PLAIN && NON_STRING_PLAIN.test(getScalarValue(text, e)))
          return undefined;
        if (e.style === SCALAR_STYLE.PLAIN && e.valueEnd <= e.valueStart) return undefined;
      }
      open[parent] = inMapping + 1;
    }
    const block =
      e.type === SCALAR &&
      (e.style === SCALAR_STYLE.LITERAL_BLOCK || e.style === SCALAR_STYLE.FOLDED_BLOCK);
    if (block && blockHeader(text, e.valueStart) < 0) return undefined;
    if (e.type === MAPPING) open.push(0);
    else if (e.type === SEQUENCE) open.push(-1);
  }
  return roots.length > 0 ? roots : undefined;
}

/**
 * The documents of a file by the fast reader, or undefined when it declines the file (the
 * full reader must read it then).
 */
export function readFast(file: string, text: string): ParsedDocument[] | undefined {
  if (DECLINED_TEXT.test(text)) return undefined;
  let events: Event[];
  let values: unknown[];
  try {
    events = parseEvents(text, { filename: file });
    values = constructFromEvents(events, { source: text, filename: file, maxAliases: 0 });
  } catch {
    return undefined;
  }
  const roots = documentRoots(text, events);
  if (!roots || roots.length !== values.length) return undefined;
  const reading = new Reading(file, text, events);
  return roots.map((root, k) => ({ handle: new EventDocHandle(reading, root), value: values[k] }));
}
