/**
 * `phctl doctor`'s way of calling the service: one GET of an operation (the profile's
 * method and path) through the client as phctl uses it, timed, with what every answer
 * says on the side — the clock of the server (`Date`) and rate-limit headers. Never
 * anything but a GET; never a header or a token in what it keeps.
 */
import type { ApiClient } from "../api/client.js";
import { ApiError, OutageError } from "../api/errors.js";
import { effectiveRoutes, type ApiProfile } from "../api/profile.js";
import type { QueryValue } from "../api/request.js";
import { fillPath, type RouteDef } from "../api/route-def.js";
import type { OperationId } from "../api/routes.js";

/** A 2xx answer. */
export interface Answer {
  ok: true;
  status: number;
  body: unknown;
  ms: number;
}

/** No 2xx answer: the error as the client made it (status 0: no answer at all). */
export interface Refusal {
  ok: false;
  status: number;
  error: Error;
  ms: number;
}

const RATE_LIMIT = /^(x-)?rate-?limit(-|$)|^retry-after$/i;

export class Prober {
  /** Server clock minus ours, per answer with a Date header, ms. */
  readonly skews: number[] = [];
  /** Answers that carried no Date header. */
  undated = 0;
  /** Rate-limit headers seen, by name (last value). */
  readonly rateLimit = new Map<string, string>();
  /** Requests sent (all GETs). */
  requests = 0;
  readonly table: Readonly<Record<OperationId, RouteDef>>;

  constructor(
    private readonly client: ApiClient,
    readonly profile: ApiProfile,
  ) {
    this.table = effectiveRoutes(profile);
  }

  /** The effective route of an operation. */
  route(op: OperationId): RouteDef {
    return this.table[op];
  }

  private observe(headers: Record<string, string | string[] | undefined>, t0: number, t1: number) {
    const date = headers.date;
    const at = typeof date === "string" ? Date.parse(date) : Number.NaN;
    if (Number.isNaN(at)) this.undated++;
    // Date has whole seconds: the server's clock read somewhere in [at, at + 1 s).
    else this.skews.push(at + 500 - (t0 + t1) / 2);
    for (const [name, value] of Object.entries(headers)) {
      if (RATE_LIMIT.test(name) && value !== undefined)
        this.rateLimit.set(name.toLowerCase(), Array.isArray(value) ? value.join(", ") : value);
    }
  }

  /** GET one operation (a route whose method is not GET is refused: doctor never writes). */
  async get(
    op: OperationId,
    params: Readonly<Record<string, string | number>> = {},
    query: Readonly<Record<string, QueryValue | undefined>> = {},
  ): Promise<Answer | Refusal> {
    const def = this.route(op);
    if (def.method !== "GET") throw new Error(`doctor would not call ${op} (${def.method})`);
    const t0 = Date.now();
    const started = performance.now();
    this.requests++;
    try {
      const res = await this.client.raw("GET", fillPath(def.path, params), { query });
      this.observe(res.headers, t0, Date.now());
      return { ok: true, status: res.status, body: res.body, ms: performance.now() - started };
    } catch (e) {
      const ms = performance.now() - started;
      // The outage gate gave up (a service that accepts and never answers): no answer, as
      // a refused connection — a row of the report, not the end of it.
      if (e instanceof OutageError) return { ok: false, status: 0, error: e, ms };
      if (!(e instanceof ApiError)) throw e;
      // An error keeps no headers but Retry-After (of a 429 or a 503).
      if (e.retryAfterMs !== undefined)
        this.rateLimit.set("retry-after", `${Math.round(e.retryAfterMs / 1000)} s`);
      return { ok: false, status: e.status, error: e, ms };
    }
  }

  /** The median clock skew seen, ms (undefined: no Date header came). */
  skewMs(): number | undefined {
    if (this.skews.length === 0) return undefined;
    const s = [...this.skews].sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)];
  }
}

/** `{status, data}` → data; anything else as it is. */
export function dataOf(body: unknown): unknown {
  const b = body as { data?: unknown } | null;
  return b && typeof b === "object" && !Array.isArray(b) && "data" in b ? b.data : body;
}

/** `42 ms`, `1.3 s`. */
export const ms = (n: number) => (n < 1000 ? `${Math.round(n)} ms` : `${(n / 1000).toFixed(1)} s`);
