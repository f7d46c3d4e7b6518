/**
 * The delivery report's body. The first screen is the decision: DORA's four metrics per
 * organization with their bands and change, how many projects sit in each band per metric,
 * and the worst projects. Then the charts; then every project, worst first (never
 * alphabetically), each with an anchor (`#project-…`), folded when long. CI health and
 * usage follow, charts before tables.
 */
import type {
  Band,
  CiStats,
  DeliveryReport,
  DoraDefinition,
  DoraMetric,
  DoraMetricName,
  DoraScope,
} from "../../report/types.js";
import { DORA_METRICS } from "../../report/types.js";
import {
  doraChart,
  durationChart,
  pipelinesChart,
  reliabilityChart,
  slowestChart,
  successRateChart,
  usageChart,
} from "./delivery-charts.js";
import { badge, count, duration, orNoData, percent, perDay, signed } from "./format.js";
import { doraText, failureRateNote } from "../report-tables.js";
import { linkTo, projectId } from "./anchors.js";
import {
  FOLD_ROWS,
  fold,
  h,
  notPrinted,
  table,
  type Column,
  type Html,
  type Part,
} from "./html.js";
import { section } from "./sections.js";

/** A metric's value in its own unit. */
const SHOW: Record<DoraMetricName, (v: number) => string> = {
  deployment_frequency: perDay,
  lead_time_for_changes: duration,
  time_to_restore_service: duration,
  change_failure_rate: percent,
};
const SHORT: Record<DoraMetricName, string> = {
  deployment_frequency: "Deployment frequency",
  lead_time_for_changes: "Lead time (median)",
  time_to_restore_service: "Time to restore (median)",
  change_failure_rate: "Change failure rate",
};

/** A metric's cell: value, band, and the change from the previous period. */
function metricCell(m: DoraMetric | undefined): Html | string {
  if (!m || m.value === null) return orNoData(null, String);
  const show = SHOW[m.metric];
  const change = m.change === null ? "" : h`<br><small>${signed(m.change, show)} vs previous</small>`; // prettier-ignore
  return h`${doraText(m)} ${badge(m.band)}${change}`;
}

/** Worst projects shown on the first screen. */
export const WORST_PROJECTS = 5;

const BAND_RANK: Record<Band, number> = { elite: 0, high: 1, medium: 2, low: 3 };

/**
 * Scopes worst first: most metrics in the Low band, then the highest sum of band ranks
 * (Low 3 … Elite 0), then the most deployments (more at stake); scopes with no band at all
 * last; then by name.
 */
export function worstFirst(scopes: readonly DoraScope[]): DoraScope[] {
  const key = (s: DoraScope) => {
    const bands = s.metrics.flatMap((m) => (m.band ? [BAND_RANK[m.band]] : []));
    return { rated: bands.length ? 1 : 0, lows: bands.filter((b) => b === 3).length, sum: bands.reduce((a, b) => a + b, 0) }; // prettier-ignore
  };
  return [...scopes]
    .map((s) => ({ s, k: key(s) }))
    .sort(
      (a, b) =>
        b.k.rated - a.k.rated ||
        b.k.lows - a.k.lows ||
        b.k.sum - a.k.sum ||
        b.s.deployments - a.s.deployments ||
        a.s.name.localeCompare(b.s.name),
    ) // prettier-ignore
    .map((x) => x.s);
}

function doraTable(
  name: string,
  scopes: readonly DoraScope[],
  o: { link?: boolean; anchor?: boolean; label?: string } = {},
): Html {
  const cols: Column<DoraScope>[] = [
    { head: "Name", cell: (s): Part => (o.link ? linkTo(projectId(s.name), s.name) : s.name) },
    { head: "Deployments", cell: (s) => count(s.deployments), numeric: true },
    ...DORA_METRICS.map((metric) => ({
      head: SHORT[metric],
      cell: (s: DoraScope) => metricCell(s.metrics.find((m) => m.metric === metric)),
    })),
  ];
  return table(name, cols, scopes, {
    ...(o.label ? { label: o.label } : {}),
    ...(o.anchor ? { rowId: (s: DoraScope) => projectId(s.name) } : {}),
  });
}

/** How many projects sit in each band, per metric (and how many have no data). */
function bandCounts(report: DeliveryReport): Html {
  type Row = { metric: DoraMetricName; counts: Record<Band | "none", number> };
  const rows: Row[] = DORA_METRICS.map((metric) => {
    const counts = { elite: 0, high: 0, medium: 0, low: 0, none: 0 };
    for (const p of report.dora.projects) counts[p.metrics.find((m) => m.metric === metric)?.band ?? "none"]++; // prettier-ignore
    return { metric, counts };
  });
  const cols: Column<Row>[] = [
    { head: "Metric", cell: (r) => SHORT[r.metric] },
    ...(["elite", "high", "medium", "low"] as const).map((b) => ({
      head: b.charAt(0).toUpperCase() + b.slice(1),
      cell: (r: Row) => count(r.counts[b]),
      numeric: true,
    })),
    { head: "No data", cell: (r) => count(r.counts.none), numeric: true },
  ];
  return table("dora-band-counts", cols, rows, { label: "projects per band and metric" });
}

