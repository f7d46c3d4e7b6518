/**
 * An organization's DORA figures from hand-made deployments of two projects: the git host's
 * answers are derived here from the deployments (as docs/api.md defines them), the expected
 * figures from the same deployments with this file's own arithmetic — never the report's.
 * The series are chosen so that the readings differ: the median of every project-day median
 * against the median of each day's median; failed ÷ all deployments against a rate weighted
 * by successful ones; the previous period's deployments against this period's.
 */
import { describe, expect, it } from "vitest";
import type { DeliveryLive, ProjectDora } from "../../src/report/delivery-read.js";
import { buildDelivery } from "../../src/report/delivery.js";
import type { DoraMetricName } from "../../src/report/types.js";

const CURRENT = { start: "2025-01-01", end: "2025-01-04", days: 4 };
const PREVIOUS = { start: "2024-12-28", end: "2024-12-31", days: 4 };
const DAYS = ["2025-01-01", "2025-01-02", "2025-01-03", "2025-01-04"];

/** One day of a project: its successful deployments' lead times, and its failed deployments. */
interface Day {
  leadTimes: number[];
  failed: number;
}
const day = (leadTimes: number[], failed = 0): Day => ({ leadTimes, failed });

/** This period, per project and day; the previous period in all (and its lead times by day). */
const PROJECTS: Record<string, { now: Day[]; before: Day[] }> = {
  // Deploys every day but the last, fast; one failure on the first day.
  p1: {
    now: [day([100], 1), day([100]), day([100]), day([])],
    before: [day([50, 70], 5), day([60], 3), day([80, 90, 40], 2), day([30, 20, 10, 55], 0)],
  },
  // Deploys twice, slowly; a day of two failed deployments only, one failure on the last day.
  p2: {
    now: [day([1000]), day([], 2), day([]), day([2000], 1)],
    before: [day([]), day([]), day([300]), day([])],
  },
};

const med = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? 0 : s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const r4 = (x: number) => Math.round(x * 10_000) / 10_000;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** The git host's answers for one project, from its deployments (docs/api.md). */
function answers(p: { now: Day[]; before: Day[] }): ProjectDora {
  const rate = (ds: Day[]) => {
    const ok = sum(ds.map((d) => d.leadTimes.length));
    const failed = sum(ds.map((d) => d.failed));
    return ok + failed === 0 ? 0 : r4(failed / (ok + failed));
  };
  const daily = (f: (d: Day) => number) => p.now.map((d, i) => ({ date: DAYS[i], value: f(d) }));
  const medians = (ds: Day[]) =>
    ds.map((d, i) => ({ date: `2024-12-${28 + i}`, value: med(d.leadTimes) }));
  return {
    daily: {
      deployment_frequency: daily((d) => d.leadTimes.length),
      lead_time_for_changes: daily((d) => med(d.leadTimes)),
      time_to_restore_service: daily(() => 0),
      change_failure_rate: daily((d) => rate([d])),
    },
    previous: {
      deployment_frequency: sum(p.before.map((d) => d.leadTimes.length)),
      lead_time_for_changes: med(p.before.filter((d) => d.leadTimes.length).map((d) => med(d.leadTimes))), // prettier-ignore
      time_to_restore_service: 0,
      change_failure_rate: rate(p.before),
    },
    previousDaily: { lead_time_for_changes: medians(p.before), time_to_restore_service: medians([]) }, // prettier-ignore
    failureRate: rate(p.now),
  };
}

const live: DeliveryLive = {
  parentOrganization: "acme",
  organizations: [],
  projects: Object.keys(PROJECTS).map((slug) => ({ slug, organization: "acme" })),
  dora: new Map(Object.entries(PROJECTS).map(([slug, p]) => [slug, answers(p)])),
  pipelines: new Map(),
  usage: undefined,
};
live.organizations.push({
  id: 1,
  name: "acme",
  parentOrganization: null,
  allowPersonalProjects: false,
  maxPersonalProjects: 0,
  allowExternalContribution: false,
  created: "2020-01-01T00:00:00Z",
});

const report = buildDelivery(live, { current: CURRENT, previous: PREVIOUS });
const acme = report.dora.organizations[0];
const m = (name: DoraMetricName) => acme.metrics.find((x) => x.metric === name)!;
const all = Object.values(PROJECTS);

describe("an organization's DORA figures from hand-made deployments", () => {
  it("lead time: the median of every project-day median, not the median of each day's median", () => {
    const projectDays = (key: "now" | "before") =>
      all.flatMap((p) => p[key].filter((d) => d.leadTimes.length).map((d) => med(d.leadTimes)));
    // This period: 100, 100, 100 (p1) and 1000, 2000 (p2): 100. Each day's median first
    // would give 550, 100, 100, 2000: 325.
    expect(med(projectDays("now"))).toBe(100);
    expect(m("lead_time_for_changes").value).toBe(med(projectDays("now")));
    expect(m("lead_time_for_changes").previous).toBe(med(projectDays("before")));
    // The chart: each day's median of its projects' medians.
    expect(m("lead_time_for_changes").series.map((p) => p.value)).toEqual(
      DAYS.map((_, i) => {
        const xs = all.flatMap((p) => (p.now[i].leadTimes.length ? [med(p.now[i].leadTimes)] : []));
        return xs.length ? med(xs) : null;
      }),
    );
  });

  it("change failure rate: failed ÷ all deployments of both projects, this period and the previous one", () => {
    const rate = (key: "now" | "before") => {
      const failed = sum(all.flatMap((p) => p[key].map((d) => d.failed)));
      const ok = sum(all.flatMap((p) => p[key].map((d) => d.leadTimes.length)));
      return r4(failed / (failed + ok));
    };
    expect([rate("now"), rate("before")]).toEqual([r4(4 / 9), r4(10 / 21)]);
    expect(m("change_failure_rate").value).toBe(rate("now"));
    expect(m("change_failure_rate").previous).toBe(rate("before"));
    expect(m("change_failure_rate").change).toBe(r4(rate("now") - rate("before")));
  });

  it("the failure-rate chart: each day's ratio weighted by its deployments; their weighted mean is the headline", () => {
    const series = m("change_failure_rate").series;
    DAYS.forEach((_, i) => {
      const failed = sum(all.map((p) => p.now[i].failed));
      const deployments = failed + sum(all.map((p) => p.now[i].leadTimes.length));
      expect(series[i]).toEqual({ date: DAYS[i], value: r4(failed / deployments), weight: deployments }); // prettier-ignore
    });
    const weighted =
      sum(series.map((p) => p.value! * p.weight!)) / sum(series.map((p) => p.weight!));
    expect(r4(weighted)).toBe(m("change_failure_rate").value);
  });

  it("a project's day of failed deployments only is a rate of 100 %, not 'no data'", () => {
    const p2 = report.dora.projects.find((p) => p.name === "p2")!;
    const cfr = p2.metrics.find((x) => x.metric === "change_failure_rate")!;
    expect(cfr.series.map((p) => p.value)).toEqual([0, 1, null, 0.5]);
  });

  it("says which definition it follows", () => {
    const cfr = report.dora.definitions!.find((d) => d.metric === "change_failure_rate")!;
    expect(cfr.project).toMatch(/failed deployments ÷ all deployments \(successful \+ failed\)/);
    expect(cfr.organization).toMatch(/weighted by the day's deployments is the value/);
  });
});
