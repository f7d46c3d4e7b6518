/**
 * The delivery report's charts: each DORA metric's daily series per organization over its
 * bands, and CI health (pipelines per day, success rate, durations).
 */
import * as Plot from "@observablehq/plot";
import { BAND_TABLES } from "../../report/bands.js";
import type {
  Band,
  CiStats,
  DeliveryReport,
  DoraMetricName,
  DoraScope,
} from "../../report/types.js";
import type { Html } from "./html.js";
import { axisName, chart, day, marginFor, noChart, type Drawing } from "./charts.js";

/**
 * Band colours (Okabe–Ito's colour-blind-safe hues, darkened so that a badge's white text
 * reaches 4.5:1; medium takes dark text): the same in light and dark, and the band is
 * always named in words beside or on it.
 */
export const BAND_COLORS: Record<Band, string> = {
  elite: "#00795a",
  high: "#0072b2",
  medium: "#e69f00",
  low: "#b34700",
};
/** Success blue, failure vermillion: apart under every colour-vision deficiency, and named in the legend. */
export const OUTCOME_COLORS = { successful: "#0072b2", failed: "#d55e00", other: "#9a9a9a" };
/** Lines per chart at most: more organizations are in the tables only. */
const MAX_LINES = 6;
/** Bars per ranking chart. */
const MAX_BARS = 15;

/** How a metric is drawn: its title, its axis label and the factor from the report's unit. */
const METRIC_AXIS: Record<DoraMetricName, { title: string; label: string; scale: number }> = {
  deployment_frequency: { title: "Deployment frequency", label: "Deployments per day", scale: 1 },
  lead_time_for_changes: { title: "Lead time for changes", label: "Median lead time", scale: 1 },
  time_to_restore_service: { title: "Time to restore service", label: "Median time to restore", scale: 1 }, // prettier-ignore
  change_failure_rate: { title: "Change failure rate", label: "Failed deployments (%)", scale: 100 }, // prettier-ignore
};

/** A time axis in the unit its largest value reads best in: minutes, hours or days. */
function timeUnit(maxSeconds: number): { unit: string; scale: number } {
  if (maxSeconds < 2 * 3_600) return { unit: "minutes", scale: 1 / 60 };
  if (maxSeconds < 3 * 86_400) return { unit: "hours", scale: 1 / 3_600 };
  return { unit: "days", scale: 1 / 86_400 };
}

/** The band regions of `metric` in chart units, clipped to [0, top]. */
function bandRegions(year: number, metric: DoraMetricName, scale: number, top: number) {
  const table = BAND_TABLES.find((t) => t.year === year);
  if (!table) return [];
  const b = table.metrics[metric];
  const cuts = [b.elite, b.high, b.medium].map((v) => v * scale);
  const order: Band[] = ["elite", "high", "medium", "low"];
  // at-most: elite is [0, elite]; at-least: elite is [elite, ∞).
  const edges = b.better === "at-most" ? [0, ...cuts, Infinity] : [Infinity, ...cuts, 0];
  return order
    .map((band, i) => {
      const [a, z] = [edges[i], edges[i + 1]].map((v) => Math.min(v, top));
      return { band, y1: Math.min(a, z), y2: Math.max(a, z) };
    })
    .filter((r) => r.y2 - r.y1 > top * 0.04);
}

/** Room right of the plot for the band labels ("medium" at 11 px, and a gap). */
const BAND_LABEL_MARGIN = 56;
const [MARGIN_TOP, MARGIN_BOTTOM, DORA_HEIGHT] = [20, 30, 260];
/** The least distance between two band labels' centres, px (11 px text: its box is ~14 px tall). */
const LABEL_GAP = 15;

/**
 * Where each band's label goes, in chart units: beside the middle of its region, pushed
 * apart until no two are closer than LABEL_GAP px and kept inside the plot. Regions are
 * drawn from the bottom (0) up, labels never overlap one another, and they sit in the right
 * margin, so they never overlap the lines either.
 */
