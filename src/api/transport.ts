/**
 * The wire: one undici Agent (keep-alive pools per origin, connections ≈ the client's
 * concurrency) and `send()`, which makes exactly one attempt and reports what happened —
 * an answer, or a failure classified by whether the request may have reached the server.
 * Nothing here retries, throws on a status, or knows about tokens beyond passing headers.
 */
import { Agent } from "undici";

/** One attempt's request, fully resolved (origin, path with query string, headers). */
export interface WireRequest {
  origin: string;
  /** Path and query string, starting with `/`. */
  path: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface WireResponse {
  kind: "response";
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON when the answer is JSON, else the text, or undefined when empty. */
  body: unknown;
}

/**
 * No answer. `sent: false` means the request never left (connection refused, DNS, connect
 * timeout): safe to send again whatever the method. `sent: true` means it may have been
 * processed (dropped after sending, timeout waiting for the answer).
 */
export interface WireFailure {
  kind: "failure";
  sent: boolean;
  timeout: boolean;
  /** undici / system error code, e.g. UND_ERR_SOCKET, ECONNREFUSED. */
  code: string;
  message: string;
}

export type WireOutcome = WireResponse | WireFailure;

const NOT_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EHOSTDOWN",
  "ENETDOWN",
  "UND_ERR_CONNECT_TIMEOUT",
]);
const TIMEOUTS = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT"]);

/** Classify a thrown undici/system error (never includes headers: undici errors carry none). */
export function classifyFailure(e: unknown): WireFailure {
  const err = e as { code?: unknown; message?: unknown; cause?: { code?: unknown } };
  const code =
    typeof err?.code === "string"
      ? err.code
      : typeof err?.cause?.code === "string"
        ? err.cause.code
        : "UNKNOWN";
  const message = typeof err?.message === "string" ? err.message : String(e);
  return {
    kind: "failure",
    sent: !NOT_SENT.has(code),
    timeout: TIMEOUTS.has(code),
    code,
    message,
  };
}

function parseBody(text: string, contentType: string | string[] | undefined): unknown {
  if (text.length === 0) return undefined;
  const ct = Array.isArray(contentType) ? contentType.join(",") : (contentType ?? "");
  if (ct.includes("json") || /^[[{"]/.test(text.trimStart())) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

export interface TransportOptions {
  /** Connections per origin (≈ the client's concurrency). */
  connections: number;
  /** Idle keep-alive time of a pooled connection, ms. */
  keepAliveMs?: number;
}

/** The keep-alive connection pool and single-attempt sender. */
export class Transport {
  private readonly agent: Agent;

  constructor(opts: TransportOptions) {
    this.agent = new Agent({
      connections: opts.connections,
      pipelining: 1,
      keepAliveTimeout: opts.keepAliveMs ?? 10_000,
      keepAliveMaxTimeout: 60_000,
      connect: { timeout: 10_000 },
    });
  }

  /**
   * Make one attempt, the whole exchange (connect, send, headers, body) bounded by
   * `timeoutMs`. Throws only when the caller's own signal aborted it.
   */
  async send(req: WireRequest): Promise<WireOutcome> {
    const timer = new AbortController();
    const t = setTimeout(() => timer.abort(), req.timeoutMs);
    const onCallerAbort = () => timer.abort();
    req.signal?.addEventListener("abort", onCallerAbort, { once: true });
    try {
      const res = await this.agent.request({
        origin: req.origin,
        path: req.path,
        method: req.method,
        headers: req.headers,
        ...(req.body === undefined ? {} : { body: req.body }),
        signal: timer.signal,
      });
      const text = await res.body.text();
      return {
        kind: "response",
        status: res.statusCode,
        headers: res.headers,
        body: parseBody(text, res.headers["content-type"]),
      };
    } catch (e) {
      if (req.signal?.aborted) throw req.signal.reason ?? e;
      if (timer.signal.aborted)
        return {
          kind: "failure",
          sent: true,
          timeout: true,
          code: "TIMEOUT",
          message: `no answer within ${req.timeoutMs} ms`,
        };
      return classifyFailure(e);
    } finally {
      clearTimeout(t);
      req.signal?.removeEventListener("abort", onCallerAbort);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
