/**
 * The scenarios that run phctl's CLI in a child process (apply, apply from empty, export),
 * measured against a server whose request log counts the calls. bench/run.ts runs them
 * against `phctl serve` in a child process; the smoke test against an in-process server.
 */
import { cpus } from "node:os";
import { resolve } from "node:path";
import type { ApiClient } from "../src/api/client.js";
import { planGraph } from "../src/engine/apply.js";
import { runPlanWithLive } from "../src/engine/run-plan.js";
import type { DesiredState } from "../src/manifest/types.js";
import type { RequestLogEntry } from "../src/server/app.js";
import { apiTime, applyBound, splitApplyLog, type ApplyBound } from "./bound.js";
import { fmtS } from "./report.js";
import { clearLog, MAIN, processCpuMs, readLog, runNode, type Exit } from "./serve.js";
import { rmSync } from "node:fs";

/** Where and how phctl's child processes run. */
export interface Children {
  url: string;
  token: string;
  /** The exit hook (serve.ts `writeExitHook`). */
  hook: string;
  /** Their working directory. */
  work: string;
}

/** One line of `phctl --json apply`. */
export interface ApplyEventLine {
  event: string;
  time: string;
  id?: string;
  kind?: string;
  action?: string;
  durationMs?: number;
  message?: string;
  queueId?: string;
}

const env = (ch: Children) => ({ PHCTL_TOKEN: ch.token, PHCTL_API_URL: ch.url, NO_COLOR: "1" });

/** `phctl --json apply DIR --auto-approve --concurrency N`, the log cleared before. */
export async function applyCli(ch: Children, api: ApiClient, dir: string, concurrency: number) {
  await clearLog(api);
  const r = await runNode(
    [MAIN, "--json", "apply", dir, "--auto-approve", "--concurrency", String(concurrency)],
    { env: env(ch), hook: ch.hook, cwd: ch.work },
  );
  const events = r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as ApplyEventLine)
    .filter((e) => typeof e.time === "string");
  if (r.code !== 0) {
    const failed = events.filter((e) => e.event === "action-failed").slice(0, 3);
    throw new Error(
      `apply failed (${r.code}): ${r.stderr.slice(0, 2000)}${failed.map((e) => `\n  ${e.id}: ${e.message}`).join("")}`,
    );
  }
  return { r, events, log: await readLog(api) };
}

/** `phctl export --organization acme --out OUT --format json --concurrency N`, the log cleared before. */
export async function exportCli(ch: Children, api: ApiClient, out: string, concurrency: number) {
  await clearLog(api);
  const r = await runNode(
    [
      MAIN,
      "export",
      "--organization",
      "acme",
      "--out",
      out,
      "--format",
      "json",
      "--concurrency",
      String(concurrency),
    ],
    { env: env(ch), hook: ch.hook, cwd: ch.work },
  );
  if (r.code !== 0) throw new Error(`export failed (${r.code}): ${r.stderr}`);
  const calls = (await readLog(api)).length;
  const said = (JSON.parse(r.stdout) as { apiCalls: number }).apiCalls;
  return { r, calls, said };
}

export interface EmptyRun {
  r: Exit;
  events: ApplyEventLine[];
  log: RequestLogEntry[];
  /** Actions in the plan's DAG. */
  actions: number;
  /** Calls of the plan of the empty server (the CLI's first phase). */
  planCalls: number;
  parts: ReturnType<typeof splitApplyLog<RequestLogEntry>>;
  walkApiMs: number;
  bound: ApplyBound;
  /** apply-started → the last action done (the CLI's event times). */
  walkMs: number;
  started: number;
  lastDone: number;
  applyDone: number;
  /** The server's CPU during the apply (NaN when it is not a child process on Linux). */
  serverCpuMs: number;
  failed: number;
}

/**
 * Apply from empty: plan the empty server here (the DAG the CLI will walk, and how many
 * calls its plan makes), run the CLI apply, then `planAfter` (must be empty: its calls are
 * the verification's re-read) and hold the walk to `applyBound`.
 */
