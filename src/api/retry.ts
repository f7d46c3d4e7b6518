/**
 * When to send a request again, and how long to wait first. Conservative by design
 * (undici's RetryHandler and octokit's plugin-retry are the models):
 *
 * - idempotent requests (GET, HEAD, PUT, DELETE that do not queue a job) are retried on
 *   429 (after Retry-After, if it is under the cap), 500/502/503/504 and connection errors;
 * - a request the server did not process is retried whatever its method: one that never
 *   left (connection refused, DNS, connect timeout), a 429, and a 503 that says when to
 *   come back (Retry-After);
 * - the fork-cleanup 500 ("retry later") of `git.fork` is retried until a deadline: the
 *   server refused the fork, nothing was created;
 * - anything else — a POST, a PATCH, a queued PUT/DELETE — is never sent twice by this layer.
 *
 * Waits use exponential backoff with full jitter; every retry is bounded by a per-call retry
 * limit and a per-call deadline, and spends a token of a client-wide retry budget (a token
 * bucket that successes refill). An empty budget fails no call: it closes the client's
 * outage gate (outage.ts), which pauses every call instead of letting a storm turn into a
 * retry flood. Retries caused by an outage are bounded by the outage deadline only.
 */
import type { WireOutcome } from "./transport.js";

export interface RetryOptions {
  /**
   * Retries per call, not counting those caused by an outage. Default 10: at a 35 % random
   * fault rate a call fails only when 11 attempts in a row do, 0.35^11 ≈ 1e-5.
   */
  maxRetries: number;
  /** First backoff step, ms. Default 250. */
  baseDelayMs: number;
  /** Largest backoff step, ms. Default 8000. */
  maxDelayMs: number;
  /** Longest Retry-After the client will honour, ms; longer → the 429/503 is surfaced. Default 60 s. */
  maxRetryAfterMs: number;
  /** No retry may start after this much time since the call began, ms. Default 120 s. */
  deadlineMs: number;
  /** How long the fork-cleanup 500 is retried, ms. Default 120 s. */
  forkCleanupDeadlineMs: number;
  /** Client-wide retry budget: capacity (tokens); a retry costs 1. Default 100. */
  budget: number;
  /**
   * Tokens a successful call puts back (capped at the capacity). Default 1: the budget runs
   * dry only while retries outnumber successes (a failure rate above 50 %), which is
   * trouble across the board, not the noise of a flaky service (35 % faults cost 0.54
   * retries per success).
   */
  budgetRefill: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxRetries: 10,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  deadlineMs: 120_000,
  forkCleanupDeadlineMs: 120_000,
  budget: 100,
  budgetRefill: 1,
};

/** How a request may be retried (from its method and route). */
export interface RetryClass {
  /** Safe to send twice: GET/HEAD/PUT/DELETE of a route that does not queue a job. */
  idempotent: boolean;
  /** `git.fork`: its "retry later" 500 is retried until the fork deadline. */
  forkCleanup: boolean;
}

export type Decision =
  | { retry: true; delayMs: number; reason: string }
  | {
      retry: false;
      reason: string;
      /** A non-idempotent request may have taken effect. */
      ambiguous: boolean;
      /** It was retryable, but a limit (count, deadline, Retry-After cap) stopped it. */
      exhausted?: boolean;
    };

/**
 * Client-wide token bucket of retries. Running dry closes the outage gate (it never fails a
 * call); the gate refills it when it reopens.
 */
export class RetryBudget {
  private tokens: number;
  /** Retries refused because the bucket was empty. */
  denied = 0;

  constructor(
    private readonly capacity: number,
    private readonly refill: number,
  ) {
    this.tokens = capacity;
  }

  /** Take one retry's token; false when the budget is spent. */
  take(): boolean {
    if (this.tokens < 1) {
      this.denied++;
      return false;
    }
    this.tokens -= 1;
    return true;
  }

  success(): void {
    this.tokens = Math.min(this.capacity, this.tokens + this.refill);
  }

  /** Back to full capacity (the service answers again after an outage). */
  refillAll(): void {
    this.tokens = this.capacity;
  }

  get remaining(): number {
    return Math.floor(this.tokens * 100) / 100;
  }
}

/** Full jitter: a uniform wait in [0, min(cap, base·2^(retry-1))]. */
export function backoffMs(
  retry: number,
  base: number,
  cap: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(cap, base * 2 ** Math.max(0, retry - 1));
  return Math.round(random() * ceiling);
}

