/**
 * Per-call metrics of one client: calls, attempts, retries (and why), errors, latency and
 * queueing by operation. Latency is an attempt's time on the wire, from send to answer;
 * queueing — the wait for the client-side throttle and a concurrency slot before it — is
 * counted apart, so a 20 ms service reads as 20 ms however long requests queue. The CLI
 * prints `summary()` with --verbose; the benchmark reads `snapshot()`. Keys are operation
 * ids (or `METHOD /raw/path` for calls outside the route table) — never a URL with ids or
 * a header.
 */
import { humanDuration } from "./errors.js";

/** Latency and counts of one operation. */
export interface OperationStats {
  calls: number;
  /** Requests sent (calls + retries). */
  attempts: number;
  retries: number;
  /** Calls that ended in an error. */
  errors: number;
  /** Time on the wire (send to answer) of every request, in all, ms. */
  totalMs: number;
  /** Per request, send to answer. */
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** Per request, the wait for the throttle and a concurrency slot before it was sent. */
  queuedP50Ms: number;
  queuedP95Ms: number;
  queuedMaxMs: number;
}

/** Everything the client counted since it was created (or since `reset()`). */
export interface MetricsSnapshot {
  calls: number;
  attempts: number;
  retries: number;
  errors: number;
  /** Time from the first call's start to the last call's end, ms. */
  wallMs: number;
  /** Waits for the throttle and a concurrency slot, every request, ms. */
  queued: { p50Ms: number; p95Ms: number; maxMs: number; totalMs: number };
  /** Retries by reason (`503`, `429, Retry-After 1000 ms`, `connection UND_ERR_SOCKET`, …). */
  retryReasons: Record<string, number>;
  /** Retries the client-wide retry budget refused (each closed the outage gate). */
  budgetDenied: number;
  /** Outages: times the outage gate closed and every call paused. */
  outages: number;
  /** Time the outage gate was closed, in all, ms. */
  pausedMs: number;
  /** Probes sent while it was closed (not counted in `attempts`: they are not calls). */
  probes: number;
  byOperation: Record<string, OperationStats>;
}

interface Acc {
  calls: number;
  retries: number;
  errors: number;
  /** Per request sent: send to answer, and the wait before it, ms. */
  latencies: number[];
  queued: number[];
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return round(sorted[Math.max(0, i)]);
}

const sortedCopy = (xs: readonly number[]) => Float64Array.from(xs).sort();
const sum = (xs: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i];
  return s;
};

/** Reason words used as keys: drop the numbers of a Retry-After so reasons group. */
function reasonKey(reason: string): string {
  return reason.replace(/Retry-After \d+ ms/, "Retry-After");
}

/** `p50 20 ms, p95 31 ms, max 45 ms` (whole milliseconds from 10 ms on). */
function spread(p50: number, p95: number, max: number): string {
  const ms = (x: number) => (x >= 10 ? Math.round(x).toLocaleString("en-US") : String(x));
  return `p50 ${ms(p50)} ms, p95 ${ms(p95)} ms, max ${ms(max)} ms`;
}

export class Metrics {
  private byOp = new Map<string, Acc>();
  private reasons = new Map<string, number>();
  private first: number | undefined;
  private last = 0;
  private outages = 0;
  private pausedMs = 0;
  private probes = 0;
  /** Set by the client: reads the budget's denied count. */
  budgetDenied: () => number = () => 0;

  private acc(key: string): Acc {
    let a = this.byOp.get(key);
    if (!a) {
      a = { calls: 0, retries: 0, errors: 0, latencies: [], queued: [] };
      this.byOp.set(key, a);
    }
    return a;
  }

  /** A call is starting (for the wall-clock span). */
  started(at: number): void {
    if (this.first === undefined || at < this.first) this.first = at;
  }

  /** A request was answered (or failed on the wire) after `queuedMs` waiting and `latencyMs` out. */
  attempted(key: string, queuedMs: number, latencyMs: number): void {
    const a = this.acc(key);
    a.queued.push(queuedMs);
    a.latencies.push(latencyMs);
  }

  /** A retry is about to wait. */
  retried(key: string, reason: string): void {
    this.acc(key).retries++;
    const k = reasonKey(reason);
    this.reasons.set(k, (this.reasons.get(k) ?? 0) + 1);
  }

