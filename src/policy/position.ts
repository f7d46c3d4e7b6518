/**
 * Where in a manifest an offset of a CEL expression is: the YAML scalar's position plus the
 * offset, read through the scalar's style (plain or quoted on one line; `|` / `>` blocks on
 * the lines below) — and the caret excerpt shown under the diagnostic.
 */
import { readFileSync } from "node:fs";
import { scalarSourceOffset } from "../manifest/scalar-source.js";
import type { Source } from "../manifest/types.js";

/** A file's text by its shown name (relative to the current directory), when readable. */
export type TextOf = (file: string) => string | undefined;

/** Reads the file from disk (relative to `cwd`); undefined when it cannot. */
export const diskText =
  (cwd = process.cwd()): TextOf =>
  (file) => {
    try {
      return readFileSync(`${cwd}/${file}`, "utf8");
    } catch {
      return undefined;
    }
  };

/** The last text whose line starts were asked for, and those (errors come a file at a time). */
let starts: { text: string; at: number[] } | undefined;
function lineStarts(text: string): number[] {
  if (starts?.text === text) return starts.at;
  const at = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) at.push(i + 1);
  starts = { text, at };
  return at;
}

/**
 * The position of `offset` in `expression`, whose YAML value starts at `at`: read through the
 * scalar's source (escapes, folded lines; manifest/scalar-source.ts). Without the file's text,
 * or when its text there is not the expression, the expression is taken to start at `at` on
 * one line (or, for `|` / `>`, on the lines below).
 */
export function locateOffset(
  at: Source,
  expression: string,
  offset: number,
  text: string | undefined,
): Source {
  if (text !== undefined) {
    const lines = lineStarts(text);
    const start = (lines[at.line - 1] ?? text.length) + at.column - 1;
    const found = scalarSourceOffset(text, start, expression, offset);
    if (found !== undefined) {
      let lo = at.line - 1;
      while (lo + 1 < lines.length && lines[lo + 1] <= found) lo++;
      return { file: at.file, line: lo + 1, column: found - lines[lo] + 1 };
    }
  }
  return approximate(at, expression, offset, text);
}

/** The position of `offset` counted as if the value were the source (no escapes or folding). */
function approximate(
  at: Source,
  expression: string,
  offset: number,
  text: string | undefined,
): Source {
  const before = expression.slice(0, offset);
  const nl = before.lastIndexOf("\n");
  const lineIndex = before.split("\n").length - 1;
  const lines = text?.split("\n");
  const first = lines?.[at.line - 1]?.slice(at.column - 1) ?? "";
  if (lines && /^[|>]/.test(first)) {
    // A block scalar: the content starts on the next line at its indentation.
    const content = lines.slice(at.line).find((l) => l.trim() !== "") ?? "";
    const indent = content.length - content.trimStart().length;
    const index = lines.slice(at.line).indexOf(content);
    return {
      file: at.file,
      line: at.line + 1 + index + lineIndex,
      column: indent + 1 + (offset - nl - 1),
    };
  }
  const quoted = /^["']/.test(first) ? 1 : 0;
  if (lineIndex === 0) return { file: at.file, line: at.line, column: at.column + quoted + offset };
  return { file: at.file, line: at.line + lineIndex, column: 1 + (offset - nl - 1) };
}

/** The expression's line holding `offset`, and a caret under it (two lines, indented). */
export function caret(expression: string, offset: number, length = 1): string {
  const start = expression.lastIndexOf("\n", offset - 1) + 1;
  const endAt = expression.indexOf("\n", offset);
  let line = expression.slice(start, endAt === -1 ? undefined : endAt);
  let col = offset - start;
  // A window around the offset: an expression of a megabyte is never echoed whole.
  if (line.length > 2 * WINDOW) {
    const from = Math.max(0, col - WINDOW);
    const to = Math.min(line.length, col + WINDOW);
    const lead = from > 0 ? "…" : "";
    line = `${lead}${line.slice(from, to)}${to < line.length ? "…" : ""}`;
    col = col - from + lead.length;
  }
  const width = Math.max(1, Math.min(length, line.length - col));
  return `    ${line}\n    ${" ".repeat(col)}${"^".repeat(width)}`;
}

/** Characters of an expression shown on each side of an error's offset. */
const WINDOW = 60;

/**
 * A message with every long run cut (to 80 characters) and the whole kept under 500: CEL's and
 * RE2's messages quote the key, variable or pattern they stumbled on, which may be a megabyte.
 */
export function clipMessage(message: string): string {
  const cut = message.replace(/\S{81,}/g, (w) => `${w.slice(0, 79)}…`);
  return cut.length > 500 ? `${cut.slice(0, 499)}…` : cut;
}
