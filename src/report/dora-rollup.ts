/**
 * An organization's DORA figures from its projects' (dora-definitions.ts says them in words).
 * Each headline is computed from the same values and days as the chart under it:
 * - deployment frequency: the deployments of the period ÷ its days; the chart, deployments
 *   per day, has that mean;
 * - lead time and time to restore: the median of every project-day median (each project's
 *   daily medians, days with data); the chart, per day, the median of that day's;
 * - change failure rate: failed ÷ all deployments (successful + failed) of its projects,
 *   the definition the git host's API gives a project; the chart, per day, the same ratio,
 *   with the day's deployments as its weight: the weighted mean of the chart is the value.
 * The previous period's values are computed the same way from the previous period's counts.
 *
 * The git host gives a project's successful deployments and its rate, not its failures: a
 * rate r over s successful deployments counts round(s / (1 − r)) deployments in all. A day
 * of failed deployments only (rate 1, none successful) gives no count: the failures of the
 * period the other days do not account for are spread evenly over such days. Pure.
 */
import { bandOf } from "./bands.js";
import type { Median } from "./delivery-read.js";
import { change, median, ratio } from "./stats.js";
import type { DoraMetric, DoraMetricName, DoraScope, Period, SeriesPoint } from "./types.js";
import { DORA_METRICS } from "./types.js";

/** Deployments as the change failure rate counts them. */
export interface FailureCounts {
  failed: number;
  /** Successful + failed. */
  total: number;
}

/** What the roll-up needs of a project beyond its scope. */
export interface ProjectFacts {
  scope: DoraScope;
  previousDeployments: number;
  /** Undefined: no successful deployment, so no count the git host tells. */
  failures: FailureCounts | undefined;
  previousFailures: FailureCounts | undefined;
  /** Per day of the period (undefined: no deployment that day, or no count). */
  dailyFailures: (FailureCounts | undefined)[];
  /** The previous period's daily medians (days with data). */
  previousMedians: Record<Median, number[]>;
}

const UNIT: Record<DoraMetricName, DoraMetric["unit"]> = {
  deployment_frequency: "per-day",
  lead_time_for_changes: "seconds",
  time_to_restore_service: "seconds",
  change_failure_rate: "ratio",
};

/** A metric with its band and change. */
export function metric(
  name: DoraMetricName,
  value: number | null,
  previous: number | null,
  series: SeriesPoint[],
): DoraMetric {
  return {
    metric: name,
    unit: UNIT[name],
    value,
    band: bandOf(name, value),
    previous,
    change: change(value, previous),
    series,
  };
}

/** The counts behind a rate over `successful` deployments (undefined: none successful). */
export function failureCounts(successful: number, rate: number): FailureCounts | undefined {
  if (successful <= 0 || !(rate >= 0 && rate < 1)) return undefined;
  const total = Math.round(successful / (1 - rate));
  return { failed: total - successful, total };
}

/**
 * A project's counts per day from its daily successful deployments and rates, adding up to
 * the period's `counts`: the failures no day with a successful deployment accounts for are
 * spread evenly over its days of failed deployments only.
 */
export function dailyFailureCounts(
  deploys: readonly number[],
  rates: readonly number[],
  counts: FailureCounts | undefined,
): (FailureCounts | undefined)[] {
  if (!counts) return deploys.map(() => undefined);
  const out = deploys.map((s, i) => failureCounts(s, rates[i] ?? 0));
  const failedOnly = deploys.flatMap((s, i) => (s === 0 && (rates[i] ?? 0) > 0 ? [i] : []));
  const known = out.reduce((n, c) => n + (c?.failed ?? 0), 0);
  const rest = counts.failed - known;
  if (failedOnly.length > 0 && rest > 0) {
    const each = rest / failedOnly.length;
    for (const i of failedOnly) out[i] = { failed: each, total: each };
  }
  return out;
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** failed ÷ total of the summed counts (null: none). */
function pooledRate(counts: readonly (FailureCounts | undefined)[]) {
  let failed = 0;
  let total = 0;
  for (const c of counts) {
    if (!c) continue;
    failed += c.failed;
    total += c.total;
  }
  return { value: ratio(failed, total), weight: round4(total) };
}

const dataOf = (xs: readonly (number | null)[]) => xs.filter((v): v is number => v !== null);

/** Projects' DORA rolled up into their organization. */
export function organizationDora(
  name: string,
  projects: readonly ProjectFacts[],
  spans: { current: Period; previous: Period },
  days: readonly string[],
): DoraScope {
  const scopes = projects.map((p) => p.scope);
  const deployments = scopes.reduce((n, s) => n + s.deployments, 0);
  const previousDeployments = projects.reduce((n, p) => n + p.previousDeployments, 0);
  const seriesOf = (s: DoraScope, m: DoraMetricName) => s.metrics[DORA_METRICS.indexOf(m)].series;
  const metrics = DORA_METRICS.map((m) => {
    if (m === "deployment_frequency") {
      const series = days.map((date, i) => ({
        date,
        value: scopes.reduce((n, s) => n + (seriesOf(s, m)[i]?.value ?? 0), 0),
      }));
      return metric(
        m,
        deployments > 0 ? ratio(deployments, days.length) : null,
        previousDeployments > 0 ? ratio(previousDeployments, spans.previous.days) : null,
        series,
      );
    }
    if (m === "change_failure_rate") {
      const series = days.map((date, i) => {
        const day = pooledRate(projects.map((p) => p.dailyFailures[i]));
        return day.value === null ? { date, value: null } : { date, ...day };
      });
      return metric(
        m,
        pooledRate(projects.map((p) => p.failures)).value,
        pooledRate(projects.map((p) => p.previousFailures)).value,
        series,
      );
    }
    const series = days.map((date, i) => ({
      date,
      value: median(dataOf(scopes.map((s) => seriesOf(s, m)[i]?.value ?? null))),
    }));
    const all = scopes.flatMap((s) => dataOf(seriesOf(s, m).map((p) => p.value)));
    const before = projects.flatMap((p) => p.previousMedians[m]);
    return metric(m, median(all), median(before), series);
  });
  return { name, organization: name, deployments, metrics };
}