function dora(report: DeliveryReport): Html {
  const bands = report.bands;
  const bandCols: Column<(typeof bands.table)[number]>[] = [
    { head: "Metric", cell: (r) => SHORT[r.metric] },
    { head: "Elite", cell: (r) => r.elite },
    { head: "High", cell: (r) => r.high },
    { head: "Medium", cell: (r) => r.medium },
    { head: "Low", cell: (r) => r.low },
  ];
  const note = failureRateNote(report);
  const defCols: Column<DoraDefinition>[] = [
    { head: "Metric", cell: (d) => SHORT[d.metric] },
    { head: "Project", cell: (d) => d.project },
    { head: "Organization", cell: (d) => d.organization },
  ];
  const defs = report.dora.definitions ?? [];
  const projects = worstFirst(report.dora.projects);
  const n = projects.length;
  const open = n <= FOLD_ROWS;
  return h`<h3>Organizations</h3>
    ${doraTable("dora-organizations", report.dora.organizations, { label: "DORA metrics per organization" })}
    ${note ? h`<p class="note">${note}</p>` : ""}
    <h3>Projects per band (${count(n)} projects)</h3>
    ${bandCounts(report)}
    <h3>Worst projects</h3>
    ${doraTable("dora-worst", projects.slice(0, WORST_PROJECTS), { link: true, label: "the worst projects" })}
    ${n > WORST_PROJECTS ? h`<p class="note"><a href="#dora-projects-all">All ${count(n)} projects, worst first</a></p>` : ""}
    <div class="charts">${DORA_METRICS.map((m) => doraChart(report, m))}</div>
    <h3 id="dora-projects-all">Projects, worst first</h3>
    ${fold(`${count(n)} projects`, doraTable("dora-projects", projects, { anchor: true, label: "DORA metrics per project" }), { open })}
    ${open ? "" : notPrinted(n, "DORA metrics per project")}
    ${defs.length ? h`<h3>How the figures are computed</h3>${table("dora-definitions", defCols, defs)}` : ""}
    <h3>Bands (${bands.source})</h3>
    ${table("dora-bands", bandCols, bands.table)}`;
}

function ciTable(name: string, rows: readonly CiStats[]): Html {
  const label = name === "ci-projects" ? "CI per project" : "CI per organization";
  const cols: Column<CiStats>[] = [
    { head: "Name", cell: (r) => r.name },
    { head: "Pipelines", cell: (r) => count(r.pipelines), numeric: true },
    { head: "Per day", cell: (r) => orNoData(r.perDay, perDay), numeric: true },
    { head: "Success rate", cell: (r) => orNoData(r.successRate, percent), numeric: true },
    { head: "Median", cell: (r) => orNoData(r.medianDuration, duration), numeric: true },
    { head: "p95", cell: (r) => orNoData(r.p95Duration, duration), numeric: true },
    { head: "Previous pipelines", cell: (r) => count(r.previousPipelines), numeric: true },
    { head: "Previous success rate", cell: (r) => orNoData(r.previousSuccessRate, percent), numeric: true }, // prettier-ignore
  ];
  return table(name, cols, rows, { label });
}

/** CI projects, least reliable first; those without finished pipelines last. */
const leastReliableFirst = (rows: readonly CiStats[]): CiStats[] =>
  [...rows].sort((a, b) => (a.successRate ?? 2) - (b.successRate ?? 2) || a.name.localeCompare(b.name)); // prettier-ignore

function ci(report: DeliveryReport): Html {
  const projects = leastReliableFirst(report.ci.projects);
  const open = projects.length <= FOLD_ROWS;
  return h`<div class="charts">
      ${[
        pipelinesChart(report),
        successRateChart(report),
        durationChart(report),
        slowestChart(report),
        reliabilityChart(report),
      ]}
    </div>
    <h3>Organizations</h3>
    ${ciTable("ci-organizations", report.ci.organizations)}
    <h3>Projects, least reliable first</h3>
    ${fold(`${count(projects.length)} projects`, ciTable("ci-projects", projects), { open })}
    ${open ? "" : notPrinted(projects.length, "CI per project")}`;
}

function usage(report: DeliveryReport): Html {
  const services = [...new Set(report.usage.organizations.flatMap((o) => Object.keys(o.services)))].sort(); // prettier-ignore
  type Row = DeliveryReport["usage"]["organizations"][number];
  const cols: Column<Row>[] = [
    { head: "Organization", cell: (o) => o.organization },
    { head: "Users", cell: (o) => orNoData(o.users, count), numeric: true },
    ...services.map((s) => ({
      head: `With ${s}`,
      cell: (o: Row) => orNoData(o.services[s], count),
      numeric: true,
    })),
  ];
  return h`${usageChart(report)}${table("usage", cols, report.usage.organizations)}`;
}

/** The delivery report's sections. */
export function deliveryBody(report: DeliveryReport): Html {
  return h`${section(report, "dora", "DORA metrics", () => dora(report))}
  ${section(report, "ci", "CI pipelines", () => ci(report))}
  ${section(report, "usage", "Usage", () => usage(report))}`;
}
