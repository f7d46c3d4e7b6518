/**
 * `report access --since previous.json`: what changed since an earlier review — access
 * granted and revoked (rows by principal, project, level and how held) and, per finding,
 * the rows that are new and those resolved. Pure: the CLI reads the file; `parsePrevious`
 * checks it is an access report of this format, with one line naming the file otherwise.
 */
import { userError } from "../errors.js";
import { findingRowKey } from "./findings.js";
import type { AccessChanges, AccessReport, AccessRow, Finding } from "./types.js";
import { REPORT_FORMAT_VERSION } from "./types.js";

/** The part of an earlier report `--since` compares. */
export type PreviousReview = Pick<AccessReport, "generatedAt" | "rows" | "findings">;

const rowKey = (r: AccessRow) =>
  `${r.principalKind}|${r.principal}|${r.project}|${r.level}|${r.via.kind}|${r.via.team ?? ""}`;

/** The earlier report in `text` (the file `name`), or a one-line error naming it. */
export function parsePrevious(name: string, text: string): PreviousReview {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw userError(
      "BAD_SINCE",
      `--since ${name} is not JSON: give the output of phctl report access --format json`,
    );
  }
  const d = doc as Partial<AccessReport> | null;
  const ok =
    d !== null &&
    typeof d === "object" &&
    d.kind === "access" &&
    typeof d.generatedAt === "string" &&
    Array.isArray(d.rows) &&
    Array.isArray(d.findings) &&
    d.rows.every((r) => typeof r?.principal === "string" && typeof r?.project === "string") &&
    d.findings.every((f) => typeof f?.id === "string" && Array.isArray(f?.rows));
  if (!ok)
    throw userError(
      "BAD_SINCE",
      `--since ${name} is not an access report: give the output of phctl report access --format json`,
    );
  if (d.formatVersion !== REPORT_FORMAT_VERSION)
    throw userError(
      "BAD_SINCE",
      `--since ${name} has report format ${String(d.formatVersion)}; this phctl reads format ${REPORT_FORMAT_VERSION}`,
    );
  return { generatedAt: d.generatedAt!, rows: d.rows!, findings: d.findings! };
}

/** Rows of `a`'s findings whose key `b` does not have, per finding (only findings with rows). */
function findingsMinus(a: readonly Finding[], b: readonly Finding[]): Finding[] {
  const other = new Map(b.map((f) => [f.id, new Set(f.rows.map((r) => findingRowKey(f.id, r)))]));
  return a.flatMap((f) => {
    const known = other.get(f.id) ?? new Set<string>();
    const rows = f.rows.filter((r) => !known.has(findingRowKey(f.id, r)));
    return rows.length > 0 ? [{ ...f, count: rows.length, rows }] : [];
  });
}

/** What changed between an earlier review and this one. */
export function accessChanges(
  previous: PreviousReview,
  current: Pick<AccessReport, "rows" | "findings">,
): AccessChanges {
  const before = new Set(previous.rows.map(rowKey));
  const now = new Set(current.rows.map(rowKey));
  return {
    previousGeneratedAt: previous.generatedAt,
    granted: current.rows.filter((r) => !before.has(rowKey(r))),
    revoked: previous.rows.filter((r) => !now.has(rowKey(r))),
    newFindings: findingsMinus(current.findings, previous.findings),
    resolvedFindings: findingsMinus(previous.findings, current.findings),
  };
}