export function bandLabels(
  regions: ReadonlyArray<{ band: Band; y1: number; y2: number }>,
  top: number,
  plotHeight = DORA_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM,
): Array<{ band: Band; y: number }> {
  const perPx = top / plotHeight;
  const gap = LABEL_GAP * perPx;
  const [lo, hi] = [(LABEL_GAP / 2) * perPx, top - (LABEL_GAP / 2) * perPx];
  const labels = regions
    .map((r) => ({ band: r.band, y: Math.min(hi, Math.max(lo, (r.y1 + r.y2) / 2)) }))
    .sort((a, b) => a.y - b.y);
  // Upwards: each at least `gap` above the one below; then down from the top if it overflowed.
  for (let i = 1; i < labels.length; i++) labels[i].y = Math.max(labels[i].y, labels[i - 1].y + gap); // prettier-ignore
  if (labels.length) labels[labels.length - 1].y = Math.min(labels[labels.length - 1].y, hi);
  for (let i = labels.length - 2; i >= 0; i--) labels[i].y = Math.min(labels[i].y, labels[i + 1].y - gap); // prettier-ignore
  return labels;
}

/** One DORA metric's chart: a faint dot per day and a 7-day mean line per organization. */
export function doraChart(report: DeliveryReport, metric: DoraMetricName): Html {
  let axis = METRIC_AXIS[metric];
  const id = `dora-${metric.replace(/_/g, "-")}`;
  const scopes = [...report.dora.organizations]
    .sort((a, b) => b.deployments - a.deployments || a.name.localeCompare(b.name))
    .slice(0, MAX_LINES);
  const series = (s: DoraScope) => s.metrics.find((m) => m.metric === metric)?.series ?? [];
  if (metric === "lead_time_for_changes" || metric === "time_to_restore_service") {
    const max = Math.max(0, ...scopes.flatMap((s) => series(s).map((p) => p.value ?? 0)));
    const { unit, scale } = timeUnit(max);
    axis = { ...axis, label: `${axis.label} (${unit})`, scale };
  }
  const points = scopes.flatMap((s: DoraScope) =>
    series(s).map((p) => ({
      organization: s.name,
      date: day(p.date),
      value: p.value === null ? null : p.value * axis.scale,
    })),
  );
  const values = points.flatMap((p) => (p.value === null ? [] : [p.value]));
  if (!values.length) return noChart(id, axis.title, "no deployments in the period");
  const top = Math.max(...values) * 1.1 || 1;
  const regions = bandRegions(report.bands.year, metric, axis.scale, top);
  const [start, end] = [day(report.period.start), day(report.period.end)];
  return chart({
    id,
    title: `${axis.title} per day, ${report.period.start} to ${report.period.end}`,
    note: `Shaded: the DORA ${report.bands.year} bands, named at the right. Dots: daily values; lines: 7-day mean.`,
    height: DORA_HEIGHT,
    marginTop: MARGIN_TOP,
    marginBottom: MARGIN_BOTTOM,
    marginRight: BAND_LABEL_MARGIN,
    x: { label: "Day", type: "utc", domain: [start, end] },
    y: { label: axis.label, domain: [0, top], grid: true },
    color: { legend: true, type: "categorical", domain: scopes.map((s) => s.name) },
    marks: [
      Plot.rectY(regions, {
        x1: start,
        x2: end,
        y1: "y1",
        y2: "y2",
        fill: (r: { band: Band }) => BAND_COLORS[r.band],
        fillOpacity: 0.13,
      }),
      Plot.text(bandLabels(regions, top), {
        x: end,
        y: "y",
        text: "band",
        textAnchor: "start",
        dx: 6,
        clip: false,
        className: "band-label",
      }),
      Plot.dot(points, { x: "date", y: "value", stroke: "organization", r: 1.5, strokeOpacity: 0.4 }), // prettier-ignore
      Plot.lineY(points, Plot.windowY({ k: 7, reduce: "mean" }, { x: "date", y: "value", stroke: "organization", strokeWidth: 2 })), // prettier-ignore
      Plot.ruleY([0]),
    ],
  });
}

