/**
 * When to send a request again, and how long to wait first. Conservative by design
 * (undici's RetryHandler and octokit's plugin-retry are the models):
 *
 * - idempotent requests (GET, HEAD, PUT, DELETE that do not queue a job) are retried on
 *   429 (after Retry-After, if it is under the cap), 500/502/503/504 and connection errors;
 * - a request that never left (connection refused, DNS, connect timeout) is retried
 *   whatever its method;
 * - the fork-cleanup 500 ("retry later") of `git.fork` is retried until a deadline: the
 *   server refused the fork, nothing was created;
 * - anything else — a POST, a PATCH, a queued PUT/DELETE — is never sent twice by this layer.
 *
 * Waits use exponential backoff with full jitter; every retry is bounded three ways: a
 * per-call retry limit, a per-call deadline, and a client-wide retry budget (a token
 * bucket that successes refill), so a storm cannot turn into a retry flood.
 */
import type { WireOutcome } from "./transport.js";

export interface RetryOptions {
  /** Retries per call (attempts = retries + 1). Default 5. */
  maxRetries: number;
  /** First backoff step, ms. Default 250. */
  baseDelayMs: number;
  /** Largest backoff step, ms. Default 8000. */
  maxDelayMs: number;
  /** Longest Retry-After the client will honour, ms; longer → the 429 is surfaced. Default 60 s. */
  maxRetryAfterMs: number;
  /** No retry may start after this much time since the call began, ms. Default 120 s. */
  deadlineMs: number;
  /** How long the fork-cleanup 500 is retried, ms. Default 120 s. */
  forkCleanupDeadlineMs: number;
  /** Client-wide retry budget: capacity (tokens); a retry costs 1. Default 100. */
  budget: number;
  /** Tokens a successful call puts back (capped at the capacity). Default 0.25. */
  budgetRefill: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxRetries: 5,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  deadlineMs: 120_000,
  forkCleanupDeadlineMs: 120_000,
  budget: 100,
  budgetRefill: 0.25,
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

/** Client-wide token bucket of retries. */
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

export interface DecideInput {
  cls: RetryClass;
  outcome: WireOutcome;
  /** Retries already made for this call. */
  retries: number;
  /** ms since the call started. */
  elapsedMs: number;
}

/**
 * Decide on one failed attempt (a non-2xx answer or a wire failure). Pure apart from the
 * jitter: the budget is checked by the caller, after a `retry: true`.
 */
export function decide(
  o: RetryOptions,
  { cls, outcome, retries, elapsedMs }: DecideInput,
  random: () => number = Math.random,
): Decision {
  const next = retries + 1;
  const backoff = () => backoffMs(next, o.baseDelayMs, o.maxDelayMs, random);
  /** A retry within the limits; the fork-cleanup wait is bounded by its deadline only. */
  const bounded = (delayMs: number, reason: string, forkWait = false): Decision => {
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
    const what = outcome.timeout ? "timeout" : `connection ${outcome.code}`;
    if (!outcome.sent) return bounded(backoff(), `${what} (not sent)`);
    if (cls.idempotent) return bounded(backoff(), what);
    return { retry: false, reason: `${what} after sending`, ambiguous: true };
  }

  const s = outcome.status;
  if (s === 429) {
    if (!cls.idempotent)
      return { retry: false, reason: "429 on a non-idempotent request", ambiguous: false };
    const after = parseRetryAfter(outcome.headers["retry-after"]);
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
    return bounded(delay, after === undefined ? "429" : `429, Retry-After ${after} ms`);
  }
  if (s === 500 && cls.forkCleanup && FORK_CLEANUP.test(messageOf(outcome.body))) {
    // The server refused the fork (nothing was created): wait as long as it asks, if it does.
    const after = parseRetryAfter(outcome.headers["retry-after"]);
    const delay = after !== undefined && after <= o.maxRetryAfterMs ? after : backoff();
    return bounded(delay, "fork cleanup in progress (500, retry later)", true);
  }
  if (RETRY_STATUSES.has(s)) {
    if (cls.idempotent) return bounded(backoff(), String(s));
    return { retry: false, reason: `${s} on a non-idempotent request`, ambiguous: true };
  }
  return { retry: false, reason: `${s} is not retryable`, ambiguous: false };
}
