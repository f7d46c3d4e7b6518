/**
 * Escaping for the pull-request comment. Keys, values and messages come from manifests and
 * live state: they must render as the text they are (a path like `users/a_partner_.yaml`
 * is not italics, `<b>` is not HTML, `@team` mentions nobody), and a code block must never
 * scroll sideways nor be closed early by its content.
 */
import { escapeHidden, visibleText } from "../visible.js";

/** Widest line inside a code block (GitHub shows about 120 columns without scrolling). */
export const CODE_LINE_CAP = 110;

/**
 * Control, bidi, zero-width and other hidden characters and line separators as visible
 * `\uXXXX` (src/visible.ts): every rendered item is one line, and no value can reorder
 * or disguise what a reviewer reads.
 */
export const oneLine: (s: string) => string = escapeHidden;

/** Cut a string to `max` characters (UTF-16 units, as the platforms count), ending with `…`. */
export function shorten(s: string, max: number): string {
  if (s.length <= max) return s;
  let cut = s.slice(0, Math.max(0, max - 1));
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1); // never half a surrogate pair
  return `${cut}…`;
}

/**
 * A long text cut to at most `max` characters where people expect a cut: after the last
 * sentence that fits (when that keeps at least half), else between words; `cut` says
 * whether anything was left out (the caller adds "…" and where the full text is).
 */
export function clipWords(s: string, max: number): { text: string; cut: boolean } {
  if (s.length <= max) return { text: s, cut: false };
  const head = shorten(s, max + 1).slice(0, -1); // never half a surrogate pair
  const half = Math.floor(max / 2);
  let end = -1;
  for (const m of head.matchAll(/[.!?;:](?=\s)/g)) if (m.index >= half) end = m.index + 1;
  if (end < 0) {
    const space = head.search(/\s\S*$/);
    end = space >= half ? space : head.length;
  }
  return { text: head.slice(0, end).trimEnd(), cut: true };
}

/** A line for a code block: one line, at most CODE_LINE_CAP characters. */
export function codeLine(s: string): string {
  return shorten(oneLine(s), CODE_LINE_CAP);
}

function longestBacktickRun(s: string): number {
  let longest = 0;
  for (const m of s.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return longest;
}

/** An inline code span that shows `s` exactly (backticks inside use a longer delimiter). */
export function codeSpan(s: string, inTable = false): string {
  let text = oneLine(s);
  if (inTable) text = text.replace(/\|/g, "\\|");
  const tick = "`".repeat(longestBacktickRun(text) + 1);
  const pad =
    text.startsWith("`") || text.endsWith("`") || (/^ .*[^ ].* $/.test(text) && text.length > 1);
  return pad ? `${tick} ${text} ${tick}` : `${tick}${text}${tick}`;
}

/**
 * A key or name (from live state: raw) in a code span: its backslashes doubled, so a literal
 * `\u202e` never reads as an escaped character (src/visible.ts).
 */
export function keySpan(key: string): string {
  return codeSpan(visibleText(key));
}

/** Plain text in markdown: punctuation that could format, link, mention or open HTML escaped. */
export function mdText(s: string): string {
  return oneLine(s).replace(/[\\`*_[\]<>&|~@#!]/g, (c) => `\\${c}`);
}

/** Text inside HTML (`<summary>`): markdown is not processed there, HTML is. */
export function htmlText(s: string): string {
  return oneLine(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A fenced code block whose fence no content line can close. */
export function fenced(lang: string, lines: readonly string[]): string {
  const fence = "`".repeat(Math.max(3, longestBacktickRun(lines.join("\n")) + 1));
  return `${fence}${lang}\n${lines.join("\n")}\n${fence}`;
}

/** `http://x/y (z)` → a link target markdown cannot misread. */
export function linkTarget(url: string): string {
  return oneLine(url).replace(
    /[\s()<>[\]\\`]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`,
  );
}

/** `1` → `1 ticket`, `2` → `2 tickets` (style.ts's, for the markdown modules). */
export { plural } from "./style.js";