/** Pipelines per day, stacked by outcome. */
export function pipelinesChart(report: DeliveryReport): Html {
  const id = "ci-pipelines-per-day";
  const title = "Pipelines per day, all projects";
  if (!report.ci.daily.some((d) => d.pipelines > 0)) return noChart(id, title, "no pipelines in the period"); // prettier-ignore
  const rows = report.ci.daily.flatMap((d) => {
    const other = d.pipelines - d.successful - d.failed;
    return [
      { date: day(d.date), outcome: "successful", n: d.successful },
      { date: day(d.date), outcome: "failed", n: d.failed },
      { date: day(d.date), outcome: "other", n: Math.max(0, other) },
    ];
  });
  return chart({
    id,
    title,
    note: "Other: pipelines that were canceled, skipped or still running.",
    x: { label: "Day", type: "utc" },
    y: { label: "Pipelines", grid: true },
    color: { legend: true, domain: Object.keys(OUTCOME_COLORS), range: Object.values(OUTCOME_COLORS) }, // prettier-ignore
    marks: [
      Plot.rectY(rows, { x: "date", y: "n", fill: "outcome", interval: "day", inset: 0.5 }),
      Plot.ruleY([0]),
    ],
  });
}

/** Success rate per day: successful ÷ (successful + failed); days with neither are gaps. */
export function successRateChart(report: DeliveryReport): Html {
  const id = "ci-success-rate";
  const title = "Pipeline success rate per day";
  const rows = report.ci.daily.map((d) => ({
    date: day(d.date),
    rate: d.successful + d.failed ? (100 * d.successful) / (d.successful + d.failed) : null,
  }));
  if (!rows.some((r) => r.rate !== null)) return noChart(id, title, "no finished pipelines");
  return chart({
    id,
    title,
    note: "Successful ÷ (successful + failed); days without finished pipelines are gaps.",
    x: { label: "Day", type: "utc" },
    y: { label: "Success rate (%)", domain: [0, 100], grid: true },
    marks: [
      Plot.lineY(rows, { x: "date", y: "rate", stroke: OUTCOME_COLORS.successful, strokeWidth: 2 }), // prettier-ignore
      Plot.dot(rows, { x: "date", y: "rate", fill: OUTCOME_COLORS.successful, r: 1.5 }),
      Plot.ruleY([0]),
    ],
  });
}

/** Median pipeline duration per day, in minutes. */
export function durationChart(report: DeliveryReport): Html {
  const id = "ci-duration-per-day";
  const title = "Median pipeline duration per day";
  const rows = report.ci.daily.map((d) => ({
    date: day(d.date),
    minutes: d.medianDuration === null ? null : d.medianDuration / 60,
  }));
  if (!rows.some((r) => r.minutes !== null)) return noChart(id, title, "no pipeline durations");
  return chart({
    id,
    title,
    x: { label: "Day", type: "utc" },
    y: { label: "Median duration (min)", grid: true, zero: true },
    marks: [
      Plot.lineY(rows, { x: "date", y: "minutes", stroke: "currentColor", strokeWidth: 1.5 }),
      Plot.ruleY([0]),
    ],
  });
}

/** The CI stats of the projects `names` ranks, those with the figure drawn, at most MAX_BARS. */
function ranked(report: DeliveryReport, names: readonly string[], has: (p: CiStats) => boolean) {
  const byName = new Map(report.ci.projects.map((p) => [p.name, p]));
  return names
    .map((n) => byName.get(n))
    .filter((p): p is CiStats => p !== undefined && has(p))
    .slice(0, MAX_BARS);
}

/** Names on a phone's ranking charts: cut shorter, so the bars keep room (the tables have them whole). */
const NARROW_NAME = 18;

/** `s` cut to `max` characters in the middle, keeping its end (where names that share a beginning differ). */
const middleCut = (s: string, max: number): string =>
  s.length <= max ? s : `${s.slice(0, Math.ceil((max - 1) / 2))}…${s.slice(s.length - Math.floor((max - 1) / 2))}`; // prettier-ignore

/**
 * A ranking's names cut to `max` characters, the band domain they make and the left margin
 * that fits them. Two names must not read the same: then they are cut in the middle, and
 * failing that, longer.
 */
