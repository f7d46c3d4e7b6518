/**
 * What the line reader (line-read.ts) reads inside one line: keys, plain and quoted scalars,
 * and flow collections (line-flow.ts). Each appends the events js-yaml would give (packed)
 * and returns its value; anything else — escapes, a scalar over several lines — declines, and
 * js-yaml reads the file.
 */
import {
  constructFromEvents,
  getScalarValue,
  parseEvents,
  SCALAR_STYLE,
  type ScalarEvent,
} from "js-yaml";
import { flowCollection } from "./line-flow.js";
import { scalarMeta, type PackedBuilder } from "./packed.js";
import { NON_STRING_PLAIN } from "./yaml-rules.js";

/** Thrown to decline a file (caught by readLines): one instance, no stack taken per throw. */
class Declined extends Error {}
export const DECLINE = new Declined("the line reader declines this text");
export function decline(): never {
  throw DECLINE;
}

/** The reader's state a line's content needs. */
export interface LineContext {
  readonly text: string;
  readonly out: PackedBuilder;
  /** Collections open. */
  depth: number;
}

const { PLAIN, SINGLE_QUOTED, DOUBLE_QUOTED } = SCALAR_STYLE;

/** Characters that may not start a plain scalar here (YAML's indicators). */
const INDICATORS = "-?:,[]{}#&*!|>'\"%@`";

export function isIndicator(c: string | undefined): boolean {
  return c === undefined || INDICATORS.includes(c);
}

/** Whether a plain scalar cannot start at `p` in block context (`-x` can, `- x` cannot). */
export function blockIndicator(text: string, p: number, le: number): boolean {
  const c = text[p];
  if (c === "-" || c === "?" || c === ":") return p + 1 >= le || text[p + 1] === " ";
  return isIndicator(c);
}

/** Non-string plain scalars already resolved (`true`, `8`, `~`): the same few, many times. */
const resolved = new Map<string, unknown>();

/**
 * Short plain strings, one copy each: a manifest repeats the same few (enum words, subgroup
 * paths) 100,000s of times, and each read is a string of its own. Bounded: the first
 * INTERNED distinct ones are kept; past that, the others are left as they are.
 */
const interned = new Map<string, string>();
const INTERNED = 4096;
/**
 * Up to 12 characters: V8 copies a slice that short, while a longer one points into the
 * file's text — kept here, it would keep the whole text alive.
 */
const SHORT = 12;

/** A plain scalar's value as js-yaml's core schema reads it. */
export function plainValue(s: string): unknown {
  if (!NON_STRING_PLAIN.test(s)) {
    if (s.length > SHORT) return s;
    const known = interned.get(s);
    if (known !== undefined) return known;
    if (interned.size < INTERNED) interned.set(s, s);
    return s;
  }
  if (resolved.has(s)) return resolved.get(s);
  const [v] = constructFromEvents(parseEvents(s, {}), { source: s });
  if (resolved.size < 1000) resolved.set(s, v);
  return v;
}

/** Index of the quote closing the one-line quoted scalar opened at `p`; declines otherwise. */
export function quotedEnd(text: string, p: number, le: number): number {
  const q = text[p];
  for (let i = p + 1; i < le; i++) {
    const c = text[i];
    if (c === "\\" && q === '"') decline();
    if (c !== q) continue;
    if (q === "'" && text[i + 1] === "'") {
      i++;
      continue;
    }
    return i;
  }
  return decline();
}

/** Append the quoted scalar from `p` to `end` (its closing quote); its value. */
export function quoted(ctx: LineContext, p: number, end: number): string {
  const style = ctx.text[p] === "'" ? SINGLE_QUOTED : DOUBLE_QUOTED;
  const inner = ctx.text.slice(p + 1, end);
  const fast = style === DOUBLE_QUOTED || !inner.includes("''");
  ctx.out.push(scalarMeta(style, fast), p + 1, end);
  if (fast) return inner;
  const event = { valueStart: p + 1, valueEnd: end, style, fast } as ScalarEvent;
  return getScalarValue(ctx.text, event);
}

/** Append a plain scalar spanning `[start, end)` (trimmed); its value. */
export function plain(ctx: LineContext, start: number, end: number): unknown {
  ctx.out.push(scalarMeta(PLAIN, true), start, end);
  return plainValue(ctx.text.slice(start, end));
}

/** A block mapping key: where its text is (quoted: between the quotes), where its value may start. */
export interface BlockKey {
  /** A plain key's text ("" for a quoted one: its value is decoded when appended). */
  text: string;
  start: number;
  end: number;
  after: number;
}

/** The key at `p` (`name:`, `'a b':`) on a line ending at `le`, if there is one. */
export function blockKey(text: string, p: number, le: number): BlockKey | undefined {
  const c = text[p];
  if (c === "'" || c === '"') {
    const close = quotedEnd(text, p, le);
    let colon = close + 1;
    while (text[colon] === " ") colon++;
    if (text[colon] !== ":" || (colon + 1 < le && text[colon + 1] !== " ")) return undefined;
    return { text: "", start: p, end: close, after: colon + 1 };
  }
  if (blockIndicator(text, p, le)) return undefined;
  for (let i = p; i < le; i++) {
    const ch = text[i];
    if (ch === "#" && text[i - 1] === " ") return undefined;
    if (ch === ":" && (i + 1 === le || text[i + 1] === " ")) {
      let end = i;
      while (text[end - 1] === " ") end--;
      return { text: text.slice(p, end), start: p, end, after: i + 1 };
    }
  }
  return undefined;
}

export const skipSpaces = (text: string, p: number, le: number) => {
  while (p < le && text[p] === " ") p++;
  return p;
};

/**
 * A value on the rest of a line in block context (after `key: ` or `- `): a scalar or a flow
 * collection, then nothing but spaces and a comment. Its value.
 */
export function inlineValue(ctx: LineContext, p: number, le: number): unknown {
  const { text } = ctx;
  const c = text[p];
  let value: unknown;
  let end: number;
  if (c === "'" || c === '"') {
    const close = quotedEnd(text, p, le);
    value = quoted(ctx, p, close);
    end = close + 1;
  } else if (c === "[" || c === "{") {
    [value, end] = flowCollection(ctx, p, le);
  } else {
    if (blockIndicator(text, p, le)) decline();
    end = p;
    while (end < le && !(text[end] === "#" && text[end - 1] === " ")) end++;
    let trimmed = end;
    while (text[trimmed - 1] === " ") trimmed--;
    const s = text.slice(p, trimmed);
    if (s.includes(": ") || s.endsWith(":")) decline();
    return plain(ctx, p, trimmed);
  }
  const rest = skipSpaces(text, end, le);
  if (rest < le && !(text[rest] === "#" && rest > end)) decline();
  return value;
}
