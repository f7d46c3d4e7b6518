/**
 * A report against a no-change plan of the same config, side by side (bench/report-access-run.ts,
 * bench/report-delivery-run.ts): the generated organization with synthetic activity seeded
 * into one reference server in a child process, the built CLI run as a user runs it, a first
 * run of each to warm the server's caches and the OS's, then plan and report alternately,
 * `runs` times each, so that drift in the machine's load falls on both alike. Each run's
 * calls are the server's request log between the two; times are the process's wall and CPU,
 * and the server's CPU over the run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiClient } from "../src/api/client.js";
import type { RequestLogEntry } from "../src/server/app.js";
import { generate, SIZES, writeOrganization, type Organization, type Size } from "./generate.js";
import { clearLog, MAIN, processCpuMs, readLog, runNode, serve, writeExitHook } from "./serve.js";

const TOKEN = "bench-token-report";

export interface CliSample {
  calls: number;
  wallMs: number;
  cpuMs: number;
  maxRssKB: number;
}

/** One run: the process's figures, the calls the server logged, the server's CPU. */
export interface Run extends CliSample {
  entries: RequestLogEntry[];
  serverCpuMs: number;
}

export interface BesideOptions {
  size: Size;
  runs: number;
  latency: number;
  concurrency: number;
  /** The build to run (default the repository's dist/cli/main.js); it also serves. */
  main?: string;
  /** `access` or `delivery`: the report, and its output file (`<report>.json`). */
  report: "access" | "delivery";
  /** Said after each pair of runs. */
  log?: (s: string) => void;
}

export interface Beside {
  org: Organization;
  plans: Run[];
  reports: Run[];
  /** The last report's JSON file. */
  out: string;
  /** An admin client of the server, for what the result needs to read. */
  api: ApiClient;
}

/** Run the pair; `finish` reads what it needs while the server and the output still exist. */
export async function planBesideReport<R>(
  o: BesideOptions,
  finish: (b: Beside) => Promise<R> | R,
): Promise<R> {
  const root = mkdtempSync(join(tmpdir(), `phctl-bench-${o.report}-`));
  try {
    const org = generate(SIZES[o.size], { activity: 7 });
    const { dir, seed } = writeOrganization(org, root);
    const hook = writeExitHook(root);
    const main = o.main ?? MAIN;
    const { url, child } = await serve({ token: TOKEN, seedFile: seed, latency: o.latency, main });
    const api = new ApiClient({ apiUrl: url, token: TOKEN, concurrency: 4 });
    const env = { PHCTL_TOKEN: TOKEN, PHCTL_GIT_TOKEN: TOKEN, PHCTL_API_URL: url, NO_COLOR: "1" };
    const out = join(root, `${o.report}.json`);
    const concurrency = ["--concurrency", String(o.concurrency)];
    try {
      const cli = async (args: string[], what: string): Promise<Run> => {
        await clearLog(api);
        const cpu0 = processCpuMs(child.pid);
        const r = await runNode([main, ...args], { env, hook, cwd: root });
        const serverCpuMs = processCpuMs(child.pid) - cpu0;
        // plan: 0 in sync (the generated config is what the server was seeded with).
        if (r.code !== 0) throw new Error(`${what} exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
        const entries = await readLog(api);
        const { wallMs, cpuMs, maxRssKB } = r;
        return { calls: entries.length, wallMs, cpuMs, maxRssKB, serverCpuMs, entries };
      };
      const plan = () => cli(["plan", dir, "--detailed-exitcode", ...concurrency], "plan");
      const report = () =>
        cli(["report", o.report, dir, "--format", "json", "--out", out, ...concurrency], `report ${o.report}`); // prettier-ignore
      await plan();
      await report();
      const plans: Run[] = [];
      const reports: Run[] = [];
      for (let i = 0; i < o.runs; i++) {
        const [p, r] = [await plan(), await report()];
        plans.push(p);
        reports.push(r);
        o.log?.(
          `run ${i + 1}: plan ${p.calls} calls ${p.wallMs.toFixed(0)} ms (server CPU ${p.serverCpuMs.toFixed(0)} ms); report ${o.report} ${r.calls} calls ${r.wallMs.toFixed(0)} ms (server CPU ${r.serverCpuMs.toFixed(0)} ms)`,
        );
      }
      return await finish({ org, plans, reports, out, api });
    } finally {
      await api.close();
      child.kill();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * What every side-by-side result opens with: the set-up, the plan's and the report's
 * figures (medians), and how the report compares (calls and wall, report ÷ plan).
 */
export function sideBySide<S extends CliSample>(
  o: Pick<BesideOptions, "size" | "runs" | "latency" | "concurrency">,
  plan: S,
  report: S,
) {
  const { size, runs, latency, concurrency } = o;
  const callsRatio = report.calls / plan.calls;
  return { size, runs, latency, concurrency, plan, report, callsRatio, wallRatio: report.wallMs / plan.wallMs }; // prettier-ignore
}
