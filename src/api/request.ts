/**
 * The one `request()` every call goes through, as small layers around one wire attempt:
 *
 *   metrics ⟶ retry loop ⟶ [ throttle ⟶ concurrency slot ⟶ auth ⟶ timeout ⟶ wire ] ⟶ error mapping
 *
 * The bracketed part is one attempt and the only time a concurrency slot is held; backoff
 * sleeps happen outside it. A 2xx answer is returned; anything else becomes an `ApiError`
 * (or `AmbiguousRequestError` when a non-idempotent request may have taken effect).
 */
import type { ApiKind, Base, Credentials } from "./auth.js";
import {
  AmbiguousRequestError,
  ApiError,
  codeOfStatus,
  readErrorBody,
  type RequestTarget,
} from "./errors.js";
import type { FlowControl } from "./limit.js";
import { sleep } from "./limit.js";
import type { Metrics } from "./metrics.js";
import {
  decide,
  parseRetryAfter,
  type RetryBudget,
  type RetryClass,
  type RetryOptions,
} from "./retry.js";
import type { Transport, WireOutcome } from "./transport.js";

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
  | { type: "done"; target: RequestTarget; status: number; attempts: number; ms: number };

/** The parts `request()` is built from (one set per client). */
export interface RequestDeps {
  bases: Record<ApiKind, Base>;
  credentials: Credentials;
  transport: Transport;
  flow: FlowControl;
  retry: RetryOptions;
  budget: RetryBudget;
  metrics: Metrics;
  timeoutMs: number;
  userAgent: string;
  random: () => number;
  onEvent?: (e: ClientEvent) => void;
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
      status: 0,
      serverMessage: outcome.timeout
        ? `no answer within ${req.timeoutMs} ms`
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

/** Send a prepared request with every layer; resolves to a 2xx answer or throws. */
export async function request(d: RequestDeps, req: PreparedRequest): Promise<ApiResponse> {
  const key = metricKey(req.target);
  const started = performance.now();
  d.metrics.started(started);
  const base = d.bases[req.api];
  const timeoutMs = req.timeoutMs ?? d.timeoutMs;
  const wire = {
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
    timeoutMs,
    ...(req.signal ? { signal: req.signal } : {}),
  };
  let retries = 0;
  const end = (ok: boolean) => {
    const ms = performance.now() - started;
    d.metrics.finished(key, retries + 1, ms, ok);
    return ms;
  };
  for (;;) {
    let outcome: WireOutcome;
    try {
      outcome = await d.flow.run(() => d.transport.send(wire));
    } catch (e) {
      end(false);
      throw e;
    }
    if (outcome.kind === "response" && outcome.status >= 200 && outcome.status < 300) {
      d.budget.success();
      const ms = end(true);
      d.onEvent?.({
        type: "done",
        target: req.target,
        status: outcome.status,
        attempts: retries + 1,
        ms,
      });
      return {
        status: outcome.status,
        headers: outcome.headers,
        body: outcome.body,
        attempts: retries + 1,
      };
    }
    const decision = decide(
      d.retry,
      {
        cls: req.cls,
        outcome,
        retries,
        elapsedMs: performance.now() - started,
      },
      d.random,
    );
    if (decision.retry && d.budget.take()) {
      retries++;
      d.metrics.retried(key, decision.reason);
      d.onEvent?.({
        type: "retry",
        target: req.target,
        attempt: retries + 1,
        delayMs: decision.delayMs,
        reason: decision.reason,
      });
      try {
        await sleep(decision.delayMs, req.signal);
      } catch (e) {
        end(false);
        throw e;
      }
      continue;
    }
    const stop = decision.retry
      ? { reason: "client-wide retry budget spent", ambiguous: false, exhausted: true }
      : {
          reason: decision.reason,
          ambiguous: decision.ambiguous,
          exhausted: decision.exhausted === true,
        };
    const ms = end(false);
    d.onEvent?.({
      type: "done",
      target: req.target,
      status: outcome.kind === "response" ? outcome.status : 0,
      attempts: retries + 1,
      ms,
    });
    throw toError({ ...req, timeoutMs }, outcome, retries + 1, stop);
  }
}
