/**
 * From a raw method and path (`phctl api GET /v1/projects/tf-a/git/repo`) back to the route
 * table, so raw calls get the same auth, retry and pagination rules as typed ones. The most
 * specific template wins (most literal segments), and path parameters must fit their
 * declared type (integer, enum). With an API profile, its paths are the ones matched.
 */
import type { RouteTable } from "./profile.js";
import { routes, type OperationId } from "./routes.js";
import { pathParams, restParam, type RouteDef } from "./route-def.js";
import type { RetryClass } from "./retry.js";

/** A route found for a raw request, with its path parameters as strings. */
export interface RouteMatch {
  operation: OperationId;
  def: RouteDef;
  params: Record<string, string>;
}

interface Matcher {
  operation: OperationId;
  def: RouteDef;
  regex: RegExp;
  names: string[];
  literals: number;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function compile(operation: OperationId, def: RouteDef): Matcher {
  const rest = restParam(def.path);
  const names = pathParams(def.path);
  let literals = 0;
  const source = def.path
    .split("/")
    .map((seg) => {
      const m = /^\{([^}]+?)(\+?)\}$/.exec(seg);
      if (!m) {
        if (seg) literals++;
        return escape(seg);
      }
      return m[1] === rest ? "(.+)" : "([^/]+)";
    })
    .join("/");
  return { operation, def, regex: new RegExp(`^${source}/?$`), names, literals };
}

const matchers = new WeakMap<RouteTable, Matcher[]>();
function all(table: RouteTable): Matcher[] {
  let m = matchers.get(table);
  if (!m) {
    m = (Object.entries(table) as [OperationId, RouteDef][])
      .map(([op, def]) => compile(op, def))
      .sort((a, b) => b.literals - a.literals);
    matchers.set(table, m);
  }
  return m;
}

function fits(def: RouteDef, name: string, value: string): boolean {
  if (def.intParams?.includes(name)) return /^\d+$/.test(value);
  const values = def.paramEnums?.[name];
  return values ? values.includes(value) : value.length > 0;
}

/**
 * The route of a method and a path (without query string), or undefined; `table` is the
 * effective route table (an API profile's paths), by default the route table itself.
 */
export function matchRoute(
  method: string,
  path: string,
  table: RouteTable = routes,
): RouteMatch | undefined {
  const m = method.toUpperCase();
  for (const r of all(table)) {
    if (r.def.method !== m) continue;
    const hit = r.regex.exec(path);
    if (!hit) continue;
    const params: Record<string, string> = {};
    let ok = true;
    r.names.forEach((name, i) => {
      let v: string;
      try {
        v = decodeURIComponent(hit[i + 1]);
      } catch {
        v = hit[i + 1];
      }
      if (!fits(r.def, name, v)) ok = false;
      params[name] = v;
    });
    if (ok) return { operation: r.operation, def: r.def, params };
  }
  return undefined;
}

const IDEMPOTENT = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);

/**
 * How a request may be retried. A route that queues a job is not idempotent whatever its
 * method: each request records another job (a second rename of the same organization fails).
 */
export function retryClassOf(
  method: string,
  route: { operation: OperationId; def: RouteDef } | undefined,
): RetryClass {
  return {
    idempotent: IDEMPOTENT.has(method.toUpperCase()) && route?.def.queue === undefined,
    forkCleanup: route?.operation === "git.fork",
  };
}
