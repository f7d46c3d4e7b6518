/**
 * The outage benchmark's trials (the script: bench/outage.ts; its smoke run:
 * test/bench/outage-smoke.test.ts). Is `--outage-timeout` an upper bound? The built CLI against services
 * that hang rather than refuse (bench/outage-servers.ts), each case over several trials:
 *
 * - `silent-plan`, `silent-apply`: a service that accepts connections and never answers;
 * - `stalling-plan`, `stalling-apply`: one that answers headers, then stalls the body;
 * - `git-report`: `report delivery` with the service answering and the git host's
 *   delivery-metrics API accepting and never answering;
 * - `swallow-apply`: `apply` against a service that swallows every request for
 *   `--outage S` seconds (3 by default) mid-run, then answers again — it must be waited
 *   out (exit 0), however the swallowed requests were timed.
 *
 * Reported per case: exits, the wall time, and the longest time past `--outage-timeout`
 * (the hanging cases must stay within a few seconds; before the fix they took 90-100 s
 * for a 2-10 s timeout).
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seed } from "../src/server/seed.js";
import { startServer, TOKENS } from "../test/helpers/server.js";
import { loadAverage } from "./block.js";
import {
  silentServer,
  stallingServer,
  swallowingProxy,
  type HangingServer,
} from "./outage-servers.js";
import { MAIN } from "./serve.js";
import { copyExamples } from "../test/helpers/examples.js";

const TOKEN = { secret: "outage-bench-token-3f81c2", role: "system-admin", parentOrganization: "acme" } as const; // prettier-ignore

export const CASES = [
  "silent-plan",
  "silent-apply",
  "stalling-plan",
  "stalling-apply",
  "git-report",
  "swallow-apply",
] as const;
export type OutageCase = (typeof CASES)[number];

export interface OutageOptions {
  trials: number;
  /** `--outage-timeout`, seconds. */
  timeoutS: number;
  /** How long `swallow-apply`'s service swallows requests, seconds. */
  outageS: number;
  cases: readonly OutageCase[];
}

/** One run of the CLI. */
export interface Trial {
  code: number;
  wallS: number;
  /** Wall time past --outage-timeout, s (negative: within it). */
  pastS: number;
  /** The last line it printed on stderr. */
  said: string;
}

/** What a case came to over its trials. */
export interface CaseResult {
  name: OutageCase;
  /** The exit code every trial must have (1: gave up; 0: waited out). */
  wantCode: number;
  trials: Trial[];
  /** Longest time past --outage-timeout over the trials, s. */
  worstPastS: number;
}

/** Run the built CLI (killed after `killS`: the old code hung for minutes). */
function cli(args: string[], env: Record<string, string>, cwd: string, killS: number) {
  const t0 = performance.now();
  return new Promise<{ code: number; stderr: string; wallS: number }>((done) => {
    execFile(
      process.execPath,
      [MAIN, ...args],
      {
        cwd,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1", ...env },
        timeout: killS * 1000,
      },
      (err, _stdout, stderr) =>
        done({
          code: err ? ((err as { code?: number }).code ?? 1) : 0,
          stderr: String(stderr),
          wallS: (performance.now() - t0) / 1000,
        }),
    );
  });
}

const lastLine = (s: string) => s.trim().split("\n").at(-1) ?? "";

/** A fresh copy of the examples to plan and apply. */
function workdir(): string {
  const dir = mkdtempSync(join(tmpdir(), "phctl-outage-bench-"));
  copyExamples(join(dir, "examples"));
  return dir;
}

