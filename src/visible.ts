/**
 * Characters that hide or disguise text, made visible wherever a value is shown to a person.
 * A live name or description may hold bidirectional controls (U+202E RIGHT-TO-LEFT OVERRIDE
 * reorders the rest of a reviewed line: "Trojan Source", CVE-2021-42574), zero-width
 * characters (two names that look alike), line separators or terminal control codes. Every
 * such character is written as JSON writes an escape: `\u202e` (four lowercase hex digits; a
 * character beyond U+FFFF as its two surrogates, `\udb40\udc01`), so a quoted value in a
 * plan stays a JSON string that reads back as the exact value.
 *
 * Which: control characters (Unicode category Cc: C0, DEL, C1), format characters (Cf: the
 * bidi controls U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069, the zero-width U+200B–U+200D,
 * U+2060–U+2064, U+FEFF, U+00AD …), U+2028/U+2029 and lone surrogates. Left alone: a zero-width
 * joiner between two emoji (👩‍💻 is one picture) and the tags of a subdivision flag (🏴 England),
 * whose invisible parts only ever draw an emoji; every letter of every script. (A U+200C inside
 * a Persian word is shown escaped too: harmless there, but it can disguise a Latin name.)
 */

/** An emoji, with its skin-tone modifier or emoji presentation selector. */
const EMOJI = String.raw`\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|\uFE0F)?`;
const SHOWN = new RegExp(
  [
    // Kept as they are: emoji joined by U+200D, a flag's tag sequence.
    `(${EMOJI}(?:\\u200D${EMOJI})+|\\u{1F3F4}[\\u{E0020}-\\u{E007E}]+\\u{E007F})`,
    // Escaped: control, format, line and paragraph separators, lone surrogates.
    `[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Cs}]`,
  ].join("|"),
  "gu",
);

const hex4 = (n: number) => `\\u${n.toString(16).padStart(4, "0")}`;

/** `\u202e`; a code point beyond U+FFFF as its two UTF-16 halves, as JSON writes them. */
function escapeOf(c: string): string {
  let out = "";
  for (let i = 0; i < c.length; i++) out += hex4(c.charCodeAt(i));
  return out;
}

/**
 * `s` with every hidden character (one code point, or half of a broken pair) replaced by
 * `show(c)`: the escaping of each output (YAML writes `\U000e0001` where JSON writes halves).
 */
export function replaceHidden(s: string, show: (c: string) => string): string {
  return s.replace(SHOWN, (c, kept: string | undefined) => kept ?? show(c));
}

/** Does `s` hold a hidden character? */
export function hasHidden(s: string): boolean {
  for (const m of s.matchAll(SHOWN)) if (m[1] === undefined) return true;
  return false;
}

/**
 * Text with every hidden character escaped (see the top of this file). For text whose
 * values are already quoted (`"a\\u"` in JSON) or that comes from phctl itself: it leaves
 * backslashes alone, and applying it twice changes nothing.
 */
export function escapeHidden(s: string): string {
  return replaceHidden(s, escapeOf);
}

/**
 * The same, keeping line breaks: messages phctl writes over several lines (the values they
 * quote are JSON, whose line breaks are `\n` already).
 */
export function escapeHiddenLines(s: string): string {
  return s.split("\n").map(escapeHidden).join("\n");
}

/**
 * A raw string shown without quotes (a key, a name): every backslash doubled, then the hidden
 * characters escaped, so a name that holds the six characters `\u202e` (shown `\\u202e`) never
 * reads as one that holds U+202E (shown `\u202e`).
 */
export function visibleText(s: string): string {
  return escapeHidden(s.replace(/\\/g, "\\\\"));
}

/** A value as JSON with the hidden characters escaped: still JSON, the same value when parsed. */
export function visibleJson(v: unknown): string {
  return escapeHidden(JSON.stringify(v));
}

/**
 * JSON text (JSON.stringify's, indented or not) with the hidden characters of its strings
 * escaped: the same JSON value for every reader, and safe to show (`cat plan.json`, a CI log).
 * A raw line break in JSON.stringify's text is one of its own, never part of a string.
 */
export function escapeJsonText(json: string): string {
  return replaceHidden(json, (c) => (c === "\n" ? c : escapeOf(c)));
}
