/**
 * The report as tables: what the markdown, CSV and (placeholder) HTML renderers show. Each
 * table has a file-safe name (the CSV file is `<name>.csv`), a title, and per column a
 * header and, per row, the raw value (CSV: numbers as numbers, seconds, 0..1 ratios, empty
 * for no data) and the text people read ("no data", `2 h 05 min`, `12.5%`, the band).
 * Pure: a function of the report data.
 */
import type { DeliveryReport, DoraMetric, Report } from "../report/types.js";
import {
  humanSeconds,
  n,
  NO_DATA,
  pct,
  percent,
  sec,
  t,
  type ReportTable,
} from "./report-cells.js";
import { accessTables } from "./report-tables-access.js";

export {
  humanSeconds,
  NO_DATA,
  percent,
  UNKNOWN,
  type Cell,
  type ReportTable,
} from "./report-cells.js";
export { findingCount, sinceText, unknownNote, unknownWords } from "./report-tables-access.js";

/** A DORA metric's value for people. */
export function doraText(m: DoraMetric): string {
  if (m.value === null) return NO_DATA;
  switch (m.unit) {
    case "per-day":
      return `${Math.round(m.value * 100) / 100}/day`;
    case "seconds":
      return humanSeconds(m.value);
    case "ratio":
      return percent(m.value);
  }
}

const METRIC_TITLES = [
  "Deployment frequency",
  "Lead time",
  "Time to restore",
  "Change failure rate",
];

function doraTable(
  name: string,
  title: string,
  scopes: DeliveryReport["dora"]["projects"],
): ReportTable {
  return {
    name,
    title,
    headers: [
      "Name",
      "Organization",
      "Deployments",
      ...METRIC_TITLES.flatMap((m) => [m, `${m} band`, `${m} previous`]),
    ],
    rows: scopes.map((s) => [
      t(s.name),
      t(s.organization),
      n(s.deployments),
      ...s.metrics.flatMap((m) => [
        { raw: m.value, text: doraText(m) },
        t(m.band),
        { raw: m.previous, text: doraText({ ...m, value: m.previous }) },
      ]),
    ]),
    compact: {
      headers: ["Name", "Deployments", ...METRIC_TITLES],
      rows: scopes.map((s) => [
        s.name,
        String(s.deployments),
        ...s.metrics.map(
          (m) =>
            `${doraText(m)}${m.band ? ` (${m.band})` : ""}${m.previous !== null ? `, was ${doraText({ ...m, value: m.previous })}` : ""}`,
        ),
      ]),
    },
  };
}

function ciTable(name: string, title: string, rows: DeliveryReport["ci"]["projects"]): ReportTable {
  return {
    name,
    title,
    headers: [
      "Name",
      "Organization",
      "Pipelines",
      "Per day",
      "Success rate",
      "Median duration",
      "p95 duration",
      "Previous pipelines",
      "Previous success rate",
    ],
    rows: rows.map((c) => [
      t(c.name),
      t(c.organization),
      n(c.pipelines),
      n(c.perDay),
      pct(c.successRate),
      sec(c.medianDuration),
      sec(c.p95Duration),
      n(c.previousPipelines),
      pct(c.previousSuccessRate),
    ]),
  };
}

/** What a change failure rate is, in one line (older reports do not say: nothing then). */
export function failureRateNote(r: DeliveryReport): string | undefined {
  const d = r.dora.definitions?.find((x) => x.metric === "change_failure_rate");
  return d && `Change failure rate: ${d.project}; per organization, ${d.organization}.`;
}

/** How each metric is computed (older reports do not say: no table then). */
function definitionsTable(r: DeliveryReport): ReportTable[] {
  const defs = r.dora.definitions ?? [];
  if (defs.length === 0) return [];
  return [
    {
      name: "dora-definitions",
      title: "How the DORA figures are computed",
      headers: ["Metric", "Project", "Organization"],
      rows: defs.map((d) => [t(d.metric), t(d.project), t(d.organization)]),
    },
  ];
}

function deliveryTables(r: DeliveryReport): ReportTable[] {
  const note = failureRateNote(r);
  return [
    {
      ...doraTable(
        "dora-organizations",
        `DORA metrics per organization (bands: ${r.bands.year})`,
        r.dora.organizations,
      ),
      ...(note ? { note } : {}),
    },
    doraTable(
      "dora-projects",
      `DORA metrics per project (bands: ${r.bands.year})`,
      r.dora.projects,
    ),
    ...definitionsTable(r),
    {
      name: "dora-bands",
      title: `DORA bands (${r.bands.source})`,
      whole: true,
      headers: ["Metric", "Elite", "High", "Medium", "Low"],
      rows: r.bands.table.map((b) => [t(b.metric), t(b.elite), t(b.high), t(b.medium), t(b.low)]),
    },
    ciTable("ci-organizations", "CI per organization", r.ci.organizations),
    ciTable("ci-projects", "CI per project", r.ci.projects),
    {
      name: "ci-daily",
      title: "Pipelines per day",
      headers: ["Date", "Pipelines", "Successful", "Failed", "Median duration"],
      rows: r.ci.daily.map((d) => [
        t(d.date),
        n(d.pipelines),
        n(d.successful),
        n(d.failed),
        sec(d.medianDuration),
      ]),
    },
    {
      name: "usage",
      title: "Users per organization and service",
      headers: ["Organization", "Users", "Git", "Artifact service"],
      rows: r.usage.organizations.map((u) => [
        t(u.organization),
        n(u.users),
        n(u.services.git ?? null),
        n(u.services.artifactservice ?? null),
      ]),
    },
  ];
}

/** Every table of the report, in the order people read them. */
export function reportTables(r: Report): ReportTable[] {
  return r.kind === "access" ? accessTables(r) : deliveryTables(r);
}

/**
 * Which section a table belongs to (a failed section is shown instead of its tables). Every
 * access table is the access read's: a user whose last login is unknown says "unknown".
 */
export function sectionOfTable(r: Report, name: string): string {
  if (r.kind === "access") return "access";
  if (name === "dora-bands") return "bands";
  if (name.startsWith("dora")) return "dora";
  if (name.startsWith("ci")) return "ci";
  return "usage";
}

/** The report's title line. */
export function reportTitle(r: Report): string {
  return r.kind === "access"
    ? `Access review of ${r.parentOrganization}`
    : `Delivery metrics of ${r.parentOrganization}, ${r.period.start} to ${r.period.end}`;
}
