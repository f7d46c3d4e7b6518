/**
 * Positions for the fast reader (fast-read.ts): a file's js-yaml events packed into one typed
 * array, and a field path (`["spec", "git", "repositories", 1, "name"]`) located by walking
 * them, as the full reader's `locate` does on the `yaml` library's nodes. Every step is
 * constant or bounded by a mapping's keys: a collection knows where it ends, and a sequence
 * indexed more than a few times keeps where its items start — so a project's 100,000
 * repositories cost 100,000 steps, not 100,000².
 */
import { EVENT_ID, getScalarValue, SCALAR_STYLE, type ScalarEvent } from "js-yaml";
import { A, B, type Packed } from "./packed.js";
import type { DocHandle, FieldPath } from "./positions.js";
import type { Source } from "./types.js";

const { SEQUENCE, MAPPING, SCALAR, POP } = EVENT_ID;

/** A block scalar's header from its indicator on: `|-2 # comment`. */
const BLOCK_HEADER = /^[|>][-+1-9]{0,2}(?:[ \t]+(?:#.*)?)?\r?$/;

/** The indicator of the block scalar whose content starts at `contentStart`; -1 if not found. */
export function blockHeader(text: string, contentStart: number): number {
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

/** Events visited while locating fields, in this process (tests hold it linear in the input). */
export const locateSteps = { count: 0 };

/** Sequences indexed more often than this keep where their items start. */
const INDEX_AFTER = 8;

/** One file's text, its packed events and where its lines start. */
export class Reading {
  private lineStarts: Int32Array | undefined;
  /** Per sequence (by event): how often it was indexed, then where its items start. */
  private readonly items = new Map<number, number | Int32Array>();

  constructor(
    readonly file: string,
    readonly text: string,
    /** packed.ts: pack()'s or a PackedBuilder's. */
    ev: Packed,
  ) {
    this.meta = ev.meta;
    this.ab = ev.ab;
  }

  private readonly meta: Uint8Array;
  private readonly ab: Int32Array;

  private lines(): Int32Array {
    if (this.lineStarts) return this.lineStarts;
    const text = this.text;
    let n = 1;
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
    const starts = new Int32Array(n);
    n = 1;
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts[n++] = i + 1;
    return (this.lineStarts = starts);
  }

  sourceAt(offset: number): Source {
    const starts = this.lines();
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
    return this.meta[i] & 7;
  }

  /** A scalar's text (keys: plain or quoted, one line). */
  private scalarText(i: number): string {
    const meta = this.meta[i];
    const event = {
      type: SCALAR,
      valueStart: this.ab[2 * i + A],
      valueEnd: this.ab[2 * i + B],
      style: (meta >> 3) & 7,
      fast: (meta & (1 << 6)) !== 0,
    } as ScalarEvent;
    return getScalarValue(this.text, event);
  }

  /** Whether the key scalar at event `i` is `want` (verbatim text compared in place, no copy). */
  private keyIs(i: number, want: string): boolean {
    const start = this.ab[2 * i + A];
    const end = this.ab[2 * i + B];
    if ((this.meta[i] & (1 << 6)) !== 0 && start >= 0)
      return end - start === want.length && this.text.startsWith(want, start);
    return this.scalarText(i) === want;
  }

  /** Where a scalar starts as the `yaml` library counts it (quotes and block headers included); -1 for an empty one. */
  scalarStart(i: number): number {
    const start = this.ab[2 * i + A];
    const end = this.ab[2 * i + B];
    switch ((this.meta[i] >> 3) & 7) {
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
    return t === MAPPING || t === SEQUENCE ? this.ab[2 * i + A] : this.scalarStart(i);
  }

  /** The event after the node at `i` (and all it holds). */
  private skip(i: number): number {
    const t = this.type(i);
    return t === MAPPING || t === SEQUENCE ? this.ab[2 * i + B] + 1 : i + 1;
  }

  /** The event of item `n` of the sequence at `seq`; -1 past its end. */
  private item(seq: number, n: number): number {
    const known = this.items.get(seq);
    if (known instanceof Int32Array) return n < known.length ? known[n] : -1;
    if ((known ?? 0) < INDEX_AFTER) {
      this.items.set(seq, (known ?? 0) + 1);
      let i = seq + 1;
      for (let k = 0; k < n && this.type(i) !== POP; k++) i = this.skip(i);
      locateSteps.count += n;
      return this.type(i) === POP ? -1 : i;
    }
    const starts: number[] = [];
    for (let i = seq + 1; this.type(i) !== POP; i = this.skip(i)) starts.push(i);
    locateSteps.count += starts.length;
    const index = Int32Array.from(starts);
    this.items.set(seq, index);
    return n < index.length ? index[n] : -1;
  }

  /**
   * Where the last path but its final segment led: the next path with the same parent (a
   * project's repositories, located one after another) resumes from there.
   */
  private parent: { root: number; path: FieldPath; node: number; offset: number } | undefined;

  private sameParent(root: number, path: FieldPath): boolean {
    const p = this.parent;
    if (!p || p.root !== root || p.path.length !== path.length - 1) return false;
    for (let k = 0; k < p.path.length; k++) if (p.path[k] !== path[k]) return false;
    return true;
  }

  /** Character offset of a field's key or value, as the full reader's `locate` finds it. */
  locate(root: number, path: FieldPath, which: "key" | "value"): number {
    let node = root;
    let keyAt = -1;
    let offset = this.nodeStart(root);
    let from = 0;
    if (path.length > 1 && this.sameParent(root, path)) {
      ({ node, offset } = this.parent!);
      from = path.length - 1;
    }
    for (let s = from; s < path.length; s++) {
      if (s === path.length - 1 && s > 0 && from === 0)
        this.parent = { root, path: path.slice(0, s), node, offset };
      const seg = path[s];
      locateSteps.count++;
      const t = this.type(node);
      let next = -1;
      if (t === MAPPING) {
        const want = String(seg);
        keyAt = -1;
        for (let i = node + 1; this.type(i) !== POP; i = this.skip(i + 1)) {
          locateSteps.count++;
          if (this.keyIs(i, want)) {
            keyAt = this.scalarStart(i);
            next = i + 1;
            break;
          }
        }
        if (next < 0) return offset;
        offset = keyAt;
      } else if (t === SEQUENCE && typeof seg === "number") {
        keyAt = -1;
        next = this.item(node, seg);
        if (next < 0) return offset;
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

/** A document of the fast reader: its root mapping's event. */
export class EventDocHandle implements DocHandle {
  constructor(
    private readonly reading: Reading,
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

/** An empty document (`---` and nothing): every position is where its content would start. */
export class EmptyDocHandle implements DocHandle {
  constructor(
    private readonly reading: Reading,
    private readonly offset: number,
  ) {}

  get file(): string {
    return this.reading.file;
  }

  sourceAt(offset: number): Source {
    return this.reading.sourceAt(offset);
  }

  get start(): Source {
    return this.sourceAt(this.offset);
  }

  at(): Source {
    return this.start;
  }
}
