/**
 * The delivery report's data from what was read (delivery-read.ts). Pure.
 *
 * DORA, per project (the git host's numbers, as it defines them):
 * - deployment frequency: deployments in the period / its days;
 * - lead time for changes and time to restore service: the median of the daily medians
 *   (the git host's own way for a period), over days with data;
 * - change failure rate: the git host's value over the period;
 * - a project without deployments in a period has no data for it (null), never a 0.
 * Per organization: the deployments of its projects per day; the median of their daily
 * medians; the deployment-weighted mean of their failure rates.
 *
 * CI, from the pipelines: pipelines per day, success rate (successful / (successful +
 * failed)), median and p95 duration; the slowest projects (median duration) and the least
 * reliable (success rate), five each.
 */
import { bandOf, bandTableRows, CURRENT_BANDS } from "./bands.js";
import type { DeliveryLive, LivePipeline, ProjectDora } from "./delivery-read.js";
import { daysOf } from "./span.js";
import { change, median, percentile, ratio } from "./stats.js";
import type {
  CiDay,
  CiStats,
  DeliveryReport,
  DoraMetric,
  DoraMetricName,
  DoraScope,
  Period,
  SeriesPoint,
  UsageRow,
} from "./types.js";
import { DORA_METRICS } from "./types.js";

const UNIT: Record<DoraMetricName, DoraMetric["unit"]> = {
  deployment_frequency: "per-day",
  lead_time_for_changes: "seconds",
  time_to_restore_service: "seconds",
  change_failure_rate: "ratio",
};
const TOP = 5;

type Spans = { current: Period; previous: Period };

