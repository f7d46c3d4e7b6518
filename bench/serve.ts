/**
 * What the benchmark modules share: `phctl serve` started in its own process (so its CPU is
 * not in the measured process), the server's request log read through /_control, and
 * phctl's own processes run to completion with their peak RSS and CPU.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ApiClient } from "../src/api/client.js";
import type { RequestLogEntry } from "../src/server/app.js";

export const MAIN = join(import.meta.dirname, "../dist/cli/main.js");

/** Requests the benchmark servers' logs keep (a size-L baseline makes ~80,000). */
export const BENCH_REQUEST_LOG_SIZE = 1_000_000;

export interface ServeOptions {
  token: string;
  latency: number;
  queueDelay?: number;
  seedFile?: string;
  /** The build that serves (default this tree's dist/cli/main.js). */
  main?: string;
}

/** Start the built reference server on a free loopback port; resolves to its URL. */
export async function serve(o: ServeOptions): Promise<{ url: string; child: ChildProcess }> {
  const args = [o.main ?? MAIN, "serve", "--port", "0", "--token", `${o.token}:system-admin:acme`];
  // API calls are counted from the request log: on, and large enough for a size-L run.
  args.push("--control", "--request-log", String(BENCH_REQUEST_LOG_SIZE));
  args.push("--latency", String(o.latency));
  if (o.queueDelay !== undefined) args.push("--queue-delay", String(o.queueDelay));
  if (o.seedFile) args.push("--seed", o.seedFile);
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  child.stderr.on("data", (b: Buffer) => (err += b.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (b: Buffer) => {
      out += b.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on("exit", () => reject(new Error(`serve exited: ${out}${err}`)));
  });
  return { url, child };
}

/** The server's request log (GET /_control/requests), the /_control calls left out. */
export async function readLog(api: ApiClient): Promise<RequestLogEntry[]> {
  const r = await api.raw("GET", "/_control/requests");
  return (r.body as { data: RequestLogEntry[] }).data.filter((e) => !e.url.startsWith("/_control"));
}

/** Empty the server's request log. */
export async function clearLog(api: ApiClient): Promise<void> {
  await api.raw("DELETE", "/_control/requests");
}

export interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
  /** From spawn to exit, as seen by the parent. */
  wallMs: number;
  /** `Date.now()` at spawn (to place the child's own timestamps). */
  startedAt: number;
  /** The child's peak RSS and CPU time (user + system), from a preloaded exit hook. */
  maxRssKB: number;
  cpuMs: number;
}

/** The exit hook preloaded into every measured child (`--require`). */
export function writeExitHook(dir: string): string {
  const file = join(dir, "exit-hook.cjs");
  writeFileSync(
    file,
    `process.on("exit", () => { const u = process.resourceUsage(); require("node:fs").writeFileSync(process.env.BENCH_EXIT_FILE, JSON.stringify({ maxRssKB: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 })); });\n`,
  );
  return file;
}

/** Run a node script to completion, its peak RSS and CPU measured by `hook`. */
export function runNode(
  args: string[],
  o: { env: Record<string, string>; hook: string; cwd: string },
): Promise<Exit> {
  const exitFile = join(o.cwd, `exit-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  const startedAt = Date.now();
  const started = performance.now();
  const child = spawn(process.execPath, ["--require", o.hook, ...args], {
    cwd: o.cwd,
    env: { ...process.env, ...o.env, BENCH_EXIT_FILE: exitFile },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (b: Buffer) => out.push(b));
  child.stderr.on("data", (b: Buffer) => err.push(b));
  return new Promise((resolve, reject) => {
    let wallMs = NaN;
    child.on("error", reject);
    child.on("exit", () => (wallMs = performance.now() - started));
    // After "exit", once stdout and stderr are drained.
    child.on("close", (code) => {
      const usage = existsSync(exitFile)
        ? (JSON.parse(readFileSync(exitFile, "utf8")) as { maxRssKB: number; cpuMs: number })
        : { maxRssKB: NaN, cpuMs: NaN };
      rmSync(exitFile, { force: true });
      resolve({
        code,
        stdout: Buffer.concat(out).toString(),
        stderr: Buffer.concat(err).toString(),
        wallMs,
        startedAt,
        ...usage,
      });
    });
  });
}

/** CPU time (user + system) a process has used so far, ms; NaN where /proc is not there. */
export function processCpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime: fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) / 100) * 1000;
  } catch {
    return NaN;
  }
}
