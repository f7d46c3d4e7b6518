/**
 * A file's YAML events packed into two typed arrays (no object per event for the collector to
 * trace): per event one byte — type, scalar style and whether the scalar is verbatim text —
 * and two numbers — a collection's start and the index of its closing event, a scalar's value
 * start and end. 9 bytes an event. js-yaml's events are packed after parsing (fast-read.ts),
 * the line reader's appended as it reads (line-read.ts); fast-events.ts walks them.
 */
import { EVENT_ID, type Event } from "js-yaml";

const { DOCUMENT, SEQUENCE, MAPPING, SCALAR, POP } = EVENT_ID;

export interface Packed {
  /** Per event: type (3 bits), scalar style (3 bits), verbatim scalar (1 bit). */
  readonly meta: Uint8Array;
  /** Per event two numbers, at 2i and 2i + 1 (`A` and `B`). */
  readonly ab: Int32Array;
}
export const [A, B] = [0, 1];

/** A packed scalar's meta byte: its type, style and whether it is verbatim text. */
export const scalarMeta = (style: number, fast: boolean) =>
  SCALAR | (style << 3) | (fast ? 1 << 6 : 0);

/** js-yaml's events, packed. */
export function pack(events: readonly Event[]): Packed {
  const meta = new Uint8Array(events.length);
  const ab = new Int32Array(events.length * 2);
  // Open documents and collections, by event.
  const open: number[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    meta[i] = e.type;
    if (e.type === MAPPING || e.type === SEQUENCE) {
      ab[2 * i + A] = e.start;
      open.push(i);
    } else if (e.type === SCALAR) {
      meta[i] = scalarMeta(e.style, e.fast);
      ab[2 * i + A] = e.valueStart;
      ab[2 * i + B] = e.valueEnd;
    } else if (e.type === DOCUMENT) {
      open.push(i);
    } else if (e.type === POP) {
      const opened = open.pop() ?? -1;
      if (opened >= 0 && events[opened].type !== DOCUMENT) ab[2 * opened + B] = i;
    }
  }
  return { meta, ab };
}

/** Packed events appended one by one (the line reader's), closing events filled in later. */
export class PackedBuilder {
  private meta: Uint8Array;
  private ab: Int32Array;
  private n = 0;

  constructor(expected: number) {
    this.meta = new Uint8Array(Math.max(64, expected));
    this.ab = new Int32Array(this.meta.length * 2);
  }

  /** Events so far. */
  get length(): number {
    return this.n;
  }

  /** Append an event; its index. */
  push(meta: number, a = 0, b = 0): number {
    if (this.n === this.meta.length) {
      const meta = new Uint8Array(this.meta.length * 2);
      meta.set(this.meta);
      this.meta = meta;
      const ab = new Int32Array(this.ab.length * 2);
      ab.set(this.ab);
      this.ab = ab;
    }
    this.meta[this.n] = meta;
    this.ab[2 * this.n + A] = a;
    this.ab[2 * this.n + B] = b;
    return this.n++;
  }

  /** Close the collection opened at event `opened`: append its closing event. */
  close(opened: number): void {
    const closing = this.push(POP); // first: it may grow the arrays
    this.ab[2 * opened + B] = closing;
  }

  /** The events (copies only when much of the arrays is unused). */
  done(): Packed {
    const n = this.n;
    const fit = n >= this.meta.length * 0.75;
    return {
      meta: fit ? this.meta.subarray(0, n) : this.meta.slice(0, n),
      ab: fit ? this.ab.subarray(0, 2 * n) : this.ab.slice(0, 2 * n),
    };
  }
}
