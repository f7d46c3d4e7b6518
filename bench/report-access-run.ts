/**
 * What `phctl report access` costs against a no-change `phctl plan` of the same config
 * (issue 30: at most 1.2× the plan's calls plus one per organization, at most 1.5× its wall
 * time, at size M). One seeded reference server (the generated organization with synthetic
 * activity: last logins, pipelines) in a child process; the built CLI run as a user runs it,
 * plan and report alternately, `runs` times each. Calls are the server's request log between
 * the two; times are each process's wall and CPU. Used by bench/report-access.ts and the
 * smoke test.
 */
import { readFileSync } from "node:fs";
import type { AccessReport } from "../src/report/types.js";
import { accessReportCallsMin, type Size } from "./generate.js";
import { planBesideReport, sideBySide, type CliSample } from "./plan-beside-report.js";
import { median } from "./report.js";

export type { CliSample };

export interface ReportAccessOptions {
  size: Size;
  runs: number;
  latency: number;
  concurrency: number;
  log?: (s: string) => void;
}

export interface ReportAccessResult {
  size: Size;
  runs: number;
  latency: number;
  concurrency: number;
  plan: CliSample;
  report: CliSample;
  /** Organizations the report read (live), the "+ 1 per organization" of the bound. */
  organizations: number;
  /** 1.2 × the plan's calls + one per organization. */
  callsBound: number;
  /** The fewest calls each could make (bench/generate.ts callsMin, accessReportCallsMin). */
  planCallsMin: number;
  reportCallsMin: number;
  /** report / plan, of the medians. */
  callsRatio: number;
  wallRatio: number;
  /** What the report found, so the smoke test can see it read real data. */
  rows: number;
  lastLogins: number;
  sections: Record<string, string>;
  within: boolean;
}

/** The report's target (issue 30): calls ≤ 1.2 × plan + organizations, wall ≤ 1.5 × plan. */
export const CALLS_FACTOR = 1.2;
export const WALL_FACTOR = 1.5;

const mid = (xs: CliSample[]): CliSample => ({
  calls: median(xs.map((x) => x.calls)),
  wallMs: median(xs.map((x) => x.wallMs)),
  cpuMs: median(xs.map((x) => x.cpuMs)),
  maxRssKB: median(xs.map((x) => x.maxRssKB)),
});

export async function reportAccessBench(o: ReportAccessOptions): Promise<ReportAccessResult> {
  return planBesideReport({ ...o, report: "access" }, async ({ org, plans, reports, out, api }) => {
    const review = JSON.parse(readFileSync(out, "utf8")) as AccessReport;
    const head = sideBySide(o, mid(plans), mid(reports));
    const organizations = (await api.call("organizations.list")).length;
    const callsBound = Math.floor(CALLS_FACTOR * head.plan.calls) + organizations;
    return {
      ...head,
      organizations,
      callsBound,
      planCallsMin: org.callsMin,
      reportCallsMin: accessReportCallsMin({ ...org.shape, organizations }),
      rows: review.rows.length,
      lastLogins: review.users.filter((u) => u.lastLogin !== null).length,
      sections: Object.fromEntries(review.sections.map((s) => [s.name, s.status])),
      within: head.report.calls <= callsBound && head.wallRatio <= WALL_FACTOR,
    };
  });
}
