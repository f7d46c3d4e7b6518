/**
 * The wire: one undici dispatcher (keep-alive pools per origin, connections ≈ the client's
 * concurrency) and `send()`, which makes exactly one attempt and reports what happened —
 * an answer, or a failure classified by whether the request may have reached the server.
 * Nothing here retries, throws on a status, or knows about tokens beyond passing headers.
 *
 * Corporate networks (network.ts): with a proxy variable set the dispatcher is undici's
 * EnvHttpProxyAgent, tunnelling every request through CONNECT (the proxy sees the host,
 * never a header); a CA file adds to the trusted roots. A refused certificate is reported
 * once per origin, naming the certificate and the setting that fixes it (tls.ts), and
 * marked `permanent`: sending it again cannot help.
 *
 * Bounds: an attempt's connection is made within the connect timeout, its headers come
 * within `timeoutMs` and each chunk of its body within `timeoutMs` of the one before
 * (undici's timers), and the whole attempt — connection, headers and body together — ends
 * by its `deadlineMs` (one sweep timer for every attempt in flight): a server that accepts
 * and never answers, or sends headers and stalls the body, holds an attempt no longer.
 * `cutShort(group)` ends at once every attempt of one API (its outage gate gave up).
 */
import { Agent, EnvHttpProxyAgent, type Dispatcher } from "undici";
import { exchangeWith, type Exchanged, type ExchangeOptions } from "./exchange.js";
import { Cut, Flights, timedOut } from "./flights.js";
import { resolveNetwork, shownProxyFor, type NetworkSettings, type ShownProxy } from "./network.js";
import { viaProxy } from "./proxy-failure.js";
import { describeTlsFailure, inspectTls, isTlsCertificateFailure } from "./tls.js";

/** One attempt's request, fully resolved (origin, path with query string, headers). */
export interface WireRequest {
  origin: string;
  /** Path and query string, starting with `/`. */
  path: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /**
   * The whole attempt — connection, headers and body together — ends by then, ms from now
   * (`--outage-timeout`); undefined: bounded by `timeoutMs` per phase only.
   */
  deadlineMs?: number;
  /** The attempts `cutShort(group)` ends: one group per API. */
  group?: string;
  /**
   * An outage gate's probe: sent on connections of its own, so it never queues behind
   * attempts that hang on every pooled connection.
   */
  probe?: boolean;
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
  /**
   * Sending it again cannot help (a refused TLS certificate): no retry, not an outage.
   * `message` then is the whole explanation, for people.
   */
  permanent?: boolean;
  /**
   * The proxy did not answer (the only connection made when one is in use is to it):
   * `message` then says so, naming it, and what to check.
   */
  proxy?: ShownProxy;
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
  const own = typeof err?.code === "string" ? err.code : undefined;
  const cause = typeof err?.cause?.code === "string" ? err.cause.code : undefined;
  // A certificate refused on the far side of a proxy tunnel comes wrapped (UND_ERR_PRX_TLS).
  const code = (cause && isTlsCertificateFailure(cause) ? cause : own) ?? cause ?? "UNKNOWN";
  const message = typeof err?.message === "string" ? err.message : String(e);
  return {
    kind: "failure",
    // A refused certificate stops the handshake: nothing of the request went out.
    sent: !NOT_SENT.has(code) && !isTlsCertificateFailure(code),
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
  /** Proxy and CAs (default: from the environment, `resolveNetwork()`). */
  network?: NetworkSettings;
  /** Longest wait for a connection (TCP, TLS, a proxy's tunnel), ms (default 10 s). */
  connectTimeoutMs?: number;
}

/** Connections of the probes' own pool, per origin: a few probes may hang at once. */
export const PROBE_CONNECTIONS = 4;
/** The dispatcher of a network: a plain Agent, or the proxy agent when a proxy is set. */
function dispatcherOf(opts: TransportOptions, network: NetworkSettings): Dispatcher {
  const tls = {
    timeout: opts.connectTimeoutMs ?? 10_000,
    ...(network.ca.pems ? { ca: network.ca.pems } : {}),
  };
  const pool = {
    connections: opts.connections,
    pipelining: 1,
    keepAliveTimeout: opts.keepAliveMs ?? 10_000,
    keepAliveMaxTimeout: 60_000,
  };
  if (!network.proxy) return new Agent({ ...pool, connect: tls });
  // Empty strings, not undefined: undici would fall back to process.env otherwise.
  return new EnvHttpProxyAgent({
    ...pool,
    connect: tls,
    requestTls: tls,
    proxyTunnel: true,
    httpProxy: network.proxy.http,
    httpsProxy: network.proxy.https,
    noProxy: network.proxy.noProxy,
  });
}

/** Timeouts from this long on are left to undici's timers (which tick about once a second). */
export const COARSE_TIMEOUT_MS = 5_000;

/** The exchange of one attempt: its origin, path, method, headers and body. */
function optionsOf(req: WireRequest): ExchangeOptions {
  const o: ExchangeOptions = {
    origin: req.origin,
    path: req.path,
    method: req.method,
    headers: req.headers,
  };
  if (req.body !== undefined) o.body = req.body;
  return o;
}

/** An answer as the client reads it: the body parsed when it is JSON. */
const answerOf = (x: Exchanged): WireResponse => ({
  kind: "response",
  status: x.status,
  headers: x.headers,
  body: parseBody(x.text, x.headers["content-type"]),
});

/** The keep-alive connection pool and single-attempt sender. */
export class Transport {
  private readonly agent: Dispatcher;
  /** The probes' pool (made on the first probe). */
  #probeAgent: Dispatcher | undefined;
  readonly #opts: TransportOptions;
  /** Attempts in flight with a deadline or a group (their deadlines, `cutShort`). */
  readonly #flights = new Flights();
  /** Proxy and CAs in use. */
  readonly network: NetworkSettings;
  /** Per origin: the explanation of its refused certificate (looked at once). */
  readonly #tlsFailures = new Map<string, Promise<string>>();
  /** Closed: no attempt is made, and one cut short by the close is not sent again. */
  #closed = false;

