/**
 * The delivery report's body: DORA's four metrics per organization and project with their
 * bands, CI health and usage, each section with its tables and charts.
 */
import type {
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
import { h, table, type Column, type Html } from "./html.js";
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

function doraTable(name: string, scopes: readonly DoraScope[]): Html {
  const cols: Column<DoraScope>[] = [
    { head: "Name", cell: (s) => s.name },
    { head: "Deployments", cell: (s) => count(s.deployments), numeric: true },
    ...DORA_METRICS.map((metric) => ({
      head: SHORT[metric],
      cell: (s: DoraScope) => metricCell(s.metrics.find((m) => m.metric === metric)),
    })),
  ];
  return table(name, cols, scopes);
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
  return h`<h3>Organizations</h3>
    ${doraTable("dora-organizations", report.dora.organizations)}
    ${note ? h`<p class="note">${note}</p>` : ""}
    <div class="charts">${DORA_METRICS.map((m) => doraChart(report, m))}</div>
    <h3>Projects</h3>
    ${doraTable("dora-projects", report.dora.projects)}
    ${defs.length ? h`<h3>How the figures are computed</h3>${table("dora-definitions", defCols, defs)}` : ""}
    <h3>Bands (${bands.source})</h3>
    ${table("dora-bands", bandCols, bands.table)}`;
}

function ciTable(name: string, rows: readonly CiStats[]): Html {
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
  return table(name, cols, rows);
}

function ci(report: DeliveryReport): Html {
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
    <h3>Projects</h3>
    ${ciTable("ci-projects", report.ci.projects)}`;
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
