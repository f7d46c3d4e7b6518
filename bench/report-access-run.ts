/**
 * What `phctl report access` costs against a no-change `phctl plan` of the same config
 * (issue 30: at most 1.2× the plan's calls plus one per organization, at most 1.5× its wall
 * time, at size M). One seeded reference server (the generated organization with synthetic
 * activity: last logins, pipelines) in a child process; the built CLI run as a user runs it,
 * plan and report alternately, `runs` times each. Calls are the server's request log between
 * the two; times are each process's wall and CPU. Used by bench/report-access.ts and the
 * smoke test.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiClient } from "../src/api/client.js";
import type { AccessReport } from "../src/report/types.js";
import { accessReportCallsMin, generate, SIZES, writeOrganization, type Size } from "./generate.js";
import { median } from "./report.js";
import { clearLog, MAIN, readLog, runNode, serve, writeExitHook } from "./serve.js";

const TOKEN = "bench-token-report";

export interface ReportAccessOptions {
  size: Size;
  runs: number;
  latency: number;
  concurrency: number;
  log?: (s: string) => void;
}

export interface CliSample {
  calls: number;
  wallMs: number;
  cpuMs: number;
  maxRssKB: number;
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
  const log = o.log ?? (() => {});
  const root = mkdtempSync(join(tmpdir(), "phctl-bench-report-"));
  try {
    const org = generate(SIZES[o.size], { activity: 7 });
    const { dir, seed } = writeOrganization(org, root);
    const hook = writeExitHook(root);
    const { url, child } = await serve({ token: TOKEN, seedFile: seed, latency: o.latency });
    const api = new ApiClient({ apiUrl: url, token: TOKEN, concurrency: 4 });
    const env = { PHCTL_TOKEN: TOKEN, PHCTL_API_URL: url, NO_COLOR: "1" };
    const out = join(root, "review.json");
    const concurrency = ["--concurrency", String(o.concurrency)];
    try {
      const cli = async (args: string[], what: string): Promise<CliSample> => {
        await clearLog(api);
        const r = await runNode([MAIN, ...args], { env, hook, cwd: root });
        // plan: 0 in sync (the generated config is what the server was seeded with).
        if (r.code !== 0) throw new Error(`${what} exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
        const calls = (await readLog(api)).length;
        return { calls, wallMs: r.wallMs, cpuMs: r.cpuMs, maxRssKB: r.maxRssKB };
      };
      const plan = () => cli(["plan", dir, "--detailed-exitcode", ...concurrency], "plan");
      const report = () =>
        cli(["report", "access", dir, "--format", "json", "--out", out, ...concurrency], "report");
      // A first run of each warms the server's caches and the OS's; then alternately, so
      // drift in the machine's load falls on both alike.
      await plan();
      await report();
      const plans: CliSample[] = [];
      const reports: CliSample[] = [];
      for (let i = 0; i < o.runs; i++) {
        plans.push(await plan());
        reports.push(await report());
        log(
          `run ${i + 1}: plan ${plans.at(-1)!.calls} calls ${plans.at(-1)!.wallMs.toFixed(0)} ms; report access ${reports.at(-1)!.calls} calls ${reports.at(-1)!.wallMs.toFixed(0)} ms`,
        );
      }
      const review = JSON.parse(readFileSync(out, "utf8")) as AccessReport;
      const p = mid(plans);
      const r = mid(reports);
      const organizations = (await api.call("organizations.list")).length;
      const callsBound = Math.floor(CALLS_FACTOR * p.calls) + organizations;
      const wallRatio = r.wallMs / p.wallMs;
      return {
        size: o.size,
        runs: o.runs,
        latency: o.latency,
        concurrency: o.concurrency,
        plan: p,
        report: r,
        organizations,
        callsBound,
        planCallsMin: org.callsMin,
        reportCallsMin: accessReportCallsMin({ ...org.shape, organizations }),
        callsRatio: r.calls / p.calls,
        wallRatio,
        rows: review.rows.length,
        lastLogins: review.users.filter((u) => u.lastLogin !== null).length,
        sections: Object.fromEntries(review.sections.map((s) => [s.name, s.status])),
        within: r.calls <= callsBound && wallRatio <= WALL_FACTOR,
      };
    } finally {
      await api.close();
      child.kill();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
