/** Hidden characters for the tests of their escaping (src/visible.ts). */

/** RLO, RLI, RLM, ALM: a reordering override, an isolate and two marks ("Trojan Source"). */
export const EVIL = "\u202e\u2067\u200f\u061c";

/** EVIL as people must see it. */
export const SHOWN = "\\u202e\\u2067\\u200f\\u061c";

/** A character that must never reach a person raw (a newline between lines may). */
export const RAW =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2069\ufeff\u{E0000}-\u{E007F}]/u;

/** Where `text` holds a raw hidden character, for an assertion message; "" when none. */
export function rawAt(text: string): string {
  const m = RAW.exec(text);
  if (!m) return "";
  return `raw U+${m[0].codePointAt(0)!.toString(16).toUpperCase()} at ${m.index}: ${JSON.stringify(text.slice(Math.max(0, m.index - 60), m.index + 20))}`;
}