/** One trial of a case whose service hangs for good: the command must give up in time. */
async function hangingTrial(name: OutageCase, o: OutageOptions): Promise<Trial> {
  const flag = ["--outage-timeout", `${o.timeoutS}s`];
  const killS = o.timeoutS + 120;
  const dir = workdir();
  try {
    if (name === "git-report") return await gitReportTrial(dir, flag, killS, o.timeoutS);
    const s = name.startsWith("silent") ? await silentServer() : await stallingServer();
    try {
      const args = name.endsWith("apply")
        ? ["apply", "examples", "--auto-approve"]
        : ["plan", "examples"];
      const r = await cli([...args, "--api-url", s.url, ...flag], { PHCTL_TOKEN: TOKEN.secret }, dir, killS); // prettier-ignore
      return {
        code: r.code,
        wallS: r.wallS,
        pastS: r.wallS - o.timeoutS,
        said: lastLine(r.stderr),
      };
    } finally {
      await s.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `report delivery`: the service answers, the git host accepts and never answers. */
async function gitReportTrial(dir: string, flag: string[], killS: number, timeoutS: number) {
  const t = await startServer({ tokens: [...Object.values(TOKENS), TOKEN], requestLog: false });
  let git: HangingServer | undefined;
  try {
    seed(t.server.ctx, {
      parentOrganization: "acme",
      projects: [{ slug: "alpha", name: "Alpha", git: { path: "alpha" } }],
      activity: { seed: 7 },
    });
    git = await silentServer();
    mkdirSync(join(dir, "config"));
    writeFileSync(join(dir, "config", "phctl.yaml"), "organization: acme\n");
    const env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKEN.secret, PHCTL_GIT_TOKEN: TOKEN.secret };
    const r = await cli(["report", "delivery", "config", "--git-api-url", git.url, ...flag], env, dir, killS); // prettier-ignore
    return { code: r.code, wallS: r.wallS, pastS: r.wallS - timeoutS, said: lastLine(r.stderr) };
  } finally {
    await git?.close();
    await t.close();
  }
}

/**
 * One trial of `swallow-apply`: the service swallows every request for `outageS` once the
 * apply is under way, then answers again; the apply must wait it out. `pastS` here is the
 * time from the end of the swallow to the end of the command, past --outage-timeout.
 */
async function swallowTrial(o: OutageOptions): Promise<Trial> {
  const t = await startServer({ latencyMs: 20 });
  const proxy = await swallowingProxy(t.url);
  const dir = workdir();
  try {
    const env = { PHCTL_API_URL: proxy.url, PHCTL_TOKEN: TOKENS.admin.secret };
    const applying = cli(["apply", "examples", "--auto-approve", "--outage-timeout", `${o.timeoutS}s`], env, dir, o.timeoutS + 120); // prettier-ignore
    const t0 = performance.now();
    while (t.server.requestLog.length < 3 && performance.now() - t0 < 20_000)
      await new Promise((r) => setTimeout(r, 20));
    proxy.swallow(true);
    await new Promise((r) => setTimeout(r, o.outageS * 1000));
    proxy.swallow(false);
    const back = performance.now();
    const r = await applying;
    const afterS = (performance.now() - back) / 1000;
    return { code: r.code, wallS: r.wallS, pastS: afterS - o.timeoutS, said: lastLine(r.stderr) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await proxy.close();
    await t.close();
  }
}

/** Run every case's trials, one at a time (timings are the point). */
export async function runOutage(o: OutageOptions): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const name of o.cases) {
    const trials: Trial[] = [];
    for (let i = 0; i < o.trials; i++)
      trials.push(name === "swallow-apply" ? await swallowTrial(o) : await hangingTrial(name, o));
    results.push({
      name,
      wantCode: name === "swallow-apply" ? 0 : 1,
      trials,
      worstPastS: Math.max(...trials.map((x) => x.pastS)),
    });
  }
  return results;
}

const s1 = (x: number) => x.toFixed(1);

/** The markdown table of the results. */
export function outageTable(o: OutageOptions, results: CaseResult[]): string[] {
  const rows = results.map((r) => {
    const walls = r.trials.map((x) => x.wallS);
    const ok = r.trials.filter((x) => x.code === r.wantCode).length;
    return `| ${r.name} | ${ok}/${r.trials.length} exit ${r.wantCode} | ${s1(Math.min(...walls))} – ${s1(Math.max(...walls))} s | ${s1(r.worstPastS)} s |`;
  });
  const hanging = results.filter((r) => r.name !== "swallow-apply");
  const worst = hanging.length ? Math.max(...hanging.map((r) => r.worstPastS)) : NaN;
  return [
    "## Outages: --outage-timeout as an upper bound",
    "",
    `\`bench/outage.ts\`: ${o.trials} trials per case, \`--outage-timeout ${o.timeoutS}s\`, the swallow lasting ${o.outageS} s; machine load ${loadAverage()}. Longest time past --outage-timeout over every hanging case: **${s1(worst)} s**. (swallow-apply: time from the service answering again to the end of the apply, past the timeout.)`,
    "",
    "| case | exits | wall | longest past --outage-timeout |",
    "| ---- | ----- | ---- | ----------------------------- |",
    ...rows,
  ];
}
