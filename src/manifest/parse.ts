/**
 * YAML text → documents with positions. Plain manifests go through the fast reader
 * (fast-read.ts); every file it declines is read by the `yaml` library (full-read.ts), where
 * duplicate keys are errors, alias expansion is capped and every problem is a diagnostic at
 * file:line:col. Nesting deeper than a manifest can be is one diagnostic by either reader.
 */
import { readFastOrDepth } from "./fast-read.js";
import { readFull, tooDeepDiagnostic } from "./full-read.js";
import type { DocHandle } from "./positions.js";
import type { Diagnostic } from "./types.js";

export { DEFAULT_MAX_ALIAS_COUNT } from "./full-read.js";

/** One YAML document that parsed, as plain data, with its positions. */
export interface ParsedDocument {
  handle: DocHandle;
  value: unknown;
}

export interface ParseOptions {
  maxAliasCount?: number;
  /**
   * `auto` (default): the fast reader (fast-read.ts), and the full one for the files it
   * declines; `full`: the `yaml` library's reader for every file.
   */
  reader?: "auto" | "full";
}

/** Files read by each reader in this process (what tests and benchmarks observe). */
export const readerCounts = { fast: 0, full: 0 };

/** 1-based line and column of a character offset (counted once, for one diagnostic). */
function positionOf(file: string, text: string, offset: number) {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { file, line, column: offset - lineStart + 1 };
}

export function parseYamlText(
  file: string,
  text: string,
  opts: ParseOptions = {},
): { documents: ParsedDocument[]; diagnostics: Diagnostic[]; reader: "fast" | "full" } {
  if (opts.reader !== "full") {
    const fast = readFastOrDepth(file, text);
    if (fast) {
      readerCounts.fast++;
      return "documents" in fast
        ? { documents: fast.documents, diagnostics: [], reader: "fast" }
        : {
            documents: [],
            diagnostics: [tooDeepDiagnostic(positionOf(file, text, fast.tooDeepAt))],
            reader: "fast",
          };
    }
  }
  readerCounts.full++;
  return { ...readFull(file, text, opts), reader: "full" };
}