  /** A call ended (after all its attempts). */
  finished(key: string, ok: boolean): void {
    const a = this.acc(key);
    a.calls++;
    if (!ok) a.errors++;
    this.last = Math.max(this.last, performance.now());
  }

  /** An outage ended (or the client gave up on it) after `ms` paused and `probes` probes. */
  paused(ms: number, probes: number): void {
    this.outages++;
    this.pausedMs += ms;
    this.probes += probes;
  }

  /** Calls ended since the start (or `reset()`): `snapshot().calls` without sorting every latency. */
  get calls(): number {
    let n = 0;
    for (const a of this.byOp.values()) n += a.calls;
    return n;
  }

  reset(): void {
    this.outages = 0;
    this.pausedMs = 0;
    this.probes = 0;
    this.byOp.clear();
    this.reasons.clear();
    this.first = undefined;
    this.last = 0;
  }

  snapshot(): MetricsSnapshot {
    const byOperation: Record<string, OperationStats> = {};
    let calls = 0;
    let attempts = 0;
    let retries = 0;
    let errors = 0;
    const allQueued: number[] = [];
    for (const [key, a] of [...this.byOp].sort(([x], [y]) => x.localeCompare(y))) {
      const lat = sortedCopy(a.latencies);
      const q = sortedCopy(a.queued);
      byOperation[key] = {
        calls: a.calls,
        attempts: a.latencies.length,
        retries: a.retries,
        errors: a.errors,
        totalMs: round(sum(lat)),
        p50Ms: percentile(lat, 50),
        p95Ms: percentile(lat, 95),
        maxMs: percentile(lat, 100),
        queuedP50Ms: percentile(q, 50),
        queuedP95Ms: percentile(q, 95),
        queuedMaxMs: percentile(q, 100),
      };
      calls += a.calls;
      attempts += a.latencies.length;
      retries += a.retries;
      errors += a.errors;
      for (const x of a.queued) allQueued.push(x);
    }
    const q = sortedCopy(allQueued);
    return {
      calls,
      attempts,
      retries,
      errors,
      wallMs: this.first === undefined ? 0 : Math.round(this.last - this.first),
      queued: {
        p50Ms: percentile(q, 50),
        p95Ms: percentile(q, 95),
        maxMs: percentile(q, 100),
        totalMs: Math.round(sum(q)),
      },
      retryReasons: Object.fromEntries(this.reasons),
      budgetDenied: this.budgetDenied(),
      outages: this.outages,
      pausedMs: Math.round(this.pausedMs),
      probes: this.probes,
      byOperation,
    };
  }

  /**
   * Lines for `--verbose`: a total, the wait before sending, the retry reasons, then one
   * line per operation (latency from send to answer; the wait before sending apart).
   */
  summary(): string[] {
    const s = this.snapshot();
    const lines = [
      `api: ${plural(s.calls, "call")}, ${plural(s.attempts, "request")}, ${plural(s.retries, "retry", "retries")}, ${plural(s.errors, "error")} in ${s.wallMs} ms`,
    ];
    if (s.attempts > 0)
      lines.push(
        `api: waiting to be sent (throttle, concurrency slot): ${spread(s.queued.p50Ms, s.queued.p95Ms, s.queued.maxMs)}`,
      );
    const reasons = Object.entries(s.retryReasons);
    if (reasons.length > 0)
      lines.push(`api: retries by reason: ${reasons.map(([r, n]) => `${r} ×${n}`).join(", ")}`);
    if (s.budgetDenied > 0)
      lines.push(`api: retry budget ran dry ${plural(s.budgetDenied, "time")} (calls paused)`);
    if (s.outages > 0)
      lines.push(
        `api: ${plural(s.outages, "outage")}: all calls paused ${humanDuration(s.pausedMs)} in all, ${plural(s.probes, "probe")}`,
      );
    for (const [op, o] of Object.entries(s.byOperation)) {
      lines.push(
        `api:   ${op} ×${o.calls}` +
          (o.retries ? ` (${o.retries} retries)` : "") +
          (o.errors ? ` (${o.errors} errors)` : "") +
          ` send to answer ${spread(o.p50Ms, o.p95Ms, o.maxMs)}; waited ${spread(o.queuedP50Ms, o.queuedP95Ms, o.queuedMaxMs)}`,
      );
    }
    return lines;
  }
}
