/**
 * The parts of the fuzz benchmark (bench/fuzz.ts) that its smoke test shares: the built
 * `phctl serve` in a child process with two parent organizations and their projects, its
 * resident memory read from /proc/PID/status (VmRSS, and VmHWM, the peak), its heap after a
 * full GC over IPC, and the driver that sends the fuzz plan's requests over keep-alive
 * connections and sorts the answers: by family and status, the 5xx the spec does not
 * explain (every 5xx but the fork-cleanup 500, "… retry later"), and requests that got no
 * answer.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Pool } from "undici";
import { IdLedger } from "./fuzz-ledger.js";
import { FuzzPlan, fuzzTenants, type Family, type FuzzTenant } from "./fuzz-requests.js";
import { MAIN } from "./serve.js";

export interface FuzzServerOptions {
  /** `--control` (and `--request-log N` when `requestLog` is given). */
  control: boolean;
  requestLog?: number;
  /** `--db` (default `:memory:`, as `phctl serve` has it). */
  db?: string;
  /** The build that serves (default this tree's dist/cli/main.js). */
  main?: string;
}

export interface Memory {
  /** VmRSS and VmHWM of the server process, MB. */
  rssMB: number;
  peakMB: number;
  /**
   * After a full GC: the V8 heap in use, the heap V8 holds (in use or not), and the memory
   * V8 knows of outside it (Buffers), MB.
   */
  heapMB: number;
  heapTotalMB: number;
  externalMB: number;
}

export interface FuzzServer {
  url: string;
  child: ChildProcess;
  tenants: FuzzTenant[];
  memory(): Promise<Memory>;
  stop(): Promise<void>;
}

const HOOK = `process.on("message", (m) => {
  if (!m || m.type !== "memory") return;
  globalThis.gc?.();
  const u = process.memoryUsage();
  process.send({ type: "memory", id: m.id, heapUsed: u.heapUsed, heapTotal: u.heapTotal, external: u.external });
});\n`;

const MB = 1024 * 1024;

/** VmRSS and VmHWM of a process, MB (Linux /proc). */
export function procMemory(pid: number): { rssMB: number; peakMB: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return { rssMB: kb("VmRSS") / 1024, peakMB: kb("VmHWM") / 1024 };
}

/** Start the built `phctl serve` and create the tenants' projects through the API. */
export async function startFuzzServer(dir: string, o: FuzzServerOptions): Promise<FuzzServer> {
  const tenants = fuzzTenants();
  const hook = join(dir, "fuzz-hook.cjs");
  writeFileSync(hook, HOOK);
  const args = ["--expose-gc", "--require", hook, o.main ?? MAIN, "serve", "--port", "0"];
  for (const t of tenants) args.push("--token", `${t.token}:system-admin:${t.name}`);
  if (o.db) args.push("--db", o.db);
  if (o.control) args.push("--control");
  if (o.requestLog !== undefined) args.push("--request-log", String(o.requestLog));
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe", "ipc"] });
  let err = "";
  child.stderr!.on("data", (b: Buffer) => (err += b.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (b: Buffer) => {
      out += b.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once("exit", () => reject(new Error(`serve exited: ${out}${err}`)));
  });
  for (const t of tenants) {
    for (const slug of [...t.lifecycle, ...t.targets]) {
      const res = await fetch(`${url}/v1/projects`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json" },
        body: JSON.stringify({ name: slug, description: "fuzz", projectSlug: slug }),
      });
      if (res.status !== 201) throw new Error(`creating project ${slug}: ${res.status}`);
      await res.body?.cancel();
    }
  }
  let next = 0;
  return {
    url,
    child,
    tenants,
    memory: () =>
      new Promise((resolve) => {
        const id = ++next;
        const proc = procMemory(child.pid!);
        const on = (m: {
          type?: string;
          id?: number;
          heapUsed: number;
          heapTotal: number;
          external: number;
        }) => {
          if (m.type !== "memory" || m.id !== id) return;
          child.off("message", on);
          resolve({
            ...proc,
            heapMB: m.heapUsed / MB,
            heapTotalMB: m.heapTotal / MB,
            externalMB: m.external / MB,
          });
        };
        child.on("message", on);
        child.send({ type: "memory", id });
      }),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** What one run of the driver saw. */
export interface FuzzRun {
  requests: number;
  wallMs: number;
  /** Answers by family and status ("none": no answer). */
  statuses: Record<Family, Record<string, number>>;
  /** 5xx other than the fork-cleanup 500: how many, and the first few. */
  unexpected: number;
  unexpectedExamples: string[];
  /** Requests that got no answer (the connection closed first), and the first few. */
  noAnswer: number;
  noAnswerExamples: string[];
}

/** Is this answer a 5xx the spec does not explain? (The fork-cleanup 500 says "retry later".) */
export function unexplained5xx(status: number, body: unknown): boolean {
  if (status < 500) return false;
  const message = (body as { status?: { message?: unknown } } | undefined)?.status?.message;
  return !(status === 500 && typeof message === "string" && /retry later$/.test(message));
}

/**
 * A plan and its ledger for a server's tenants (`seed` makes the run reproducible).
 */
export function fuzzPlan(
  server: FuzzServer,
  seed: number,
  weights?: Record<Family, number>,
): { plan: FuzzPlan; ledger: IdLedger } {
  const ledger = new IdLedger();
  return { plan: new FuzzPlan(seed, server.tenants, ledger, weights), ledger };
}

/** Send `requests` requests of `plan`, `concurrency` at a time over keep-alive connections. */
export async function drive(
  server: FuzzServer,
  plan: FuzzPlan,
  o: { requests: number; concurrency: number },
): Promise<FuzzRun> {
  const pool = new Pool(server.url, { connections: o.concurrency, pipelining: 1 });
  const run: FuzzRun = {
    requests: o.requests,
    wallMs: 0,
    statuses: { lifecycle: {}, deep: {}, malformed: {}, random: {} },
    unexpected: 0,
    unexpectedExamples: [],
    noAnswer: 0,
    noAnswerExamples: [],
  };
  const count = (f: Family, key: string) =>
    (run.statuses[f][key] = (run.statuses[f][key] ?? 0) + 1);
  const shown = (method: string, path: string) =>
    `${method} ${path.length > 100 ? `${path.slice(0, 100)}…` : path}`;
  let sent = 0;
  const started = performance.now();
  const worker = async () => {
    while (sent < o.requests) {
      sent++;
      const r = plan.next();
      let status: number;
      let body: unknown;
      try {
        const res = await pool.request({
          method: r.method,
          path: r.path,
          headers: r.headers,
          ...(r.body !== undefined ? { body: r.body } : {}),
          headersTimeout: 60_000,
          bodyTimeout: 60_000,
        });
        status = res.statusCode;
        const text = await res.body.text();
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = text;
        }
      } catch (e) {
        count(r.family, "none");
        run.noAnswer++;
        if (run.noAnswerExamples.length < 10)
          run.noAnswerExamples.push(
            `${shown(r.method, r.path)} (${r.family}): ${(e as Error).message}`,
          );
        r.answered?.(0, undefined);
        continue;
      }
      count(r.family, String(status));
      if (unexplained5xx(status, body)) {
        run.unexpected++;
        if (run.unexpectedExamples.length < 10) {
          const message = (body as { status?: { message?: string } } | undefined)?.status?.message;
          run.unexpectedExamples.push(
            `${status} ${shown(r.method, r.path)} (${r.family}): ${message ?? "(no message)"}`,
          );
        }
      }
      r.answered?.(status, body);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  run.wallMs = performance.now() - started;
  await pool.close();
  return run;
}
