/** Building, ordering, counting and formatting diagnostics. */
import type { FieldPath } from "./positions.js";
import type { Diagnostic, Severity, Source } from "./types.js";
import { escapeHiddenLines } from "../visible.js";

export interface DiagnosticExtra {
  kind?: string | undefined;
  name?: string | undefined;
  path?: string | undefined;
  hint?: string | undefined;
}

export function makeDiagnostic(
  severity: Severity,
  code: string,
  at: Source,
  message: string,
  extra: DiagnosticExtra = {},
): Diagnostic {
  const d: Diagnostic = {
    severity,
    code,
    file: at.file,
    line: at.line,
    column: at.column,
    message,
  };
  if (extra.kind !== undefined) d.kind = extra.kind;
  if (extra.name !== undefined) d.name = extra.name;
  if (extra.path !== undefined) d.path = extra.path;
  if (extra.hint !== undefined) d.hint = extra.hint;
  return d;
}

const IDENT = /^[A-Za-z_$][\w$-]*$/;

/** `spec.git.repositories[1].issueTracking`; odd keys as `metadata.annotations["phctl/protect"]`. */
export function formatPath(path: FieldPath): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (IDENT.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** `file:line:col` of a source. */
export const formatSource = (s: Source) => `${s.file}:${s.line}:${s.column}`;

/**
 * One line: `projects/tfa.yaml:41:9 Project trusted-firmware-a: spec.… must be one of …
 * (did you mean issueTracking?)`; warnings say so after the position.
 */
export function formatDiagnostic(d: Diagnostic): string {
  const where = `${d.file}:${d.line}:${d.column}`;
  const severity = d.severity === "warning" ? "warning: " : "";
  const subject = d.kind ? `${d.kind}${d.name ? ` ${d.name}` : ""}: ` : "";
  // A manifest's bidi controls and other hidden characters, visible (src/visible.ts).
  const excerpt = d.excerpt ? `\n${d.excerpt}` : "";
  return escapeHiddenLines(
    `${where} ${severity}${subject}${d.message}${d.hint ? ` (${d.hint})` : ""}${excerpt}`,
  );
}

const FROM_LAYER = "the value comes from Defaults";
/** Objects named on a collapsed line before "and N more". */
const NAMED = 3;

/**
 * For people: the same problem in a layer's value, found in each object the layer selects
 * (a Defaults document over 2,000 projects), is one line naming the layer, how many objects
 * and the first few — not 2,000 lines at the same file:line. Groups of one and diagnostics
 * not from a layer are kept as they are; the order of first appearance is kept. JSON and
 * SARIF keep one entry per object.
 */
export function collapseLayered(ds: readonly Diagnostic[]): Diagnostic[] {
  const groups = new Map<string, Diagnostic[]>();
  const out: (Diagnostic | Diagnostic[])[] = [];
  for (const d of ds) {
    if (d.layer === undefined || d.kind === undefined) {
      out.push(d);
      continue;
    }
    const key = JSON.stringify([d.severity, d.code, d.file, d.line, d.column, d.kind, d.path, d.message, d.layer]); // prettier-ignore
    let g = groups.get(key);
    if (!g) {
      groups.set(key, (g = []));
      out.push(g);
    }
    g.push(d);
  }
  return out.map((g) => {
    if (!Array.isArray(g)) return g;
    const first = g[0];
    if (g.length === 1) return first;
    const names = g.map((d) => d.name ?? "");
    const more = names.length - NAMED;
    const listed = `${names.slice(0, NAMED).join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
    // The hint named the one object the layer was applied to: now it names how many.
    const at = first.hint?.indexOf(FROM_LAYER) ?? -1;
    if (at < 0) return { ...first, name: listed };
    const own = first.hint!.slice(0, at).replace(/; $/, "");
    const from = `${FROM_LAYER} ${first.layer}, applied to ${g.length} ${first.kind}s; fix the layer, or override the field in those objects`;
    return { ...first, name: listed, hint: own ? `${own}; ${from}` : from };
  });
}

/** Deterministic order: file, line, column, then message. */
export function sortDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  return [...ds].sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line ||
      a.column - b.column ||
      (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
}

export interface DiagnosticSummary {
  errors: number;
  warnings: number;
  files: number;
}

export function summarize(ds: readonly Diagnostic[], files: number): DiagnosticSummary {
  const errors = ds.filter((d) => d.severity === "error").length;
  return { errors, warnings: ds.length - errors, files };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** `2 errors, 1 warning in 5 files`. */
export const formatSummary = (s: DiagnosticSummary) =>
  `${plural(s.errors, "error")}, ${plural(s.warnings, "warning")} in ${plural(s.files, "file")}`;
