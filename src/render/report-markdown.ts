/**
 * The report as markdown, for a CI job summary or an issue: the title, what was read and
 * what failed (with what to set), then every table. It fits in 65,536 characters (GitHub's
 * limit for a step summary and an issue body): a table that does not fit is cut between
 * whole rows and says how many rows were left out and where to find them all. Pure.
 */
import type { Report } from "../report/types.js";
import { mdText } from "./markdown-escape.js";
import { reportTables, reportTitle, sectionOfTable, type ReportTable } from "./report-tables.js";
import { plural } from "./style.js";

/** GitHub's limit for a job summary and an issue body. */
export const MARKDOWN_LIMIT = 65_536;

const cell = (s: string) => (s === "" ? " " : mdText(s).replace(/\n/g, " "));
const line = (cells: readonly string[]) => `| ${cells.map(cell).join(" | ")} |`;

function head(r: Report): string[] {
  const out = [`## ${mdText(reportTitle(r))}`, ""];
  const when = `${r.generatedAt.slice(0, 16).replace("T", " ")} UTC`;
  const extra =
    r.kind === "access"
      ? ` · inactive after ${r.inactiveDays} days`
      : ` · bands of the DORA report ${r.bands.year} · previous period ${r.previousPeriod.start} to ${r.previousPeriod.end}`;
  out.push(`Made ${when} by phctl ${r.phctlVersion} from ${mdText(r.apiUrl)}${extra}.`, "");
  for (const s of r.sections.filter((x) => x.status === "failed"))
    out.push(
      `> **${mdText(s.title)} could not be read:** ${mdText(s.error ?? "")}${s.set?.length ? ` — set ${s.set.map((x) => `\`${x}\``).join(" or ")}` : ""}${s.next ? ` — ${mdText(s.next)}` : ""}`,
      "",
    );
  return out;
}

/** A table with as many whole rows as fit in `budget` (at least its header and the cut note). */
function table(t: ReportTable, budget: number, emptyNote: string): string {
  const top = [`### ${mdText(t.title)}`, ""];
  if (t.note) top.push(`> ${mdText(t.note)}`, "");
  if (t.rows.length === 0) return [...top, ...(t.note ? [] : [emptyNote, ""])].join("\n");
  const headers = t.compact?.headers ?? t.headers;
  top.push(line(headers), `|${headers.map(() => " --- ").join("|")}|`);
  const rows = t.compact
    ? t.compact.rows.map((r) => line(r))
    : t.rows.map((r) => line(r.map((c) => c.text)));
  const full = [...top, ...rows, ""].join("\n");
  if (full.length <= budget) return full;
  const note = (left: number) =>
    `\n_${plural(left, "more row")} not shown: the CSV or JSON format has them all._\n`;
  let used = top.join("\n").length + note(rows.length).length;
  let kept = 0;
  while (kept < rows.length && used + rows[kept].length + 1 <= budget)
    used += rows[kept++].length + 1;
  return [...top, ...rows.slice(0, kept)].join("\n") + "\n" + note(rows.length - kept);
}

/** The smallest a table can be: its title and the cut note. */
const minimum = (t: ReportTable) =>
  t.title.length + (t.note?.length ?? 0) + t.headers.join(" | ").length * 2 + 120;

/** The report as markdown, at most `limit` characters. */
export function renderReportMarkdown(r: Report, limit = MARKDOWN_LIMIT): string {
  const failed = new Set(r.sections.filter((s) => s.status === "failed").map((s) => s.name));
  const tables = reportTables(r).filter((t) => !failed.has(sectionOfTable(r, t.name)));
  let out = head(r).join("\n") + "\n";
  let reserve = tables.reduce((n, t) => n + minimum(t), 0);
  for (const t of tables) {
    reserve -= minimum(t);
    const text = table(t, Math.max(minimum(t), limit - out.length - reserve), "None.");
    out += `${text}\n`;
  }
  return out.length <= limit
    ? out
    : `${out.slice(0, out.lastIndexOf("\n|", limit - 80))}\n\n_Cut to fit ${limit} characters._\n`;
}
