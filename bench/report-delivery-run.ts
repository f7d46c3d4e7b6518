/**
 * What `phctl report delivery` costs against a no-change `phctl plan` of the same config
 * (issue 37, item 10: at most 1.5× the plan's wall time at size M). One seeded reference
 * server (the generated organization with synthetic activity: pipelines, hence DORA series)
 * in a child process; the built CLI run as a user runs it, plan and report alternately,
 * `runs` times each. Calls are the server's request log between the two, by kind; times are
 * each process's wall and CPU, and the server's CPU over the same run (from /proc, where
 * there is one). Used by bench/report-delivery.ts and the smoke test.
 */
import { readFileSync } from "node:fs";
import type { DeliveryReport } from "../src/report/types.js";
import type { Size } from "./generate.js";
import { planBesideReport, sideBySide, type CliSample, type Run } from "./plan-beside-report.js";
import { median } from "./report.js";

export interface ReportDeliveryOptions {
  size: Size;
  runs: number;
  latency: number;
  concurrency: number;
  /** The build to measure, server and CLI (default this tree's dist/cli/main.js). */
  main?: string;
  log?: (s: string) => void;
}

/** One CLI run: its calls (and by kind), wall, CPU, peak RSS, and the server's CPU meanwhile. */
export interface DeliverySample extends CliSample {
  serverCpuMs: number;
  byKind: Record<string, number>;
}

export interface ReportDeliveryResult {
  size: Size;
  runs: number;
  latency: number;
  concurrency: number;
  plan: DeliverySample;
  report: DeliverySample;
  /** report / plan, of the medians. */
  callsRatio: number;
  wallRatio: number;
  /** What the report found, so the smoke test can see it read real data. */
  projects: number;
  deployments: number;
  pipelines: number;
  sections: Record<string, string>;
  within: boolean;
}

/** The target (issue 37, item 10): the report's wall ≤ 1.5 × a no-change plan's. */
export const WALL_FACTOR = 1.5;

/** The kind of a logged call, for the breakdown: the DORA reads by interval. */
export function callKind(method: string, url: string): string {
  const u = new URL(url, "http://x");
  const path = u.pathname;
  if (path.includes("/dora/metrics")) return `dora ${u.searchParams.get("interval") ?? "daily"}`;
  if (/\/ci\/pipelines$/.test(path)) return "pipelines";
  if (/\/v1\/metrics\/users/.test(path)) return "user counts";
  if (/\/git\/groups$/.test(path)) return "git group";
  return `${method} other`;
}

const mid = (xs: DeliverySample[]): DeliverySample => {
  const kinds = new Set(xs.flatMap((x) => Object.keys(x.byKind)));
  return {
    calls: median(xs.map((x) => x.calls)),
    wallMs: median(xs.map((x) => x.wallMs)),
    cpuMs: median(xs.map((x) => x.cpuMs)),
    maxRssKB: median(xs.map((x) => x.maxRssKB)),
    serverCpuMs: median(xs.map((x) => x.serverCpuMs)),
    byKind: Object.fromEntries([...kinds].map((k) => [k, median(xs.map((x) => x.byKind[k] ?? 0))])),
  };
};

export async function reportDeliveryBench(o: ReportDeliveryOptions): Promise<ReportDeliveryResult> {
  const sample = (x: Run): DeliverySample => {
    const byKind: Record<string, number> = {};
    for (const e of x.entries) {
      const k = callKind(e.method, e.url);
      byKind[k] = (byKind[k] ?? 0) + 1;
    }
    const { calls, wallMs, cpuMs, maxRssKB, serverCpuMs } = x;
    return { calls, wallMs, cpuMs, maxRssKB, serverCpuMs, byKind };
  };
  return planBesideReport({ ...o, report: "delivery" }, ({ plans, reports, out }) => {
    const d = JSON.parse(readFileSync(out, "utf8")) as DeliveryReport;
    const head = sideBySide(o, mid(plans.map(sample)), mid(reports.map(sample)));
    return {
      ...head,
      projects: d.dora.projects.length,
      deployments: d.dora.projects.reduce((n, s) => n + s.deployments, 0),
      pipelines: d.ci.projects.reduce((n, c) => n + c.pipelines, 0),
      sections: Object.fromEntries(d.sections.map((s) => [s.name, s.status])),
      within: head.wallRatio <= WALL_FACTOR,
    };
  });
}
