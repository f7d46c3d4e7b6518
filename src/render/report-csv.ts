/**
 * The report as CSV: one file per table (report-tables.ts), named `<table>.csv`, with a
 * header row, raw values (numbers as numbers, durations in seconds, rates 0..1, empty for
 * no data) and RFC 4180 quoting. A cell that a spreadsheet would run as a formula (starting
 * with = + - @, tab or carriage return) is prefixed with a single quote. Pure.
 */
import type { Report } from "../report/types.js";
import { reportTables, sectionOfTable, type Cell } from "./report-tables.js";

const FORMULA = /^[=+\-@\t\r]/;

function field(c: Cell): string {
  const v = c.raw;
  if (v === null) return "";
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  const s = FORMULA.test(v) ? `'${v}` : v;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const header = (h: string) => (/[",\n\r]/.test(h) ? `"${h.replace(/"/g, '""')}"` : h);

/** Every table of the report as CSV text, by file name (`findings.csv`, `access.csv`…). */
export function renderReportCsv(r: Report): Map<string, string> {
  const failed = new Set(r.sections.filter((s) => s.status === "failed").map((s) => s.name));
  const out = new Map<string, string>();
  for (const t of reportTables(r)) {
    if (failed.has(sectionOfTable(r, t.name))) continue;
    const lines = [
      t.headers.map(header).join(","),
      ...t.rows.map((row) => row.map(field).join(",")),
    ];
    out.set(`${t.name}.csv`, `${lines.join("\r\n")}\r\n`);
  }
  return out;
}
