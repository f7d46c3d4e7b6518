/**
 * The report as markdown, for a CI job summary or an issue: the title, what was read and
 * what failed (with what to set), then every table. It fits in 65,536 characters (GitHub's
 * limit for a step summary and an issue body), and every table gets its own share of them:
 * a table that fits in an equal share of what the smaller ones leave is shown whole, the
 * larger ones split the rest, each cut between whole rows (at least one shown) with a line
 * saying how many rows were left out and that the HTML, CSV and JSON formats have them all.
 * A table marked `whole` (the DORA band legend the other tables are read with) is never
 * cut. Pure.
 */
import type { Report } from "../report/types.js";
import { mdText } from "./markdown-escape.js";
import { reportTables, reportTitle, sectionOfTable, type ReportTable } from "./report-tables.js";
import { formatCount, plural } from "./style.js";

/** GitHub's limit for a job summary and an issue body. */
export const MARKDOWN_LIMIT = 65_536;

/** Kept free for the last resort's line (a head that alone overflows). */
const SLACK = 120;

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

/** A table as markdown lines: what comes before the rows, and the rows. */
interface Laid {
  table: ReportTable;
  top: string;
  rows: string[];
  /** The table with every row, and the newline after it. */
  full: string;
}

function lay(t: ReportTable): Laid {
  const top = [`### ${mdText(t.title)}`, ""];
  if (t.note) top.push(`> ${mdText(t.note)}`, "");
  if (t.rows.length === 0) {
    const text = [...top, ...(t.note ? [] : ["None.", ""])].join("\n");
    return { table: t, top: text, rows: [], full: `${text}\n` };
  }
  const headers = t.compact?.headers ?? t.headers;
  top.push(line(headers), `|${headers.map(() => " --- ").join("|")}|`);
  const rows = t.compact
    ? t.compact.rows.map((r) => line(r))
    : t.rows.map((r) => line(r.map((c) => c.text)));
  return { table: t, top: top.join("\n"), rows, full: `${[top.join("\n"), ...rows, ""].join("\n")}\n` }; // prettier-ignore
}

/** What a cut table says under its rows: how many are left out, and where they all are. */
const cutNote = (t: ReportTable, kept: number, total: number) =>
  `\n_${plural(total - kept, "more row")} not shown (${formatCount(kept)} of ${formatCount(total)} here): the HTML, CSV (\`${t.name}.csv\`) and JSON formats have them all._\n`;

/** The table in at most `budget` characters, cut between whole rows; at least one row. */
function fit(l: Laid, budget: number): string {
  if (l.full.length <= budget || l.rows.length === 0) return l.full;
  // The note with the most digits it can have: the rows kept never make it longer.
  let used = l.top.length + 1 + cutNote(l.table, l.rows.length, l.rows.length).length + 1;
  let kept = 0;
  while (kept < l.rows.length && (kept === 0 || used + l.rows[kept].length + 1 <= budget))
    used += l.rows[kept++].length + 1;
  return `${[l.top, ...l.rows.slice(0, kept)].join("\n")}\n${cutNote(l.table, kept, l.rows.length)}\n`; // prettier-ignore
}

/**
 * Each table's text within `budget` characters in all: the `whole` ones in full, the others
 * smallest first, each in at most an equal share of what is left (what a table does not use
 * goes to the larger ones after it).
 */
function share(laid: readonly Laid[], budget: number): string[] {
  const texts = laid.map((l) => l.full);
  let left = budget - laid.filter((l) => l.table.whole).reduce((n, l) => n + l.full.length, 0);
  const order = laid
    .map((l, i) => ({ l, i }))
    .filter(({ l }) => !l.table.whole)
    .sort((a, b) => a.l.full.length - b.l.full.length);
  order.forEach(({ l, i }, k) => {
    texts[i] = fit(l, Math.floor(left / (order.length - k)));
    left -= texts[i].length;
  });
  return texts;
}

/** The report as markdown, at most `limit` characters. */
export function renderReportMarkdown(r: Report, limit = MARKDOWN_LIMIT): string {
  const failed = new Set(r.sections.filter((s) => s.status === "failed").map((s) => s.name));
  const tables = reportTables(r).filter((t) => !failed.has(sectionOfTable(r, t.name)));
  const top = `${head(r).join("\n")}\n`;
  const laid = tables.map(lay);
  const whole = top.length + laid.reduce((n, l) => n + l.full.length, 0);
  const out =
    whole <= limit ? top + laid.map((l) => l.full).join("") : top + share(laid, limit - top.length - SLACK).join(""); // prettier-ignore
  return out.length <= limit
    ? out
    : `${out.slice(0, out.lastIndexOf("\n|", limit - 80))}\n\n_Cut to fit ${limit} characters._\n`;
}