function rankingAxis(names: readonly string[], max: number) {
  const longest = Math.max(0, ...names.map((n) => n.length));
  const tries = [(n: string) => axisName(n, max), (n: string) => middleCut(n, max)];
  for (let m = max + 1; m <= longest; m++) tries.push((n) => axisName(n, m));
  const domain = tries.map((cut) => names.map(cut)).find((d) => new Set(d).size === d.length) ?? [
    ...names,
  ];
  return { domain, marginLeft: marginFor(domain) };
}

/**
 * A horizontal bar chart of `rows` by name: the wide drawing with names up to 28
 * characters, the narrow one up to NARROW_NAME; `marks` draws rows whose `name` is the
 * label on the axis.
 */
function rankingChart<T extends { name: string }>(
  o: { id: string; title: string; note?: string; axis: string; x: Drawing["x"] },
  rows: readonly T[],
  marks: (rows: T[]) => Plot.Markish[],
): Html {
  const at = (max: number): Pick<Drawing, "marginLeft" | "y" | "marks"> => {
    const { domain, marginLeft } = rankingAxis(
      rows.map((r) => r.name),
      max,
    );
    return { marginLeft, y: { label: o.axis, domain }, marks: marks(rows.map((r, i) => ({ ...r, name: domain[i] }))) }; // prettier-ignore
  };
  return chart({
    id: o.id,
    title: o.title,
    ...(o.note === undefined ? {} : { note: o.note }),
    height: 40 + rows.length * 22,
    x: o.x,
    ...at(28),
    narrow: at(NARROW_NAME),
  });
}

/** The slowest projects: median and p95 duration, in minutes. */
export function slowestChart(report: DeliveryReport): Html {
  const id = "ci-slowest-projects";
  const title = "Slowest projects by median pipeline duration";
  const rows = ranked(report, report.ci.slowest, (p) => p.medianDuration !== null).map((p) => ({
    name: p.name,
    median: (p.medianDuration ?? 0) / 60,
    p95: (p.p95Duration ?? p.medianDuration ?? 0) / 60,
  }));
  if (!rows.length) return noChart(id, title, "no pipeline durations");
  return rankingChart(
    { id, title, note: "Dark: median; light: 95th percentile.", axis: "Project", x: { label: "Duration (min)", grid: true } }, // prettier-ignore
    rows,
    (r) => [
      Plot.barX(r, { y: "name", x: "p95", fill: "#3b82c4", fillOpacity: 0.35 }),
      Plot.barX(r, { y: "name", x: "median", fill: "#3b82c4", insetTop: 4, insetBottom: 4 }),
      Plot.ruleX([0]),
    ],
  );
}

/** The least reliable projects: success rate, lowest first. */
export function reliabilityChart(report: DeliveryReport): Html {
  const id = "ci-least-reliable";
  const title = "Least reliable projects by pipeline success rate";
  const rows = ranked(report, report.ci.leastReliable, (p) => p.successRate !== null).map((p) => ({
    name: p.name,
    rate: (p.successRate ?? 0) * 100,
  }));
  if (!rows.length) return noChart(id, title, "no finished pipelines");
  return rankingChart(
    { id, title, axis: "Project", x: { label: "Success rate (%)", domain: [0, 100], grid: true } }, // prettier-ignore
    rows,
    (r) => [Plot.barX(r, { y: "name", x: "rate", fill: OUTCOME_COLORS.failed }), Plot.ruleX([0])],
  );
}

/** Users per organization. */
export function usageChart(report: DeliveryReport): Html {
  const id = "usage-users";
  const title = "Users per organization";
  const rows = report.usage.organizations
    .filter((o) => o.users !== null)
    .map((o) => ({ name: o.organization, users: o.users ?? 0 }))
    .sort((a, b) => b.users - a.users || a.name.localeCompare(b.name))
    .slice(0, MAX_BARS);
  if (!rows.length) return noChart(id, title, "no user counts");
  return rankingChart(
    { id, title, axis: "Organization", x: { label: "Users", grid: true } },
    rows,
    (r) => [Plot.barX(r, { y: "name", x: "users", fill: "#3b82c4" }), Plot.ruleX([0])],
  );
}
