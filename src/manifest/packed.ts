/**
 * A file's YAML events packed into one typed array: per event three numbers (no object per
 * event for the collector to trace) — js-yaml's events packed after parsing (fast-read.ts),
 * or the line reader's appended as it reads (line-read.ts). fast-events.ts walks them.
 */
import { EVENT_ID, type Event } from "js-yaml";

const { DOCUMENT, SEQUENCE, MAPPING, SCALAR, POP } = EVENT_ID;

/**
 * Per event three numbers (no object per event for the collector to trace): type, scalar
 * style and whether the scalar is verbatim text, packed in one; a collection's start and the
 * index of its closing event; a scalar's value start and end.
 */
export const STRIDE = 3;
export const [META, A, B] = [0, 1, 2];

/** A packed scalar's first number: its type, style and whether it is verbatim text. */
export const scalarMeta = (style: number, fast: boolean) =>
  SCALAR | (style << 3) | (fast ? 1 << 6 : 0);

/** js-yaml's events, packed. */
export function pack(events: readonly Event[]): Int32Array {
  const packed = new Int32Array(events.length * STRIDE);
  // Open documents and collections, by event.
  const open: number[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const at = i * STRIDE;
    packed[at + META] = e.type;
    if (e.type === MAPPING || e.type === SEQUENCE) {
      packed[at + A] = e.start;
      open.push(i);
    } else if (e.type === SCALAR) {
      packed[at + META] = scalarMeta(e.style, e.fast);
      packed[at + A] = e.valueStart;
      packed[at + B] = e.valueEnd;
    } else if (e.type === DOCUMENT) {
      open.push(i);
    } else if (e.type === POP) {
      const opened = open.pop() ?? -1;
      if (opened >= 0 && events[opened].type !== DOCUMENT) packed[opened * STRIDE + B] = i;
    }
  }
  return packed;
}

/** Packed events appended one by one (the line reader's), closing events filled in later. */
export class PackedBuilder {
  private ev: Int32Array;
  private n = 0;

  constructor(expected: number) {
    this.ev = new Int32Array(Math.max(64, expected) * STRIDE);
  }

  /** Events so far. */
  get length(): number {
    return this.n;
  }

  /** Append an event; its index. */
  push(meta: number, a = 0, b = 0): number {
    if ((this.n + 1) * STRIDE > this.ev.length) {
      const grown = new Int32Array(this.ev.length * 2);
      grown.set(this.ev);
      this.ev = grown;
    }
    const at = this.n * STRIDE;
    this.ev[at + META] = meta;
    this.ev[at + A] = a;
    this.ev[at + B] = b;
    return this.n++;
  }

  /** Close the collection opened at event `opened`: append its closing event. */
  close(opened: number): void {
    const closing = this.push(POP); // first: it may grow the array
    this.ev[opened * STRIDE + B] = closing;
  }

  /** The events (a copy only when much of the array is unused). */
  done(): Int32Array {
    const used = this.n * STRIDE;
    return used < this.ev.length * 0.75 ? this.ev.slice(0, used) : this.ev.subarray(0, used);
  }
}
