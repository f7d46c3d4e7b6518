/**
 * The one `request()` every call goes through, as small layers around one wire attempt:
 *
 *   metrics ⟶ retry loop ⟶ outage gate ⟶ [ throttle ⟶ concurrency slot ⟶ auth ⟶ timeout ⟶ wire ] ⟶ error mapping
 *
 * The bracketed part is one attempt and the only time a concurrency slot is held; backoff
 * sleeps and waits at the outage gate happen outside it. A 2xx answer is returned; anything
 * else becomes an `ApiError` (or `AmbiguousRequestError` when a non-idempotent request may
 * have taken effect, or `OutageError` once the client gave up on an outage).
 */
import type { ApiKind, Base, Credentials } from "./auth.js";
import {
  AmbiguousRequestError,
  ApiError,
  codeOfStatus,
  readErrorBody,
  type RequestTarget,
} from "./errors.js";
import { foreignAnswer } from "./foreign-answer.js";
import type { FlowControl } from "./limit.js";
import type { Metrics } from "./metrics.js";
import type { OutageEvent, OutageGate } from "./outage.js";
import {
  decide,
  parseRetryAfter,
  type RetryBudget,
  type RetryClass,
  type RetryOptions,
} from "./retry.js";
import type { Transport, WireOutcome, WireRequest } from "./transport.js";

/** Query values the client can send (arrays become repeated keys). */
export type QueryValue = string | number | boolean | readonly (string | number | boolean)[];

/** A request ready to go out, but before auth, retry and the wire. */
export interface PreparedRequest {
  target: RequestTarget;
  /** Filled path, relative to the API's base URL (`/v1/projects/tf-a`). */
  path: string;
  api: ApiKind;
  query?: Readonly<Record<string, QueryValue | undefined>>;
  body?: unknown;
  cls: RetryClass;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** A 2xx answer. */
export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  attempts: number;
}

/** What the client tells an observer (the CLI's --verbose): never headers or URLs with ids. */
export type ClientEvent =
  | {
      type: "retry";
      target: RequestTarget;
      attempt: number;
      delayMs: number;
      reason: string;
    }
  | { type: "done"; target: RequestTarget; status: number; attempts: number; ms: number }
  /** The outage gate closed (start), opened again (end), or the client gave up (timeout). */
  | OutageEvent;

/** The parts `request()` is built from (one set per client). */
export interface RequestDeps {
  bases: Record<ApiKind, Base>;
  credentials: Credentials;
  transport: Transport;
  flow: FlowControl;
  retry: RetryOptions;
  budget: RetryBudget;
  /**
   * One outage gate per API: the git host's delivery-metrics API is another service, whose
   * outage must not pause (nor be probed through) the administration API, and back.
   */
  gates: Record<ApiKind, OutageGate>;
  metrics: Metrics;
  timeoutMs: number;
  userAgent: string;
  random: () => number;
  onEvent?: (e: ClientEvent) => void;
  /** A call to the admin API ended with 401: the token is refused (expired, revoked). */
  onRefused?: (e: ApiError) => void;
  /** That first 401, if any: later admin calls are not sent with the refused token. */
  refused?: () => ApiError | undefined;
}

/** `?a=1&b=x&b=y` from a query object (undefined values left out). */
export function queryString(query: PreparedRequest["query"]): string {
  if (!query) return "";
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v as readonly unknown[]) sp.append(k, String(x));
    else sp.append(k, String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : "";
}

function metricKey(t: RequestTarget): string {
  return t.operation ?? `${t.method} ${t.pathTemplate}`;
}

