/**
 * What `phctl report delivery` costs against a no-change `phctl plan` of the same config
 * (issue 37, item 10: at most 1.5× the plan's wall time at size M). One seeded reference
 * server (the generated organization with synthetic activity: pipelines, hence DORA series)
 * in a child process; the built CLI run as a user runs it, plan and report alternately,
 * `runs` times each. Calls are the server's request log between the two, by kind; times are
 * each process's wall and CPU, and the server's CPU over the same run (from /proc, where
 * there is one). Used by bench/report-delivery.ts and the smoke test.
 */
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiClient } from "../src/api/client.js";
import type { DeliveryReport } from "../src/report/types.js";
import { generate, SIZES, writeOrganization, type Size } from "./generate.js";
import { median } from "./report.js";
import type { CliSample } from "./report-access-run.js";
import { clearLog, MAIN, readLog, runNode, serve, writeExitHook } from "./serve.js";

const TOKEN = "bench-token-delivery";

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

/** CPU time (user + system, ms) of process `pid` so far; NaN where /proc cannot tell. */
export function processCpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of stat (11 and 12 after the command), in ticks.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

export async function reportDeliveryBench(o: ReportDeliveryOptions): Promise<ReportDeliveryResult> {
  const log = o.log ?? (() => {});
  const root = mkdtempSync(join(tmpdir(), "phctl-bench-delivery-"));
  try {
    const org = generate(SIZES[o.size], { activity: 7 });
    const { dir, seed } = writeOrganization(org, root);
    const hook = writeExitHook(root);
    const main = o.main ?? MAIN;
    const { url, child } = await serve({ token: TOKEN, seedFile: seed, latency: o.latency, main });
    const api = new ApiClient({ apiUrl: url, token: TOKEN, concurrency: 4 });
    const env = { PHCTL_TOKEN: TOKEN, PHCTL_GIT_TOKEN: TOKEN, PHCTL_API_URL: url, NO_COLOR: "1" };
    const out = join(root, "delivery.json");
    const concurrency = ["--concurrency", String(o.concurrency)];
    try {
      const cli = async (args: string[], what: string): Promise<DeliverySample> => {
        await clearLog(api);
        const cpu0 = processCpuMs(child.pid);
        const r = await runNode([main, ...args], { env, hook, cwd: root });
        const serverCpuMs = processCpuMs(child.pid) - cpu0;
        // plan: 0 in sync (the generated config is what the server was seeded with).
        if (r.code !== 0) throw new Error(`${what} exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
        const entries = await readLog(api);
        const byKind: Record<string, number> = {};
        for (const e of entries) {
          const k = callKind(e.method, e.url);
          byKind[k] = (byKind[k] ?? 0) + 1;
        }
        return {
          calls: entries.length,
          wallMs: r.wallMs,
          cpuMs: r.cpuMs,
          maxRssKB: r.maxRssKB,
          serverCpuMs,
          byKind,
        };
      };
      const plan = () => cli(["plan", dir, "--detailed-exitcode", ...concurrency], "plan");
      const report = () =>
        cli(
          ["report", "delivery", dir, "--format", "json", "--out", out, ...concurrency],
          "report delivery",
        );
      // A first run of each warms the server's caches and the OS's; then alternately, so
      // drift in the machine's load falls on both alike.
      await plan();
      await report();
      const plans: DeliverySample[] = [];
      const reports: DeliverySample[] = [];
      for (let i = 0; i < o.runs; i++) {
        plans.push(await plan());
        reports.push(await report());
        const [p, r] = [plans.at(-1)!, reports.at(-1)!];
        log(
          `run ${i + 1}: plan ${p.calls} calls ${p.wallMs.toFixed(0)} ms (server CPU ${p.serverCpuMs.toFixed(0)} ms); report delivery ${r.calls} calls ${r.wallMs.toFixed(0)} ms (server CPU ${r.serverCpuMs.toFixed(0)} ms)`,
        );
      }
      const d = JSON.parse(readFileSync(out, "utf8")) as DeliveryReport;
      const p = mid(plans);
      const r = mid(reports);
      const wallRatio = r.wallMs / p.wallMs;
      return {
        size: o.size,
        runs: o.runs,
        latency: o.latency,
        concurrency: o.concurrency,
        plan: p,
        report: r,
        callsRatio: r.calls / p.calls,
        wallRatio,
        projects: d.dora.projects.length,
        deployments: d.dora.projects.reduce((n, s) => n + s.deployments, 0),
        pipelines: d.ci.projects.reduce((n, c) => n + c.pipelines, 0),
        sections: Object.fromEntries(d.sections.map((s) => [s.name, s.status])),
        within: wallRatio <= WALL_FACTOR,
      };
    } finally {
      await api.close();
      child.kill();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