function metric(
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

/** The day's value of a series as data: medians of 0 are days without any. */
const asData = (name: DoraMetricName, v: number | undefined, deployed: boolean): number | null => {
  if (v === undefined) return null;
  if (name === "deployment_frequency") return v;
  if (!deployed && name !== "time_to_restore_service") return null;
  return name === "change_failure_rate" ? v : v > 0 ? v : null;
};

function projectDora(
  slug: string,
  organization: string,
  d: ProjectDora,
  days: string[],
): DoraScope {
  const byDay = (m: DoraMetricName) => new Map(d.daily[m].map((p) => [p.date, p.value]));
  const deploysByDay = byDay("deployment_frequency");
  const deployments = [...deploysByDay.values()].reduce((a, b) => a + b, 0);
  const prevDeploys = d.previous.deployment_frequency;
  const metrics = DORA_METRICS.map((m) => {
    const values = byDay(m);
    const series = days.map((date) => ({
      date,
      value: asData(m, values.get(date), (deploysByDay.get(date) ?? 0) > 0),
    }));
    const data = series.map((p) => p.value).filter((v): v is number => v !== null);
    let value: number | null;
    let previous: number | null;
    if (m === "deployment_frequency") {
      value = deployments > 0 ? ratio(deployments, days.length) : null;
      previous = null; // set by the caller, which knows the previous period's days
    } else if (m === "change_failure_rate") {
      value = deployments > 0 ? d.failureRate : null;
      previous = prevDeploys > 0 ? d.previous[m] : null;
    } else {
      value = median(data);
      previous = d.previous[m] > 0 ? d.previous[m] : null;
    }
    return metric(m, value, previous, series);
  });
  return { name: slug, organization, deployments, metrics };
}

/** Projects' DORA rolled up into their organization. */
function organizationDora(
  name: string,
  scopes: readonly DoraScope[],
  prevDeploys: number,
  spans: Spans,
): DoraScope {
  const days = daysOf(spans.current);
  const deployments = scopes.reduce((n, s) => n + s.deployments, 0);
  const at = (s: DoraScope, m: DoraMetricName) => s.metrics[DORA_METRICS.indexOf(m)];
  const metrics = DORA_METRICS.map((m) => {
    const series = days.map((date, i) => {
      const vals = scopes.map((s) => at(s, m).series[i]?.value ?? null);
      if (m === "deployment_frequency")
        return { date, value: vals.reduce<number>((a, v) => a + (v ?? 0), 0) };
      const data = vals.filter((v): v is number => v !== null);
      return { date, value: m === "change_failure_rate" ? weighted(scopes, m, i) : median(data) };
    });
    let value: number | null;
    if (m === "deployment_frequency")
      value = deployments > 0 ? ratio(deployments, days.length) : null;
    else if (m === "change_failure_rate") value = weightedValue(scopes, (s) => at(s, m).value);
    else value = median(series.map((p) => p.value).filter((v): v is number => v !== null));
    const previous =
      m === "deployment_frequency"
        ? prevDeploys > 0
          ? ratio(prevDeploys, spans.previous.days)
          : null
        : m === "change_failure_rate"
          ? weightedValue(scopes, (s) => at(s, m).previous)
          : median(scopes.map((s) => at(s, m).previous).filter((v): v is number => v !== null));
    return metric(m, value, previous, series);
  });
  return { name, organization: name, deployments, metrics };
}

/** The deployment-weighted mean of the projects' values (null: no project has one). */
function weightedValue(scopes: readonly DoraScope[], v: (s: DoraScope) => number | null) {
  let sum = 0;
  let weight = 0;
  for (const s of scopes) {
    const x = v(s);
    if (x === null || s.deployments === 0) continue;
    sum += x * s.deployments;
    weight += s.deployments;
  }
  return weight === 0 ? null : Math.round((sum / weight) * 10_000) / 10_000;
}

function weighted(scopes: readonly DoraScope[], m: DoraMetricName, i: number): number | null {
  let sum = 0;
  let weight = 0;
  for (const s of scopes) {
    const deploys = s.metrics[0].series[i]?.value ?? 0;
    const x = s.metrics[DORA_METRICS.indexOf(m)].series[i]?.value ?? null;
    if (x === null || deploys === 0) continue;
    sum += x * deploys;
    weight += deploys;
  }
  return weight === 0 ? null : Math.round((sum / weight) * 10_000) / 10_000;
}

const inPeriod = (p: LivePipeline, period: Period) => {
  const day = p.createdAt.slice(0, 10);
  return day >= period.start && day <= period.end;
};

/** CI figures of a set of pipelines over the period (and the previous one). */
function ciStats(
  name: string,
  organization: string,
  all: readonly LivePipeline[],
  spans: Spans,
): CiStats {
  const now = all.filter((p) => inPeriod(p, spans.current));
  const before = all.filter((p) => inPeriod(p, spans.previous));
  const ok = (ps: readonly LivePipeline[]) => ps.filter((p) => p.status === "success").length;
  const failed = (ps: readonly LivePipeline[]) => ps.filter((p) => p.status === "failed").length;
  const durations = now.map((p) => p.duration);
  return {
    name,
    organization,
    pipelines: now.length,
    successful: ok(now),
    failed: failed(now),
    perDay: now.length > 0 ? ratio(now.length, spans.current.days) : null,
    successRate: ratio(ok(now), ok(now) + failed(now)),
    medianDuration: median(durations),
    p95Duration: percentile(durations, 95),
    previousPipelines: before.length,
    previousSuccessRate: ratio(ok(before), ok(before) + failed(before)),
  };
}

function ciDaily(all: readonly LivePipeline[], period: Period): CiDay[] {
  const byDay = new Map<string, LivePipeline[]>();
  for (const p of all) {
    const day = p.createdAt.slice(0, 10);
    const list = byDay.get(day);
    if (list) list.push(p);
    else byDay.set(day, [p]);
  }
  return daysOf(period).map((date) => {
    const ps = byDay.get(date) ?? [];
    return {
      date,
      pipelines: ps.length,
      successful: ps.filter((p) => p.status === "success").length,
      failed: ps.filter((p) => p.status === "failed").length,
      medianDuration: median(ps.map((p) => p.duration)),
    };
  });
}

const byOrg = <T extends { organization: string }>(xs: readonly T[]) => {
  const out = new Map<string, T[]>();
  for (const x of xs) {
    const list = out.get(x.organization);
    if (list) list.push(x);
    else out.set(x.organization, [x]);
  }
  return out;
};

/** The delivery report's data (without the envelope report.ts adds). */
export function buildDelivery(
  live: DeliveryLive,
  spans: Spans,
): Omit<
  DeliveryReport,
  | "formatVersion"
  | "generatedAt"
  | "phctlVersion"
  | "apiUrl"
  | "sections"
  | "partial"
  | "stats"
  | "parentOrganization"
  | "kind"
> {
  const days = daysOf(spans.current);
  const orgNames = live.organizations.map((o) => o.name).sort();

  const doraProjects: DoraScope[] = [];
  const prevDeploys = new Map<string, number>();
  for (const p of live.projects) {
    const d = live.dora?.get(p.slug);
    if (!d) continue;
    const s = projectDora(p.slug, p.organization, d, days);
    const prev = d.previous.deployment_frequency;
    s.metrics[0] = metric(
      "deployment_frequency",
      s.metrics[0].value,
      prev > 0 ? ratio(prev, spans.previous.days) : null,
      s.metrics[0].series,
    );
    prevDeploys.set(p.slug, prev);
    doraProjects.push(s);
  }
  const doraByOrg = byOrg(doraProjects);
  const doraOrgs = live.dora
    ? orgNames
        .filter((o) => doraByOrg.has(o))
        .map((o) => {
          const scopes = doraByOrg.get(o)!;
          const prev = scopes.reduce((n, s) => n + (prevDeploys.get(s.name) ?? 0), 0);
          return organizationDora(o, scopes, prev, spans);
        })
    : [];

  const pipes = live.pipelines;
  const ciProjects = pipes
    ? live.projects.map((p) => ciStats(p.slug, p.organization, pipes.get(p.slug) ?? [], spans))
    : [];
  const pipesByOrg = byOrg(live.projects);
  const ciOrgs = pipes
    ? orgNames
        .filter((o) => pipesByOrg.has(o))
        .map((o) =>
          ciStats(
            o,
            o,
            pipesByOrg.get(o)!.flatMap((p) => pipes.get(p.slug) ?? []),
            spans,
          ),
        )
    : [];
  const allPipes = pipes ? [...pipes.values()].flat() : [];
  const withData = ciProjects.filter((c) => c.pipelines > 0);
  const slowest = [...withData]
    .sort(
      (a, b) => (b.medianDuration ?? 0) - (a.medianDuration ?? 0) || a.name.localeCompare(b.name),
    )
    .slice(0, TOP)
    .map((c) => c.name);
  const leastReliable = withData
    .filter((c) => c.successRate !== null)
    .sort((a, b) => a.successRate! - b.successRate! || a.name.localeCompare(b.name))
    .slice(0, TOP)
    .map((c) => c.name);

  const usage: UsageRow[] = live.usage
    ? orgNames.map((o) => {
        const u = live.usage!.get(o);
        return {
          organization: o,
          users: u?.users ?? null,
          services: { git: u?.git ?? null, artifactservice: u?.artifactservice ?? null },
        };
      })
    : [];

  return {
    period: spans.current,
    previousPeriod: spans.previous,
    bands: { year: CURRENT_BANDS.year, source: CURRENT_BANDS.source, table: bandTableRows() },
    dora: { projects: doraProjects, organizations: doraOrgs },
    ci: {
      projects: ciProjects,
      organizations: ciOrgs,
      daily: pipes ? ciDaily(allPipes, spans.current) : [],
      slowest,
      leastReliable,
    },
    usage: { organizations: usage },
  };
}
