/**
 * The processes of a crash trial (bench/crash.ts): `phctl serve` on its own SQLite file in
 * a child process, the CLI run to completion or SIGKILLed, and what is left afterwards —
 * the server's request log and, once the server is stopped, its store read with
 * better-sqlite3. Nothing here judges; `crash-checks.ts` does.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import Database from "better-sqlite3";
import type { RequestLogEntry } from "../src/server/app.js";
import { MAIN } from "./serve.js";

/** The seeded PRNG of the kill moments: the server's own (its faults use it too). */
export { prng } from "../src/server/faults.js";

/** A free loopback port (for a server that must come back on the same one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      s.close(() => (typeof a === "object" && a ? resolve(a.port) : reject(new Error("no port"))));
    });
  });
}

export interface ServeFlags {
  db: string;
  /** The bearer secret; the token is `SECRET:system-admin:acme`. */
  token: string;
  /** Default 0: any free port. */
  port?: number;
  queueDelay?: number;
  latency?: number;
  faultRate?: number;
  faultSeed?: number;
}

/** A `phctl serve` child process. */
export interface Served {
  url: string;
  child: ChildProcess;
  /** What it printed on stderr so far. */
  stderr(): string;
  /** SIGTERM (a graceful close: the store is checkpointed), resolved once it exited. */
  stop(): Promise<void>;
}

/** Start `node dist/cli/main.js serve …`; resolves once it printed its URL. */
export async function startServe(f: ServeFlags): Promise<Served> {
  const args = [MAIN, "serve", "--port", String(f.port ?? 0), "--db", f.db];
  args.push("--token", `${f.token}:system-admin:acme`);
  args.push("--control", "--request-log", "1000000");
  if (f.queueDelay !== undefined) args.push("--queue-delay", String(f.queueDelay));
  if (f.latency !== undefined) args.push("--latency", String(f.latency));
  if (f.faultRate !== undefined) args.push("--fault-rate", String(f.faultRate));
  if (f.faultSeed !== undefined) args.push("--fault-seed", String(f.faultSeed));
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  child.stderr.on("data", (b: Buffer) => (err += b.toString()));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (b: Buffer) => {
      out += b.toString();
      const m = /phctl reference server listening on (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    void exited.then(() => reject(new Error(`phctl serve exited: ${out}${err}`)));
  });
  return {
    url,
    child,
    stderr: () => err,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** One CLI run. */
export interface CliRun {
  args: string[];
  /** Exit code, or null when killed. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** When this harness SIGKILLed it, ms after spawn (undefined: it exited on its own). */
  killedAtMs?: number;
  stdout: string;
  stderr: string;
  /** From spawn to exit. */
  wallMs: number;
}

export interface CliOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** SIGKILL the process this long after spawn, if it is still running. */
  killAfterMs?: number;
  /** Give up (SIGKILL) after this long; default 10 minutes. */
  timeoutMs?: number;
}

/** The environment of a CLI run: ours, minus CI, plus `env` (undefined removes). */
export function cliEnv(env: Record<string, string | undefined>): Record<string, string> {
  const full: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", ...env };
  delete full.CI;
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete full[k];
  return Object.fromEntries(
    Object.entries(full).filter((e): e is [string, string] => e[1] !== undefined),
  );
}

/** A CLI process under way. */
export interface RunningCli {
  /** SIGKILL it now, if it is still running; false when it had exited. */
  kill(): boolean;
  done: Promise<CliRun>;
}

/** Start `node dist/cli/main.js ARGS` in `cwd`, maybe SIGKILLing it at `killAfterMs`. */
export function startCli(args: string[], o: CliOptions): RunningCli {
  const started = performance.now();
  const child = spawn(process.execPath, [MAIN, ...args], {
    cwd: o.cwd,
    env: cliEnv(o.env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (b: Buffer) => out.push(b));
  child.stderr.on("data", (b: Buffer) => err.push(b));
  const alive = () => child.exitCode === null && child.signalCode === null;
  let killedAtMs: number | undefined;
  const kill = () => {
    if (!alive()) return false;
    killedAtMs = Math.round(performance.now() - started);
    return child.kill("SIGKILL");
  };
  const timers = [
    setTimeout(() => alive() && child.kill("SIGKILL"), o.timeoutMs ?? 600_000),
    ...(o.killAfterMs !== undefined ? [setTimeout(kill, o.killAfterMs)] : []),
  ];
  const done = new Promise<CliRun>((resolve, reject) => {
    let wallMs = NaN;
    child.on("error", reject);
    child.on("exit", () => (wallMs = performance.now() - started));
    child.on("close", (code, signal) => {
      for (const t of timers) clearTimeout(t);
      resolve({
        args,
        code,
        signal,
        ...(killedAtMs !== undefined ? { killedAtMs } : {}),
        stdout: Buffer.concat(out).toString(),
        stderr: Buffer.concat(err).toString(),
        wallMs,
      });
    });
  });
  return { kill, done };
}

/** Run `node dist/cli/main.js ARGS` in `cwd` to its end (or its SIGKILL at `killAfterMs`). */
export const runCli = (args: string[], o: CliOptions): Promise<CliRun> => startCli(args, o).done;

/** The server's request log (GET /_control/requests; the /_control calls are not in it). */
export async function requestLog(url: string, token: string): Promise<RequestLogEntry[]> {
  const res = await fetch(`${url}/_control/requests`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok) throw new Error(`GET /_control/requests: ${res.status}`);
  return ((await res.json()) as { data: RequestLogEntry[] }).data;
}

/** A queued job as stored (`jobs` table). */
export interface StoredJob {
  action: string;
  payload: Record<string, unknown>;
  status: string;
}

/** What a trial reads from the store file once the server is stopped. */
export interface Store {
  jobs: StoredJob[];
  /** Welcome mails per username (the outbox's recipients are main e-mails). */
  welcomes: Map<string, number>;
  /** Recipients of welcome mails that are no user's e-mail. */
  strangers: string[];
}

/** Read the store file (read-only) after the run. */
export function readStore(file: string): Store {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const jobs = db.prepare("SELECT action, payload, status FROM jobs ORDER BY created").all() as {
      action: string;
      payload: string;
      status: string;
    }[];
    const users = db.prepare("SELECT username, email FROM users").all() as {
      username: string;
      email: string;
    }[];
    const byEmail = new Map(users.map((u) => [u.email.toLowerCase(), u.username]));
    const mails = db.prepare("SELECT recipients FROM outbox WHERE kind = 'welcome'").all() as {
      recipients: string;
    }[];
    const welcomes = new Map<string, number>();
    const strangers: string[] = [];
    for (const m of mails) {
      for (const r of JSON.parse(m.recipients) as string[]) {
        const u = byEmail.get(r.toLowerCase());
        if (u) welcomes.set(u, (welcomes.get(u) ?? 0) + 1);
        else strangers.push(r);
      }
    }
    return {
      jobs: jobs.map((j) => ({ ...j, payload: JSON.parse(j.payload) as Record<string, unknown> })),
      welcomes,
      strangers,
    };
  } finally {
    db.close();
  }
}
