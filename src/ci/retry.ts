/**
 * How the CI platform clients (github.ts, gitlab.ts) retry, and the one error they throw.
 * Conservative, as the API client's retry.ts and octokit's plugin-retry/plugin-throttling:
 *
 * - a rate limit (429; GitHub's 403 with Retry-After, an exhausted X-RateLimit-Remaining or
 *   "secondary rate limit") was not processed: wait as told (capped) and send it again,
 *   whatever the method;
 * - a request that never left (connection refused, DNS) is sent again, whatever the method;
 * - reads and updates of the same body (GET, PUT, PATCH) are sent again on 5xx, a dropped
 *   connection or a timeout;
 * - a POST that failed without an answer (5xx, reset, timeout) is NOT sent again here: it
 *   may have landed. It surfaces as an `ambiguous` CiHttpError and the caller looks first
 *   (sticky.ts re-lists the comments) before sending it once more.
 */
import { classifyFailure } from "../api/transport.js";

/** A platform call that failed. The message never contains a token. */
export class CiHttpError extends Error {
  constructor(
    /** HTTP status; undefined when no answer came (reset, timeout, refused). */
    readonly status: number | undefined,
    /** What the platform said (its `message`), or what went wrong on the wire. */
    readonly platformMessage: string,
    /** A write that may have taken effect although it failed. */
    readonly ambiguous: boolean,
  ) {
    super(status === undefined ? platformMessage : `${status} ${platformMessage}`);
    this.name = "CiHttpError";
  }
}

/** One failed attempt, as a client sees it. */
export interface Failure {
  status?: number;
  message: string;
  /** The request never reached the server (safe to send again). */
  notSent?: boolean;
  /** The server asked to come back later, after this long (ms). */
  retryAfterMs?: number;
}

export interface RetryPolicy {
  /** Retries of a 5xx / dropped read or update. */
  maxRetries: number;
  /** Retries after rate limits. */
  maxRateLimitRetries: number;
  baseDelayMs: number;
  /** The longest wait a rate limit may impose; longer → the error surfaces. */
  maxWaitMs: number;
  /** Per attempt. */
  timeoutMs: number;
}

export const DEFAULT_POLICY: RetryPolicy = {
  maxRetries: 2,
  maxRateLimitRetries: 3,
  baseDelayMs: 300,
  maxWaitMs: 60_000,
  timeoutMs: 30_000,
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Retry-After (seconds or an HTTP date), or an X-RateLimit-Reset epoch, as a wait in ms. */
export function waitFromHeaders(headers: Record<string, unknown>): number | undefined {
  const get = (name: string) => {
    const v = headers[name];
    return typeof v === "string" ? v : Array.isArray(v) ? String(v[0]) : undefined;
  };
  const after = get("retry-after");
  if (after !== undefined) {
    const s = Number(after);
    if (Number.isFinite(s)) return Math.max(0, s * 1000);
    const at = Date.parse(after);
    if (Number.isFinite(at)) return Math.max(0, at - Date.now());
  }
  if (get("x-ratelimit-remaining") === "0") {
    const reset = Number(get("x-ratelimit-reset"));
    if (Number.isFinite(reset)) return Math.max(0, reset * 1000 - Date.now());
  }
  return undefined;
}

/** A wire error (no answer) described for people and classified. */
export function wireFailure(e: unknown): Failure {
  const f = classifyFailure(e);
  return {
    message: f.timeout ? `no answer (timeout, ${f.code})` : `no answer (${f.code}: ${f.message})`,
    notSent: !f.sent,
  };
}

/**
 * Run `attempt` until it succeeds or may not be retried; throws a CiHttpError. `describe`
 * turns whatever the attempt threw into a Failure (the client knows its library's errors).
 */
export async function retrying<T>(
  method: string,
  attempt: () => Promise<T>,
  describe: (e: unknown) => Failure,
  policy: RetryPolicy = DEFAULT_POLICY,
): Promise<T> {
  const idempotent = method !== "POST";
  let retries = 0;
  let limited = 0;
  for (;;) {
    let f: Failure;
    try {
      return await attempt();
    } catch (e) {
      if (e instanceof CiHttpError) throw e;
      f = describe(e);
    }
    const failedBlind = f.status === undefined || f.status >= 500;
    if (f.retryAfterMs !== undefined) {
      if (f.retryAfterMs <= policy.maxWaitMs && limited++ < policy.maxRateLimitRetries) {
        await sleep(f.retryAfterMs);
        continue;
      }
    } else if (f.notSent && retries++ < policy.maxRetries) {
      await sleep(policy.baseDelayMs * 2 ** (retries - 1));
      continue;
    } else if (idempotent && failedBlind && retries++ < policy.maxRetries) {
      await sleep(policy.baseDelayMs * 2 ** (retries - 1));
      continue;
    }
    const message =
      f.retryAfterMs !== undefined
        ? `${f.message} (rate limited: asked to wait ${Math.ceil(f.retryAfterMs / 1000)} s)`
        : f.message;
    throw new CiHttpError(f.status, message, !idempotent && failedBlind && !f.notSent);
  }
}
