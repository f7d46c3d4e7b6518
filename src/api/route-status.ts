/**
 * Every status an operation can answer, as the reference server answers it: the success
 * status(es) of the route table, the operation's own rule statuses (`RouteDef.errors`,
 * src/api/route-errors.ts), and the statuses every operation shares, derived here from the
 * route's shape (who may call it, whether it has path parameters, a query or a body).
 * `buildOpenApi()` documents exactly these; the agreement test holds the server to them.
 *
 * Not per operation (answered before a request reaches one): 405 with `Allow` for a method
 * a known path does not have, 404 for an unknown path, 431 for oversized headers.
 */
import type { TSchema } from "@sinclair/typebox";
import { pathParams, type RouteDef, type RuleStatus } from "./route-def.js";

/** Statuses every operation of some shape answers, with one description each. */
export const SHARED_ERRORS = {
  400: {
    name: "BadRequest",
    description:
      "Invalid request: a query parameter or body field fails its schema (each one listed in `errors` with its field), a path parameter is not valid percent-encoded UTF-8, or the body is not valid JSON in UTF-8 (an unpaired surrogate, a `__proto__` key or `constructor.prototype` is refused, naming the field).",
  },
  401: {
    name: "Unauthorized",
    description:
      "No token, a malformed one (another scheme than Bearer, a character no token has), or an unknown one.",
    headers: { "WWW-Authenticate": { description: 'Bearer realm="phctl"', required: true } },
  },
  403: {
    name: "Forbidden",
    description: "The caller's role may not call this operation (see `x-permission`).",
  },
  413: { name: "PayloadTooLarge", description: "The body is larger than 10 MiB." },
  414: {
    name: "UriTooLong",
    description: "A path parameter is longer than 100 characters.",
  },
  415: {
    name: "UnsupportedMediaType",
    description:
      "The body's content type is not one the service reads, or its charset is not UTF-8 (send application/json; charset=utf-8).",
  },
  422: {
    name: "ImmutableField",
    description:
      "The body tries to change a field that never changes (username, email, externalEmail, projectSlug, visibility, repoType); `errors` says why, for visibility that it takes a support ticket.",
  },
  429: {
    name: "RateLimited",
    description: "Too many requests: retry after the `Retry-After` seconds.",
    headers: {
      "Retry-After": { description: "seconds to wait before the next request", required: true },
    },
  },
  503: { name: "Unavailable", description: "The service is unavailable for a moment: retry." },
} as const satisfies Record<
  number,
  { name: string; description: string; headers?: Readonly<Record<string, Header>> }
>;
export type SharedStatus = keyof typeof SHARED_ERRORS;

/** A header of an answer: what it says, and whether every such answer carries it. */
export interface Header {
  readonly description: string;
  readonly required: boolean;
}

/** One status of an operation as the document states it. */
export interface DocumentedStatus {
  readonly status: number;
  readonly kind: "success" | "error";
  readonly description: string;
  /** Success: the schema of the answer (null: no body). */
  readonly response?: TSchema | null;
  /** The shared status (components.responses) this is, when nothing is operation-specific. */
  readonly shared?: SharedStatus;
  /** Headers of the answer. */
  readonly headers?: Readonly<Record<string, Header>>;
}

/** Which shared statuses an operation of this shape can answer. */
export function sharedStatuses(def: RouteDef): SharedStatus[] {
  const hasParams = pathParams(def.path).length > 0;
  const readsBody = def.method !== "GET";
  const out: SharedStatus[] = [];
  if (def.query || def.body || hasParams || readsBody) out.push(400);
  out.push(401);
  if (def.auth !== "read" && def.auth !== "gitToken") out.push(403);
  if (readsBody) out.push(413);
  if (hasParams) out.push(414);
  if (readsBody) out.push(415);
  if (def.body && (def.method === "PUT" || def.method === "PATCH")) out.push(422);
  out.push(429, 503);
  return out;
}

function successes(def: RouteDef): DocumentedStatus[] {
  const deprecated = def.deprecated
    ? {
        Deprecation: {
          description: "@1769904000: deprecated as of the API version 2026-02 (RFC 9745)",
          required: true,
        },
      }
    : undefined;
  const list: [number, TSchema | null, string][] = def.successes
    ? (Object.entries(def.successes) as [string, { response: TSchema | null; when: string }][]).map(
        ([s, v]) => [Number(s), v.response, v.when],
      )
    : [[def.successStatus, def.response, def.response ? "success" : "success (no body)"]];
  return list.map(([status, response, description]) => ({
    status,
    kind: "success",
    description,
    response,
    ...(deprecated ? { headers: deprecated } : {}),
  }));
}

/** Every status of an operation, ascending: successes first, then errors. */
export function operationStatuses(def: RouteDef): DocumentedStatus[] {
  const own: Partial<Record<RuleStatus, string>> = { ...def.errors };
  const errors = new Map<number, DocumentedStatus>();
  for (const s of sharedStatuses(def)) {
    const specific = own[s as RuleStatus];
    delete own[s as RuleStatus];
    const shared: { description: string; headers?: Readonly<Record<string, Header>> } =
      SHARED_ERRORS[s];
    const headers = shared.headers;
    errors.set(s, {
      status: s,
      kind: "error",
      description: specific ? `${shared.description} Also when ${specific}.` : shared.description,
      ...(specific ? {} : { shared: s }),
      ...(headers ? { headers } : {}),
    });
  }
  for (const [s, text] of Object.entries<string>(own)) {
    const status = Number(s);
    const retry =
      status === 500
        ? {
            headers: {
              "Retry-After": { description: "seconds, during a cleanup", required: false },
            },
          }
        : {};
    errors.set(status, { status, kind: "error", description: capital(text), ...retry });
  }
  const sorted = [...errors.values()].sort((a, b) => a.status - b.status);
  return [...successes(def).sort((a, b) => a.status - b.status), ...sorted];
}

/** The statuses only, for tests and tools. */
export function statusCodes(def: RouteDef): number[] {
  return operationStatuses(def).map((s) => s.status);
}

/** A sentence: a plain first word capitalised (a field name such as repoPathFrom kept). */
const capital = (s: string) =>
  `${/^[a-z]+(\s|$)/.test(s) ? `${s[0].toUpperCase()}${s.slice(1)}` : s}.`;
