/**
 * Per-call metrics of one client: calls, attempts, retries (and why), errors and latency
 * by operation. The CLI prints `summary()` with --verbose; the benchmark reads
 * `snapshot()`. Keys are operation ids (or `METHOD /raw/path` for calls outside the route
 * table) — never a URL with ids or a header.
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
  totalMs: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

/** Everything the client counted since it was created (or since `reset()`). */
export interface MetricsSnapshot {
  calls: number;
  attempts: number;
  retries: number;
  errors: number;
  /** Time from the first call's start to the last call's end, ms. */
  wallMs: number;
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
  attempts: number;
  retries: number;
  errors: number;
  durations: number[];
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round(sorted[Math.max(0, i)] * 10) / 10;
}

/** Reason words used as keys: drop the numbers of a Retry-After so reasons group. */
function reasonKey(reason: string): string {
  return reason.replace(/Retry-After \d+ ms/, "Retry-After");
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
      a = { calls: 0, attempts: 0, retries: 0, errors: 0, durations: [] };
      this.byOp.set(key, a);
    }
    return a;
  }

  /** A call is starting (for the wall-clock span). */
  started(at: number): void {
    if (this.first === undefined || at < this.first) this.first = at;
  }

  /** A retry is about to wait. */
  retried(key: string, reason: string): void {
    this.acc(key).retries++;
    const k = reasonKey(reason);
    this.reasons.set(k, (this.reasons.get(k) ?? 0) + 1);
  }

  /** A call ended (after all its attempts). */
  finished(key: string, attempts: number, ms: number, ok: boolean): void {
    const a = this.acc(key);
    a.calls++;
    a.attempts += attempts;
    if (!ok) a.errors++;
    a.durations.push(ms);
    this.last = Math.max(this.last, performance.now());
  }

  /** An outage ended (or the client gave up on it) after `ms` paused and `probes` probes. */
  paused(ms: number, probes: number): void {
    this.outages++;
    this.pausedMs += ms;
    this.probes += probes;
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
    for (const [key, a] of [...this.byOp].sort(([x], [y]) => x.localeCompare(y))) {
      const sorted = [...a.durations].sort((x, y) => x - y);
      const totalMs = Math.round(sorted.reduce((s, d) => s + d, 0) * 10) / 10;
      byOperation[key] = {
        calls: a.calls,
        attempts: a.attempts,
        retries: a.retries,
        errors: a.errors,
        totalMs,
        p50Ms: percentile(sorted, 50),
        p95Ms: percentile(sorted, 95),
        maxMs: percentile(sorted, 100),
      };
      calls += a.calls;
      attempts += a.attempts;
      retries += a.retries;
      errors += a.errors;
    }
    return {
      calls,
      attempts,
      retries,
      errors,
      wallMs: this.first === undefined ? 0 : Math.round(this.last - this.first),
      retryReasons: Object.fromEntries(this.reasons),
      budgetDenied: this.budgetDenied(),
      outages: this.outages,
      pausedMs: Math.round(this.pausedMs),
      probes: this.probes,
      byOperation,
    };
  }

  /** Lines for `--verbose`: a total, the retry reasons, then one line per operation. */
  summary(): string[] {
    const s = this.snapshot();
    const lines = [
      `api: ${plural(s.calls, "call")}, ${plural(s.attempts, "request")}, ${plural(s.retries, "retry", "retries")}, ${plural(s.errors, "error")} in ${s.wallMs} ms`,
    ];
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
          ` p50 ${o.p50Ms} ms, p95 ${o.p95Ms} ms, max ${o.maxMs} ms`,
      );
    }
    return lines;
  }
}