export async function emptyApplyRun(o: {
  ch: Children;
  api: ApiClient;
  state: DesiredState;
  dir: string;
  concurrency: number;
  means: ReadonlyMap<string, number>;
  planAfter: () => Promise<{ entries: number; calls: number }>;
  serverPid?: number;
}): Promise<EmptyRun> {
  await clearLog(o.api);
  const { plan } = await runPlanWithLive({ api: o.api, state: o.state, apiUrl: o.ch.url });
  const graph = planGraph(plan.entries);
  const planCalls = (await readLog(o.api)).length;
  // The journal of the apply below lives beside the config's phctl.yaml.
  rmSync(resolve(o.ch.work, o.dir, ".phctl"), { recursive: true, force: true });
  const cpu0 = processCpuMs(o.serverPid);
  const { r, events, log } = await applyCli(o.ch, o.api, o.dir, o.concurrency);
  const serverCpuMs = processCpuMs(o.serverPid) - cpu0;
  const after = await o.planAfter();
  if (after.entries) throw new Error(`apply from empty: ${after.entries} plan entries remain`);
  const parts = splitApplyLog(log, planCalls, after.calls);
  const walkApiMs = apiTime(parts.walk);
  const t = (e: ApplyEventLine | undefined) => (e ? Date.parse(e.time) : NaN);
  const started = t(events.find((e) => e.event === "apply-started"));
  const lastDone = Math.max(...events.filter((e) => e.event === "action-done").map(t));
  return {
    r,
    events,
    log,
    actions: graph.nodes.size,
    planCalls,
    parts,
    walkApiMs,
    bound: applyBound(graph, o.means, walkApiMs, o.concurrency),
    walkMs: lastDone - started,
    started,
    lastDone,
    applyDone: t(events.find((e) => e.event === "apply-done")),
    serverCpuMs,
    failed: events.filter((e) => e.event === "action-failed").length,
  };
}

/** Where an apply from empty's time went: phases, kinds, job waits, operations. */
export function emptyDiagnosis(
  x: EmptyRun,
  alone: ReadonlyMap<string, number>,
  concurrency: number,
): string[] {
  const t = (e: ApplyEventLine) => Date.parse(e.time);
  const kinds = new Map<string, { n: number; ms: number; lastEnd: number; firstStart: number }>();
  const startedAt = new Map<string, number>();
  for (const e of x.events) {
    if (e.event === "action-started") startedAt.set(e.id!, t(e));
    if (e.event !== "action-done") continue;
    const type = `${e.action} ${e.kind}`;
    const k = kinds.get(type) ?? { n: 0, ms: 0, lastEnd: 0, firstStart: Infinity };
    k.n++;
    k.ms += e.durationMs ?? 0;
    k.lastEnd = Math.max(k.lastEnd, t(e) - x.started);
    k.firstStart = Math.min(k.firstStart, (startedAt.get(e.id!) ?? x.started) - x.started);
    kinds.set(type, k);
  }
  const waits: number[] = [];
  const waitingSince = new Map<string, number>();
  for (const e of x.events) {
    if (e.event === "job-waiting") waitingSince.set(e.queueId!, t(e));
    if (e.event === "job-done" && waitingSince.has(e.queueId!))
      waits.push(t(e) - waitingSince.get(e.queueId!)!);
  }
  const ops = new Map<string, { n: number; ms: number }>();
  for (const e of x.parts.walk) {
    const op = e.operation ?? `${e.method} ?`;
    const o = ops.get(op) ?? { n: 0, ms: 0 };
    o.n++;
    o.ms += e.ms;
    ops.set(op, o);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
  const byKind = [...kinds]
    .sort((a, b) => a[1].lastEnd - b[1].lastEnd)
    .map(
      ([type, k]) =>
        `${type} ×${k.n}: ${Math.round(k.ms / k.n)} ms each (alone ${Math.round(alone.get(type) ?? NaN)} ms), ${fmtS(k.firstStart)}–${fmtS(k.lastEnd)}`,
    );
  const byOp = [...ops]
    .sort((a, b) => b[1].ms - a[1].ms)
    .map(([op, o]) => `${op} ×${o.n} ${Math.round(o.ms / o.n)} ms`);
  const b = x.bound;
  return [
    `process wall ${fmtS(x.r.wallMs)} = start + load + plan ${fmtS(x.started - x.r.startedAt)} (${x.parts.plan.length} calls) + walk ${fmtS(x.walkMs)} (${x.parts.walk.length} calls) + verify ${fmtS(x.applyDone - x.lastDone)} (${x.parts.verify.length} calls) + exit ${fmtS(x.r.startedAt + x.r.wallMs - x.applyDone)}; CPU: phctl ${fmtS(x.r.cpuMs)}, server ${fmtS(x.serverCpuMs)} (${cpus().length} cores)`,
    `bound = critical path ${fmtS(b.criticalPathMs)} (${b.path.map((p) => `${p.id} ${Math.round(p.ms)} ms`).join(" → ")}) + walk API time ${fmtS(x.walkApiMs)} / ${concurrency} = ${fmtS(b.boundMs)}; walk / bound = ${(x.walkMs / b.boundMs).toFixed(2)} (target ≤ 1.5); requests in flight on average during the walk (API time / walk) ${(x.walkApiMs / x.walkMs).toFixed(1)} of ${concurrency}${b.uncalibrated.length ? `; not calibrated (weight 0): ${b.uncalibrated.join(", ")}` : ""}`,
    `by kind (mean duration under load vs alone; first start – last end after apply-started): ${byKind.join("; ")}; queued jobs: ${waits.length}, waited ${Math.round(mean(waits))} ms on average, longest ${Math.round(Math.max(0, ...waits))} ms`,
    `walk requests by operation (count, server time each, latency included): ${byOp.join(", ")}`,
  ];
}
