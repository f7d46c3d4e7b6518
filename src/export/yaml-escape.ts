/**
 * Hidden characters (bidi controls, zero-width, control codes: src/visible.ts) in the
 * YAML phctl writes — export's files and drift --adopt's in-place edits. A live value that
 * holds one is written as a double-quoted scalar with a visible escape (`"\u202e"`,
 * `"\U000e0001"` beyond U+FFFF), which every YAML reader reads back as the exact value; a
 * reviewer of the file, or of its diff, sees the escape instead of a reordered line.
 */
import { hasHidden, replaceHidden } from "../visible.js";

const hex = (n: number, digits: number) => n.toString(16).padStart(digits, "0");

/** A hidden character as a YAML escape; line breaks and tabs stay (YAML writes them itself). */
function yamlEscape(c: string): string {
  if (c === "\n" || c === "\t") return c;
  const cp = c.codePointAt(0)!;
  return cp > 0xffff ? `\\U${hex(cp, 8)}` : `\\u${hex(cp, 4)}`;
}

/** Must this string be double-quoted to show its hidden characters? */
export function needsEscapes(s: string): boolean {
  return hasHidden(s.replace(/[\n\t]/g, ""));
}

/**
 * YAML text with its hidden characters escaped: correct where every string that holds one is
 * double-quoted (`needsEscapes`), and in comments.
 */
export function escapeYamlText(text: string): string {
  return replaceHidden(text, yamlEscape);
}

/** `s` as a double-quoted YAML scalar (JSON's escapes are YAML's), hidden characters escaped. */
export function yamlQuoted(s: string): string {
  return escapeYamlText(JSON.stringify(s));
}
