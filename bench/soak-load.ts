/**
 * The parts of the reference server soak (bench/soak.ts) that the test smoke shares:
 * `phctl serve` (the built CLI) in a child process with a preloaded hook that answers
 * memory samples over IPC (after a full GC, so a sample is the live heap), a fixed mix of
 * requests sent over keep-alive connections, and the flatness summary — the mean of the
 * last 10 % of the samples against the mean of the first 10 %.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Pool } from "undici";
import { MAIN } from "./serve.js";

export const SOAK_TOKEN = "soak-token-5b1e";
const AUTH = { authorization: `Bearer ${SOAK_TOKEN}` };
const JSON_AUTH = { ...AUTH, "content-type": "application/json" };

/** The server's memory at one moment, after a full GC (bytes). */
export interface MemorySample {
  requests: number;
  heapUsed: number;
  rss: number;
}

export interface SoakServer {
  url: string;
  child: ChildProcess;
  sample(requests: number): Promise<MemorySample>;
  stop(): Promise<void>;
}

/** A small tenant: users and projects the mix reads and writes (bounded: writes overwrite). */
export const SOAK_USERS = 50;
export const SOAK_PROJECTS = 20;

const HOOK = `process.on("message", (m) => {
  if (!m || m.type !== "sample") return;
  globalThis.gc?.();
  const u = process.memoryUsage();
  process.send({ type: "sample", id: m.id, heapUsed: u.heapUsed, rss: u.rss });
});\n`;

/**
 * Start `phctl serve` with the soak seed; `logSize` turns on /_control and the request log
 * at that size (`--control --request-log N`), undefined leaves both off (the default).
 */
export async function startSoakServer(dir: string, logSize?: number): Promise<SoakServer> {
  const seed = join(dir, "soak-seed.json");
  writeFileSync(
    seed,
    JSON.stringify({
      users: Array.from({ length: SOAK_USERS }, (_, i) => ({
        username: `u${i}`,
        firstName: "U",
        lastName: String(i),
        externalEmail: `u${i}@example.org`,
      })),
      projects: Array.from({ length: SOAK_PROJECTS }, (_, i) => ({ slug: `p${i}`, name: `P${i}` })),
    }),
  );
  const hook = join(dir, "soak-hook.cjs");
  writeFileSync(hook, HOOK);
  const args = ["--expose-gc", "--require", hook, MAIN, "serve", "--port", "0", "--seed", seed];
  args.push("--token", `${SOAK_TOKEN}:system-admin:acme`);
  if (logSize !== undefined) args.push("--control", "--request-log", String(logSize));
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
  let next = 0;
  return {
    url,
    child,
    sample: (requests) =>
      new Promise((resolve) => {
        const id = ++next;
        const on = (m: { type?: string; id?: number; heapUsed: number; rss: number }) => {
          if (m.type !== "sample" || m.id !== id) return;
          child.off("message", on);
          resolve({ requests, heapUsed: m.heapUsed, rss: m.rss });
        };
        child.on("message", on);
        child.send({ type: "sample", id });
      }),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

type Req = {
  method: "GET" | "POST" | "PUT" | "PATCH";
  path: string;
  body?: string;
  expect: number;
};

/** Request `i` of the mix: reads, a bounded write, and the 400/404/405 answers. */
export function soakRequest(i: number): Req {
  const p = `p${i % SOAK_PROJECTS}`;
  switch (i % 8) {
    case 0:
      return { method: "GET", path: "/v1/licenses", expect: 200 };
    case 1:
      return { method: "GET", path: `/v1/users?limit=10&page=${(i % 5) + 1}`, expect: 200 };
    case 2:
      return { method: "GET", path: `/v1/projects/${p}`, expect: 200 };
    case 3:
      return { method: "GET", path: `/v1/projects/missing-${i}`, expect: 404 };
    case 4:
      return {
        method: "PATCH",
        path: `/v1/projects/${p}`,
        body: JSON.stringify({ description: `soak ${i % 7}` }),
        expect: 200,
      };
    case 5:
      return { method: "POST", path: "/v1/projects", body: '{"name":null}', expect: 400 };
    case 6:
      return { method: "PUT", path: "/v1/licenses", expect: 405 };
    default:
      return { method: "GET", path: `/v1/users/u${i % SOAK_USERS}`, expect: 200 };
  }
}

export interface DriveResult {
  samples: MemorySample[];
  wallMs: number;
  /** Answers whose status was not the one the mix expects (should be 0). */
  unexpected: number;
}

/**
 * Send `requests` requests of the mix, `concurrency` at a time over keep-alive connections,
 * taking `samples` memory samples at even intervals (the first after 1/`samples` of them).
 */
export async function drive(
  server: SoakServer,
  o: { requests: number; concurrency: number; samples: number },
): Promise<DriveResult> {
  const pool = new Pool(server.url, { connections: o.concurrency, pipelining: 1 });
  const every = Math.max(1, Math.floor(o.requests / o.samples));
  const samples: MemorySample[] = [];
  let sent = 0;
  let done = 0;
  let unexpected = 0;
  const started = performance.now();
  let pendingSample: Promise<void> = Promise.resolve();
  const worker = async () => {
    while (sent < o.requests) {
      const r = soakRequest(sent++);
      const res = await pool.request({
        method: r.method,
        path: r.path,
        headers: r.body === undefined ? AUTH : JSON_AUTH,
        ...(r.body !== undefined ? { body: r.body } : {}),
      });
      await res.body.dump();
      if (res.statusCode !== r.expect) unexpected++;
      done++;
      if (done % every === 0 && samples.length < o.samples) {
        const at = done;
        pendingSample = pendingSample.then(async () => {
          samples.push(await server.sample(at));
        });
        await pendingSample;
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  await pendingSample;
  const wallMs = performance.now() - started;
  await pool.close();
  return { samples, wallMs, unexpected };
}

export interface Flatness {
  firstHeapMB: number;
  lastHeapMB: number;
  firstRssMB: number;
  lastRssMB: number;
  /** last / first, heap and RSS. */
  heapRatio: number;
  rssRatio: number;
}

const MB = 2 ** 20;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** First vs last 10 % of the samples (at least one each). */
export function flatness(samples: MemorySample[]): Flatness {
  const k = Math.max(1, Math.round(samples.length / 10));
  const first = samples.slice(0, k);
  const last = samples.slice(-k);
  const f = { heap: mean(first.map((s) => s.heapUsed)), rss: mean(first.map((s) => s.rss)) };
  const l = { heap: mean(last.map((s) => s.heapUsed)), rss: mean(last.map((s) => s.rss)) };
  return {
    firstHeapMB: f.heap / MB,
    lastHeapMB: l.heap / MB,
    firstRssMB: f.rss / MB,
    lastRssMB: l.rss / MB,
    heapRatio: l.heap / f.heap,
    rssRatio: l.rss / f.rss,
  };
}

/** The request log as /_control shows it to the soak's token. */
export async function readSoakLog(url: string): Promise<{ seq: number }[]> {
  const res = await fetch(`${url}/_control/requests`, { headers: AUTH });
  if (!res.ok) throw new Error(`GET /_control/requests: ${res.status}`);
  return ((await res.json()) as { data: { seq: number }[] }).data;
}