  constructor(opts: TransportOptions) {
    this.network = opts.network ?? resolveNetwork();
    this.agent = dispatcherOf(opts, this.network);
    this.#opts = opts;
  }

  /** The pool an attempt goes through: the probes have one of their own. */
  #dispatcher(req: WireRequest): Dispatcher {
    if (!req.probe) return this.agent;
    this.#probeAgent ??= dispatcherOf(
      { ...this.#opts, connections: PROBE_CONNECTIONS },
      this.network,
    );
    return this.#probeAgent;
  }

  /**
   * End at once every attempt of `group` still in flight (its API's outage gate gave up):
   * each gets a timeout failure saying `message`; a write among them stays ambiguous.
   */
  cutShort(group: string, message: string): void {
    const f: WireFailure = { kind: "failure", sent: true, timeout: true, code: "OUTAGE", message };
    this.#flights.cut(group, f);
  }

  /** A refused certificate, explained: what the server presents, and what to set. */
  private tlsFailure(origin: string, f: WireFailure): Promise<WireFailure> {
    let text = this.#tlsFailures.get(`${origin} ${f.code}`);
    if (!text) {
      const host = new URL(origin).host;
      text = inspectTls(origin, this.network).then(
        (seen) => describeTlsFailure(f.code, host, seen, this.network),
        () => describeTlsFailure(f.code, host, undefined, this.network),
      );
      this.#tlsFailures.set(`${origin} ${f.code}`, text);
    }
    return text.then((message) => ({ ...f, sent: false, permanent: true, message }));
  }

