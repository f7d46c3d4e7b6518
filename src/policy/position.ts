/**
 * Where in a manifest an offset of a CEL expression is: the YAML scalar's position plus the
 * offset, read through the scalar's style (plain or quoted on one line; `|` / `>` blocks on
 * the lines below) — and the caret excerpt shown under the diagnostic.
 */
import { readFileSync } from "node:fs";
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

/**
 * The position of `offset` in `expression`, whose YAML value starts at `at`. Without the
 * file's text, the expression is taken to start at `at` on one line.
 */
export function locateOffset(
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
