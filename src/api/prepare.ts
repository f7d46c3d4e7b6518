/**
 * From a call to a `PreparedRequest`: the route's method and path template filled with the
 * parameters, which API it belongs to (the delivery-metrics routes live under `/git-api` in
 * the table and at `--git-api-url` in reality), its retry class, query and body. Typed calls
 * come from an operation id; raw calls (`phctl api`) from a method and a path, matched back
 * to the table when they can be. Both go by the effective table of the API profile.
 */
import type { CallOptions } from "./op-types.js";
import type { PreparedRequest, QueryValue } from "./request.js";
import { renamePageQuery } from "./envelope.js";
import { DEFAULT_LIST, DEFAULT_PROFILE, effectiveRoutes, type ApiProfile } from "./profile.js";
import { fillPath } from "./route-def.js";
import { matchRoute, retryClassOf, type RouteMatch } from "./route-match.js";
import type { OperationId } from "./routes.js";

/** Where the table puts the delivery-metrics API; the client sends it to `--git-api-url`. */
export const GIT_API_PREFIX = "/git-api";

/** The `{params, query, body}` of a call, loosely typed (the typed form is `CallArgs<K>`). */
export interface CallArgsLoose {
  params?: Readonly<Record<string, string | number>>;
  query?: Readonly<Record<string, QueryValue | undefined>>;
  body?: unknown;
}

/** A raw call's options (`phctl api`). */
export interface RawOptions extends CallOptions {
  query?: Readonly<Record<string, QueryValue | undefined>>;
  body?: unknown;
}

function stripGitPrefix(path: string): string {
  return path.startsWith(`${GIT_API_PREFIX}/`) ? path.slice(GIT_API_PREFIX.length) : path;
}

function callOptions(o: CallOptions): Pick<PreparedRequest, "signal" | "timeoutMs"> {
  return {
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
  };
}

/**
 * The request of an operation call, by the profile's method and path; a paged list's
 * `page`, `limit` and `all` go out under the profile's names.
 */
export function prepareCall(
  op: OperationId,
  args: CallArgsLoose,
  options: CallOptions = {},
  profile: ApiProfile = DEFAULT_PROFILE,
): PreparedRequest {
  const def = effectiveRoutes(profile)[op];
  const gitApi = def.auth === "gitToken";
  const path = fillPath(def.path, args.params ?? {});
  const query =
    args.query && def.paging && profile.list.query !== DEFAULT_LIST.query
      ? renamePageQuery(args.query, DEFAULT_LIST.query, profile.list.query)
      : args.query;
  return {
    target: { method: def.method, pathTemplate: def.path, operation: op },
    path: gitApi ? stripGitPrefix(path) : path,
    api: gitApi ? "git" : "admin",
    ...(query ? { query } : {}),
    // A route with a body schema always gets a body (an empty object when none is given).
    ...(args.body !== undefined ? { body: args.body } : def.body ? { body: {} } : {}),
    cls: retryClassOf(def.method, { operation: op, def }),
    ...callOptions(options),
  };
}

/** Split `/v1/users?limit=5&b=1&b=2` into the path and a query (repeated keys → lists). */
export function splitPath(raw: string): { path: string; query: Record<string, QueryValue> } {
  const withSlash = raw.startsWith("/") ? raw : `/${raw}`;
  const i = withSlash.indexOf("?");
  if (i < 0) return { path: withSlash, query: {} };
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(withSlash.slice(i + 1))) {
    const prev = query[k];
    query[k] = prev === undefined ? v : [...(Array.isArray(prev) ? prev : [prev]), v];
  }
  return { path: withSlash.slice(0, i), query };
}

/**
 * The request of a raw call. A path of the route table gets its route's auth and retry
 * rules; another path is sent as it is (retried only if its method is idempotent).
 */
export function prepareRaw(
  method: string,
  rawPath: string,
  o: RawOptions = {},
  profile: ApiProfile = DEFAULT_PROFILE,
): { request: PreparedRequest; match: RouteMatch | undefined } {
  const m = method.toUpperCase();
  const { path, query } = splitPath(rawPath);
  const match = matchRoute(m, path, effectiveRoutes(profile));
  const gitApi =
    match?.def.auth === "gitToken" || (!match && path.startsWith(`${GIT_API_PREFIX}/`));
  const merged = { ...query, ...o.query };
  return {
    match,
    request: {
      target: { method: m, pathTemplate: match?.def.path ?? path, operation: match?.operation },
      path: gitApi ? stripGitPrefix(path) : path,
      api: gitApi ? "git" : "admin",
      ...(Object.keys(merged).length > 0 ? { query: merged } : {}),
      ...(o.body !== undefined ? { body: o.body } : {}),
      cls: retryClassOf(m, match),
      ...callOptions(o),
    },
  };
}