/** Retry-After as ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now: number = Date.now(),
): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === "") return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** `250 ms`, `2 s`, `1.5 s`. */
function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`;
}

const RETRY_STATUSES = new Set([500, 502, 503, 504]);
const FORK_CLEANUP = /retry later|try again later/i;

function messageOf(body: unknown): string {
  const m = (body as { status?: { message?: unknown } } | null)?.status?.message;
  return typeof m === "string" ? m : "";
}

/** `git.fork`'s "retry later" 500: a definite refusal (the service answered), not trouble. */
export function isForkCleanup(cls: RetryClass, outcome: WireOutcome): boolean {
  return (
    cls.forkCleanup &&
    outcome.kind === "response" &&
    outcome.status === 500 &&
    FORK_CLEANUP.test(messageOf(outcome.body))
  );
}

export interface DecideInput {
  cls: RetryClass;
  outcome: WireOutcome;
  /** Retries already made for this call. */
  retries: number;
  /** ms since the call started, not counting time paused at the outage gate. */
  elapsedMs: number;
  /**
   * The outage gate closed while this attempt was out (or is closed now): the retry is the
   * outage's, so the retry limit and the deadline do not apply to it.
   */
  outage?: boolean;
}

/**
 * Decide on one failed attempt (a non-2xx answer or a wire failure). Pure apart from the
 * jitter: the budget is checked by the caller, after a `retry: true`.
 */
export function decide(
  o: RetryOptions,
  { cls, outcome, retries, elapsedMs, outage = false }: DecideInput,
  random: () => number = Math.random,
): Decision {
  const next = retries + 1;
  const backoff = () => backoffMs(next, o.baseDelayMs, o.maxDelayMs, random);
  /** A retry within the limits; the fork-cleanup wait is bounded by its deadline only. */
  const bounded = (delayMs: number, reason: string, forkWait = false): Decision => {
    if (outage) return { retry: true, delayMs, reason };
    const deadline = forkWait ? o.forkCleanupDeadlineMs : o.deadlineMs;
    if (!forkWait && retries >= o.maxRetries)
      return {
        retry: false,
        reason: `retry limit ${o.maxRetries} reached`,
        ambiguous: false,
        exhausted: true,
      };
    if (elapsedMs + delayMs > deadline)
      return {
        retry: false,
        reason: `retry deadline ${duration(deadline)} reached`,
        ambiguous: false,
        exhausted: true,
      };
    return { retry: true, delayMs, reason };
  };

  if (outcome.kind === "failure") {
    // Never sent again; but a write that had left (cut short by the client's close) may
    // have landed: ambiguous, re-read first.
    if (outcome.permanent)
      return { retry: false, reason: outcome.code, ambiguous: outcome.sent && !cls.idempotent };
    const what = outcome.timeout
      ? "timeout"
      : `${outcome.proxy ? "proxy " : ""}connection ${outcome.code}`;
    if (!outcome.sent) return bounded(backoff(), `${what} (not sent)`);
    if (cls.idempotent) return bounded(backoff(), what);
    return { retry: false, reason: `${what} after sending`, ambiguous: true };
  }

  const s = outcome.status;
  const after = parseRetryAfter(outcome.headers["retry-after"]);
  // A 429 was not processed, whatever the method: send it again once the server allows.
  // A 503 is retried for every method only when it says when to come back (Retry-After):
  // that is a server (or a gateway's rate limiter, or a maintenance page) refusing the
  // request before handling it. A bare 503 may come from a proxy whose upstream dropped
  // the connection after the request was forwarded (Envoy's "upstream reset before
  // headers"), so for a POST/PATCH/queued request it stays ambiguous. The reference
  // server's random 503s strike before the handler and carry no Retry-After: they take
  // the safe, ambiguous path, which callers answer by re-reading by natural key.
  if (s === 429 || (s === 503 && after !== undefined)) {
    if (after !== undefined && after > o.maxRetryAfterMs)
      return {
        retry: false,
        reason: `Retry-After ${duration(after)} exceeds the ${duration(o.maxRetryAfterMs)} cap`,
        ambiguous: false,
        exhausted: true,
      };
    // Honour Retry-After exactly, plus a little jitter so a crowd does not come back at once.
    const delay =
      after === undefined ? backoff() : after + Math.round(random() * o.baseDelayMs * 0.5);
    return bounded(delay, after === undefined ? String(s) : `${s}, Retry-After ${after} ms`);
  }
  if (isForkCleanup(cls, outcome)) {
    // The server refused the fork (nothing was created): wait as long as it asks, if it does.
    const delay = after !== undefined && after <= o.maxRetryAfterMs ? after : backoff();
    return bounded(delay, "fork cleanup in progress (500, retry later)", true);
  }
  if (RETRY_STATUSES.has(s)) {
    if (cls.idempotent) return bounded(backoff(), String(s));
    return { retry: false, reason: `${s} on a non-idempotent request`, ambiguous: true };
  }
  return { retry: false, reason: `${s} is not retryable`, ambiguous: false };
}
