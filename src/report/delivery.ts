/**
 * The delivery report's data from what was read (delivery-read.ts). Pure.
 *
 * DORA, per project (the git host's numbers, as it defines them):
 * - deployment frequency: deployments in the period / its days;
 * - lead time for changes and time to restore service: the median of the daily medians
 *   (the git host's own way for a period), over days with data;
 * - change failure rate: the git host's value over the period (failed ÷ all deployments);
 * - a project without deployments in a period has no data for it (null), never a 0.
 * Per organization: dora-rollup.ts; dora-definitions.ts says both in words, in the report.
 * Usage: each organization's own users (a customer organization's not in its parent's).
 *
 * CI, from the pipelines: pipelines per day, success rate (successful / (successful +
 * failed)), median and p95 duration; the slowest projects (median duration) and the least
 * reliable (success rate), five each.
 */
import { bandTableRows, CURRENT_BANDS } from "./bands.js";
import type { DeliveryLive, LivePipeline, OrgUsage, ProjectDora } from "./delivery-read.js";
import { MEDIANS } from "./delivery-read.js";
import { DORA_DEFINITIONS } from "./dora-definitions.js";
import {
  dailyFailureCounts,
  failureCounts,
  metric,
  organizationDora,
  type ProjectFacts,
} from "./dora-rollup.js";
import { daysOf } from "./span.js";
import { median, percentile, ratio } from "./stats.js";
import type {
  CiDay,
  CiStats,
  DeliveryReport,
  DoraMetricName,
  DoraScope,
  Period,
  UsageRow,
} from "./types.js";
import { DORA_METRICS } from "./types.js";

const TOP = 5;

type Spans = { current: Period; previous: Period };

/**
 * The day's value of a series as data: medians of 0 are days without any; a failure rate
 * is data on a day with deployments, successful or failed (failed only: a rate of 1).
 */
const asData = (name: DoraMetricName, v: number | undefined, deployed: boolean): number | null => {
  if (v === undefined) return null;
  if (name === "deployment_frequency") return v;
  if (name === "change_failure_rate") return deployed || v > 0 ? v : null;
  if (!deployed && name !== "time_to_restore_service") return null;
  return v > 0 ? v : null;
};

/** A project's DORA scope, and what its organization's roll-up needs of it. */
function projectDora(
  slug: string,
  organization: string,
  d: ProjectDora,
  spans: Spans,
  days: string[],
): ProjectFacts {
  const byDay = (m: DoraMetricName) => new Map(d.daily[m].map((p) => [p.date, p.value]));
  const deploysByDay = byDay("deployment_frequency");
  const deploys = days.map((date) => deploysByDay.get(date) ?? 0);
  const deployments = deploys.reduce((a, b) => a + b, 0);
  const prevDeploys = d.previous.deployment_frequency;
  const rates = byDay("change_failure_rate");
  const metrics = DORA_METRICS.map((m) => {
    const values = byDay(m);
    const series = days.map((date, i) => ({
      date,
      value: asData(m, values.get(date), deploys[i] > 0),
    }));
    const data = series.map((p) => p.value).filter((v): v is number => v !== null);
    if (m === "deployment_frequency")
      return metric(
        m,
        deployments > 0 ? ratio(deployments, days.length) : null,
        prevDeploys > 0 ? ratio(prevDeploys, spans.previous.days) : null,
        series,
      );
    if (m === "change_failure_rate") {
      const prev = d.previous.change_failure_rate;
      return metric(
        m,
        deployments > 0 || d.failureRate > 0 ? d.failureRate : null,
        prevDeploys > 0 || prev > 0 ? prev : null,
        series,
      );
    }
    return metric(m, median(data), d.previous[m] > 0 ? d.previous[m] : null, series);
  });
  const failures = failureCounts(deployments, d.failureRate);
  return {
    scope: { name: slug, organization, deployments, metrics },
    previousDeployments: prevDeploys,
    failures,
    previousFailures: failureCounts(prevDeploys, d.previous.change_failure_rate),
    dailyFailures: dailyFailureCounts(
      deploys,
      days.map((date) => rates.get(date) ?? 0),
      failures,
    ),
    previousMedians: Object.fromEntries(
      MEDIANS.map((m) => [m, d.previousDaily[m].map((p) => p.value).filter((v) => v > 0)]),
    ) as ProjectFacts["previousMedians"],
  };
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

/**
 * Users per organization, each counting its own: the API counts the parent organization's
 * users with its customer organizations' (a customer's only its own), so the parent's row
 * is its count less its customers' (unknown when one of them is).
 */
function ownUsage(live: DeliveryLive, orgNames: readonly string[]): UsageRow[] {
  const counts = live.usage!;
  const customers = live.organizations.filter((o) => o.parentOrganization !== null);
  const own = (o: string, pick: (u: OrgUsage) => number | null): number | null => {
    const n = counts.get(o) ? pick(counts.get(o)!) : null;
    if (n === null || o !== live.parentOrganization) return n;
    let rest = n;
    for (const c of customers) {
      const u = counts.get(c.name);
      const m = u ? pick(u) : null;
      if (m === null) return null;
      rest -= m;
    }
    return rest;
  };
  return orgNames.map((o) => ({
    organization: o,
    users: own(o, (u) => u.users),
    services: { git: own(o, (u) => u.git), artifactservice: own(o, (u) => u.artifactservice) },
  }));
}

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

  const facts: ProjectFacts[] = [];
  for (const p of live.projects) {
    const d = live.dora?.get(p.slug);
    if (d) facts.push(projectDora(p.slug, p.organization, d, spans, days));
  }
  const doraProjects: DoraScope[] = facts.map((f) => f.scope);
  const doraByOrg = byOrg(facts.map((f) => ({ ...f, organization: f.scope.organization })));
  const doraOrgs = live.dora
    ? orgNames
        .filter((o) => doraByOrg.has(o))
        .map((o) => organizationDora(o, doraByOrg.get(o)!, spans, days))
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

  const usage: UsageRow[] = live.usage ? ownUsage(live, orgNames) : [];

  return {
    period: spans.current,
    previousPeriod: spans.previous,
    bands: { year: CURRENT_BANDS.year, source: CURRENT_BANDS.source, table: bandTableRows() },
    dora: { projects: doraProjects, organizations: doraOrgs, definitions: [...DORA_DEFINITIONS] },
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