  /**
   * Make one attempt, bounded by `timeoutMs` per phase and by `deadlineMs` in all; throws
   * only when the caller's own signal aborted it. A timeout of `COARSE_TIMEOUT_MS` or more
   * uses undici's own timers (the answer's headers within it of sending, each chunk of its
   * body within it of the one before; undici ticks them about once a second) and the sweep
   * (the deadline, every `SWEEP_MS`, flights.ts): no AbortController and timer per request, which cost
   * a quarter of a second of CPU at 27,000 requests. A shorter one bounds the whole
   * exchange with a timer of its own. The answer is read in the exchange's own handler: one
   * promise per attempt.
   */
  send(req: WireRequest): Promise<WireOutcome> {
    // A call still running when its command ended (a sibling read of a failed plan): it
    // must fail at once, not be retried with backoff and keep the process alive.
    if (this.#closed)
      return Promise.resolve(this.#cutShort({ code: "CLIENT_CLOSED", sent: false }));
    if (Math.min(req.timeoutMs, req.deadlineMs ?? Infinity) < COARSE_TIMEOUT_MS)
      return this.sendTimed(req);
    const o: ExchangeOptions = optionsOf(req);
    o.headersTimeout = req.timeoutMs;
    o.bodyTimeout = req.timeoutMs;
    if (req.signal) o.signal = req.signal;
    const flight = this.#flights.track(req.deadlineMs, req.group, o);
    return exchangeWith<WireOutcome>(
      this.#dispatcher(req),
      o,
      (x) => {
        this.#flights.untrack(flight);
        return answerOf(x);
      },
      (e) => {
        this.#flights.untrack(flight);
        if (req.signal?.aborted) throw req.signal.reason ?? e;
        if (e instanceof Cut) return e.outcome;
        const f = classifyFailure(e);
        if (this.#closed) return this.#cutShort(f);
        if (f.code === "UND_ERR_HEADERS_TIMEOUT") return timedOut(req.timeoutMs);
        if (f.code === "UND_ERR_BODY_TIMEOUT") return timedOut(req.timeoutMs, "body");
        return isTlsCertificateFailure(f.code)
          ? this.tlsFailure(req.origin, f)
          : this.#proxied(req, f);
      },
    );
  }

  /** `send` with a timer of its own (short timeouts): it bounds the whole exchange. */
  private async sendTimed(req: WireRequest): Promise<WireOutcome> {
    const bound = Math.min(req.timeoutMs, req.deadlineMs ?? Infinity);
    const o = optionsOf(req);
    if (req.signal) o.signal = req.signal;
    // Its own timer bounds it: tracked only to be cut short with its group.
    const flight = this.#flights.track(undefined, req.group, o);
    const t = setTimeout(() => flight.cancel?.(new Cut(timedOut(bound, flight.stage?.()))), bound);
    try {
      return await exchangeWith<WireOutcome>(this.#dispatcher(req), o, answerOf, (e) => {
        throw e;
      });
    } catch (e) {
      if (req.signal?.aborted) throw req.signal.reason ?? e;
      if (e instanceof Cut) return e.outcome;
      const f = classifyFailure(e);
      if (this.#closed) return this.#cutShort(f);
      return isTlsCertificateFailure(f.code)
        ? await this.tlsFailure(req.origin, f)
        : this.#proxied(req, f);
    } finally {
      this.#flights.untrack(flight);
      clearTimeout(t);
    }
  }

  /** A failure to connect, said as the proxy's when the request went through one. */
  #proxied(req: WireRequest, f: WireFailure): WireFailure {
    return viaProxy(req.origin, f, shownProxyFor(req.origin, this.network.proxy));
  }

  /** The failure of an attempt made or cut short after close(): permanent, never retried. */
  #cutShort(f: { code: string; sent: boolean }): WireFailure {
    return {
      kind: "failure",
      sent: f.sent,
      timeout: false,
      code: f.code,
      message: "the command had ended (its connections were closed); nothing more is sent",
      permanent: true,
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return; // a second close is a no-op (undici's throws)
    this.#closed = true;
    await Promise.all([this.agent.close(), this.#probeAgent?.close()]);
  }
}
