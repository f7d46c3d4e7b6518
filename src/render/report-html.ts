/**
 * PLACEHOLDER (replaced by the HTML renderer with charts): the report as one self-contained
 * HTML document with its tables, no charts, no script, no network request. Pure.
 */
import type { Report } from "../report/types.js";
import { reportTables, reportTitle, sectionOfTable } from "./report-tables.js";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The report as a complete HTML document. */
export function renderReportHtml(report: Report): string {
  const failed = new Map(
    report.sections.filter((s) => s.status === "failed").map((s) => [s.name, s]),
  );
  const parts: string[] = [];
  for (const s of failed.values())
    parts.push(
      `<p class="failed"><strong>${esc(s.title)} could not be read:</strong> ${esc(s.error ?? "")}${s.set?.length ? ` — set ${esc(s.set.join(" or "))}` : ""}</p>`,
    );
  for (const t of reportTables(report)) {
    if (failed.has(sectionOfTable(report, t.name))) continue;
    parts.push(
      `<section id="${esc(t.name)}"><h2>${esc(t.title)}</h2><table><thead><tr>${t.headers.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>${t.rows
        .map((r) => `<tr>${r.map((c) => `<td>${esc(c.text)}</td>`).join("")}</tr>`)
        .join("")}</tbody></table></section>`,
    );
  }
  const title = esc(reportTitle(report));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="color-scheme" content="light dark">
<style>body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{border:1px solid #8884;padding:.2rem .5rem;text-align:left}.failed{color:#b00}</style>
</head><body><h1>${title}</h1>
${parts.join("\n")}
</body></html>
`;
}
