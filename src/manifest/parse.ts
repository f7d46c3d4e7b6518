/**
 * YAML text → documents with positions. Plain manifests go through the fast reader
 * (fast-read.ts); every file it declines is read here by the `yaml` library (the full
 * reader), where duplicate keys are errors, alias expansion is capped (an alias bomb fails
 * fast), and every problem is a diagnostic at file:line:col.
 */
import { LineCounter, parseAllDocuments } from "yaml";
import { makeDiagnostic } from "./diagnostics.js";
import { readFast } from "./fast-read.js";
import { YamlDocHandle, type DocHandle } from "./positions.js";
import type { Diagnostic } from "./types.js";

export const DEFAULT_MAX_ALIAS_COUNT = 100;

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

export function parseYamlText(
  file: string,
  text: string,
  opts: ParseOptions = {},
): { documents: ParsedDocument[]; diagnostics: Diagnostic[] } {
  if (opts.reader !== "full") {
    const documents = readFast(file, text);
    if (documents) return { documents, diagnostics: [] };
  }
  const lines = new LineCounter();
  const parsed = parseAllDocuments(text, {
    lineCounter: lines,
    prettyErrors: false,
    uniqueKeys: true,
    // Problems become diagnostics; the library must not print process warnings of its own.
    logLevel: "error",
    // `<<: *defaults` merge keys (YAML 1.1, widely used to share repository settings).
    merge: true,
  });
  const documents: ParsedDocument[] = [];
  const diagnostics: Diagnostic[] = [];
  if (parsed.length === 0) {
    // An empty stream (nothing but comments or whitespace) still carries its errors.
    const start = { file, line: 1, column: 1 };
    const errors = "errors" in parsed ? (parsed.errors as { message: string }[]) : [];
    for (const e of errors)
      diagnostics.push(makeDiagnostic("error", "yaml-syntax", start, `invalid YAML: ${e.message}`));
    if (errors.length === 0)
      diagnostics.push(
        makeDiagnostic("warning", "empty-file", start, "file has no YAML documents (ignored)"),
      );
    return { documents, diagnostics };
  }
  for (const doc of parsed) {
    const handle = new YamlDocHandle(file, doc, lines);
    for (const e of doc.errors) {
      const at = handle.sourceAt(e.pos[0]);
      if (e.code === "DUPLICATE_KEY") {
        const key = /^("[^"\n]*"|'[^'\n]*'|[^:\n]+?)\s*:/.exec(text.slice(e.pos[0]))?.[1] ?? "";
        diagnostics.push(
          makeDiagnostic(
            "error",
            "duplicate-key",
            at,
            `duplicate key ${key || "in mapping"}: keys must be unique within a mapping`,
          ),
        );
      } else {
        diagnostics.push(makeDiagnostic("error", "yaml-syntax", at, `invalid YAML: ${e.message}`));
      }
    }
    for (const w of doc.warnings)
      diagnostics.push(
        makeDiagnostic("warning", "yaml-warning", handle.sourceAt(w.pos[0]), `YAML: ${w.message}`),
      );
    if (doc.errors.length > 0) continue;
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: opts.maxAliasCount ?? DEFAULT_MAX_ALIAS_COUNT });
    } catch (e) {
      const excessive = e instanceof ReferenceError && /alias/i.test(e.message);
      diagnostics.push(
        excessive
          ? makeDiagnostic(
              "error",
              "alias-limit",
              handle.start,
              `aliases expand too much (more than ${opts.maxAliasCount ?? DEFAULT_MAX_ALIAS_COUNT} expansions); refusing a possible alias bomb`,
            )
          : makeDiagnostic(
              "error",
              "yaml-syntax",
              handle.start,
              `invalid YAML: ${(e as Error).message}`,
            ),
      );
      continue;
    }
    documents.push({ handle, value });
  }
  return { documents, diagnostics };
}