/** Turn the last failed attempt into the error the caller sees. */
function toError(
  req: PreparedRequest,
  outcome: WireOutcome,
  attempts: number,
  stop: { reason: string; ambiguous: boolean; exhausted: boolean },
): ApiError {
  const { reason, ambiguous, exhausted } = stop;
  if (outcome.kind === "failure") {
    const init = {
      target: req.target,
      api: req.api,
      status: 0,
      serverMessage: outcome.timeout
        ? outcome.message
        : outcome.permanent || outcome.proxy
          ? outcome.message
          : `connection failed: ${outcome.message} (${outcome.code})`,
      attempts,
    };
    if (ambiguous) return new AmbiguousRequestError(init);
    return new ApiError({
      ...init,
      code: outcome.timeout ? "TIMEOUT" : "CONNECTION_FAILED",
      ...(exhausted ? { gaveUp: `gave up after ${attempts} attempts: ${reason}` } : {}),
    });
  }
  const { message, fieldErrors } = readErrorBody(outcome.body);
  const retryAfterMs = parseRetryAfter(outcome.headers["retry-after"]);
  const init = {
    target: req.target,
    api: req.api,
    status: outcome.status,
    serverMessage: message ?? "no message",
    fieldErrors,
    body: outcome.body,
    attempts,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
  if (ambiguous) return new AmbiguousRequestError(init);
  const forkCleanup = req.cls.forkCleanup && outcome.status === 500 && exhausted;
  return new ApiError({
    ...init,
    code: forkCleanup ? "FORK_CLEANUP" : codeOfStatus(outcome.status),
    ...(exhausted
      ? { gaveUp: `gave up after ${attempts} attempt${attempts > 1 ? "s" : ""}: ${reason}` }
      : {}),
  });
}

/** A call not sent because the service refused the token earlier in the run. */
function notSent(req: PreparedRequest, refused: ApiError): ApiError {
  return new ApiError({
    target: req.target,
    api: req.api,
    status: 0,
    code: "UNAUTHORIZED",
    serverMessage: `not sent: the service refused the token (401) on ${refused.operation ?? refused.pathTemplate} earlier in this run — set a valid one in PHCTL_TOKEN or pass --token-file FILE`,
    attempts: 0,
  });
}

/**
 * One attempt's wire request: the API's origin and prefix, query, headers with auth. No
 * attempt outlasts its API's outage deadline: `timeoutMs` (per phase) is cut to it, and it
 * bounds the whole attempt — a service that accepts and never answers (or stalls a body)
 * is given up on in `--outage-timeout`, not in the 30 s timeout times the retries.
 */
export function wireOf(d: RequestDeps, req: PreparedRequest, timeoutMs: number): WireRequest {
  const base = d.bases[req.api];
  const outageMs = d.gates[req.api].timeoutMs;
  return {
    origin: base.origin,
    path: `${base.prefix}${req.path}${queryString(req.query)}`,
    method: req.target.method,
    headers: {
      accept: "application/json",
      "user-agent": d.userAgent,
      ...(req.body === undefined ? {} : { "content-type": "application/json" }),
      ...d.credentials.headers(req.api),
    },
    ...(req.body === undefined ? {} : { body: JSON.stringify(req.body) }),
    timeoutMs: Math.min(timeoutMs, outageMs),
    deadlineMs: outageMs,
    group: req.api,
    ...(req.signal ? { signal: req.signal } : {}),
  };
}

/**
 * Send a prepared request with every layer; resolves to a 2xx answer or throws. Retries
 * caused by an outage (the gate closed while the attempt was out, or the retry budget ran
 * dry) wait at the gate and count against neither `maxRetries`, the deadline (time paused
 * is not elapsed) nor the budget.
 */
export async function request(d: RequestDeps, req: PreparedRequest): Promise<ApiResponse> {
  const key = metricKey(req.target);
  const started = performance.now();
  d.metrics.started(started);
  const wire = wireOf(d, req, req.timeoutMs ?? d.timeoutMs);
  const timeoutMs = wire.timeoutMs;
  const gate = d.gates[req.api];
  /** Attempts sent; retries that count against the limit; ms waited at the gate. */
  let attempts = 0;
  let retries = 0;
  let pausedMs = 0;
  /** When the last attempt was sent (the outage gate measures silence from it). */
  let sentAt = 0;
  let ended = false;
  const end = (ok: boolean) => {
    ended = true;
    d.metrics.finished(key, ok);
    return performance.now() - started;
  };
  // The gate may close while an attempt waits for a slot: then it is not sent. Latency is
  // from send to answer; the wait for the throttle and a slot is counted apart.
  const attempt = async (queuedMs: number): Promise<WireOutcome | undefined> => {
    if (!gate.isOpen) return undefined;
    const refused = req.api === "admin" ? d.refused?.() : undefined;
    if (refused) throw notSent(req, refused);
    sentAt = gate.sending();
    let answer: WireOutcome;
    try {
      answer = await d.transport.send(wire);
    } catch (e) {
      gate.dropped();
      throw e;
    }
    d.metrics.attempted(key, queuedMs, performance.now() - sentAt);
    return answer;
  };
  try {
    for (;;) {
      if (!gate.isOpen || gate.error) pausedMs += await gate.pass(req.signal);
      const epoch = gate.epoch;
      const outcome = await d.flow.run(attempt);
      if (outcome === undefined) continue;
      attempts++;
      const trouble = gate.record(outcome, req.cls, sentAt);
      const foreign = outcome.kind === "response" ? foreignAnswer(outcome, req.api) : undefined;
      if (foreign !== undefined) {
        const status = outcome.kind === "response" ? outcome.status : 0;
        d.onEvent?.({ type: "done", target: req.target, status, attempts, ms: end(false) });
        const init = { target: req.target, api: req.api, status, serverMessage: foreign, attempts };
        // A write may still have landed (a 303 after a create, a page for an echo): it is
        // re-read before anything else, never failed or sent again on this answer alone.
        throw req.target.method === "GET"
          ? new ApiError({ ...init, code: "NOT_THE_API" })
          : new AmbiguousRequestError(init);
      }
      if (outcome.kind === "response" && outcome.status >= 200 && outcome.status < 300) {
        d.budget.success();
        const ms = end(true);
        d.onEvent?.({ type: "done", target: req.target, status: outcome.status, attempts, ms });
        return { status: outcome.status, headers: outcome.headers, body: outcome.body, attempts };
      }
      const outage = trouble !== undefined && (gate.epoch !== epoch || !gate.isOpen);
      const decision = decide(
        d.retry,
        {
          cls: req.cls,
          outcome,
          retries,
          elapsedMs: performance.now() - started - pausedMs,
          outage,
        },
        d.random,
      );
      if (decision.retry) {
        // An empty budget fails no call: it means trouble across the board, so pause all.
        if (!outage && !d.budget.take()) gate.close("the client-wide retry budget ran dry");
        d.metrics.retried(key, decision.reason);
        if (outage || !gate.isOpen) {
          // The outage's retry: wait at the gate (or, if it already reopened, a short backoff).
          if (gate.isOpen) await gate.nap(decision.delayMs, req.signal);
          continue;
        }
        retries++;
        d.onEvent?.({
          type: "retry",
          target: req.target,
          attempt: attempts + 1,
          delayMs: decision.delayMs,
          reason: decision.reason,
        });
        // Cut short when the client gives up on an outage meanwhile.
        await gate.nap(decision.delayMs, req.signal);
        continue;
      }
      const stop = {
        reason: decision.reason,
        ambiguous: decision.ambiguous,
        exhausted: decision.exhausted === true,
      };
      const ms = end(false);
      const status = outcome.kind === "response" ? outcome.status : 0;
      d.onEvent?.({ type: "done", target: req.target, status, attempts, ms });
      const error = toError({ ...req, timeoutMs }, outcome, attempts, stop);
      if (status === 401 && req.api === "admin") d.onRefused?.(error);
      throw error;
    }
  } catch (e) {
    if (!ended) end(false);
    throw e;
  }
}
