/**
 * `phctl report … --format h`: the report as one self-contained HTML file. A pure
 * function of the report's data (src/report/types.ts) — the sections, tables and charts
 * (inline SVG drawn here, see report-html/charts.ts) are all made from it, never from the
 * API — so the same report renders the same file.
 */
import type { Report } from "../report/types.js";
import { accessBody } from "./report-html/access.js";
import { deliveryBody } from "./report-html/delivery.js";
import { count, instant } from "./report-html/format.js";
import { h } from "./report-html/html.js";
import { page } from "./report-html/page.js";

/** The facts every report states under its title. */
function meta(report: Report): string[] {
  return [
    `generated ${instant(report.generatedAt)}`,
    `service ${report.apiUrl}`,
    `phctl ${report.phctlVersion}`,
    `${count(report.stats.apiCalls)} API calls`,
  ];
}

/** The report as an HTML document. */
export function renderReportHtml(report: Report): string {
  const failed = report.sections.filter((s) => s.status === "failed");
  const partial = failed.length
    ? h`<div class="failed" data-partial>
        <strong>Partial report:</strong> ${failed.length} of ${report.sections.length} sections
        could not be read; each says why where it would be.
      </div>`
    : "";
  if (report.kind === "access") {
    return page({
      title: `Access review: ${report.parentOrganization}, ${report.generatedAt.slice(0, 7)}`,
      meta: [...meta(report), `inactive: ${report.inactiveDays} days without login`],
      nav: [
        ["findings", "Findings"],
        ["overview", "Overview"],
        ...(report.since ? [["since", "Changes"] as [string, string]] : []),
        ["finding-rows", "Finding rows"],
        ["projects", "Projects"],
        ["users", "Users"],
      ],
      body: h`${partial}${accessBody(report)}`,
    });
  }
  const p = report.period;
  return page({
    title: `Delivery metrics: ${report.parentOrganization}, ${p.start} to ${p.end}`,
    meta: [
      ...meta(report),
      `${p.days} days, compared with ${report.previousPeriod.start} to ${report.previousPeriod.end}`,
      `DORA ${report.bands.year} bands`,
    ],
    nav: [
      ["dora", "DORA metrics"],
      ["ci", "CI pipelines"],
      ["usage", "Usage"],
    ],
    body: h`${partial}${deliveryBody(report)}`,
  });
}
