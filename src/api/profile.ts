/**
 * An API profile: what an administrator knows about a service that the route table does
 * not — the real method and path of an operation (44 of them are assumed), where a paged
 * list keeps its array and pagination and what their fields are called, and which field of
 * a queued answer holds the job id. The client calls through the effective route table
 * (the table with the profile's overrides) and reads answers through the profile's
 * envelope; `phctl serve --api-profile` serves the same shape.
 *
 *   const profile = loadApiProfile("profiles/acme.yaml");   // profile-load.ts
 *   const table = effectiveRoutes(profile);                  // table["users.create"].path
 *
 * The profile never changes request bodies or record fields: those are the API's contract.
 */
import { didYouMean } from "../manifest/hints.js";
import type { ApiProfileDocument } from "./profile-schema.js";
import { pathParams, restParam, type HttpMethod, type RouteDef } from "./route-def.js";
import { operations, routes, type OperationId } from "./routes.js";

/** Where a paged list keeps its items and pagination, and its query parameters' names. */
export interface ListEnvelope {
  /** Dotted path of the array (default `data`). */
  readonly items: string;
  /** Dotted path of the pagination object, or null when the service does not page. */
  readonly pagination: string | null;
  /** Names of the pagination object's fields. */
  readonly fields: {
    readonly page: string;
    readonly limit: string;
    readonly total: string;
    readonly totalPages: string;
  };
  /** Names of the paging query parameters. */
  readonly query: { readonly page: string; readonly limit: string; readonly all: string };
}

export interface OperationOverride {
  readonly method?: HttpMethod;
  readonly path?: string;
}

/** A loaded (or the default) profile, with every default filled in. */
export interface ApiProfile {
  /** The file it was loaded from, as the user named it; undefined for the default. */
  readonly file?: string;
  readonly operations: Readonly<Partial<Record<OperationId, OperationOverride>>>;
  readonly list: ListEnvelope;
  /** Fields of a queued answer that may hold the job id, tried in order. */
  readonly queueId: readonly string[];
}

/** The route table as the client calls it and the server serves it. */
export type RouteTable = Readonly<Record<OperationId, RouteDef>>;

export const DEFAULT_LIST: ListEnvelope = {
  items: "data",
  pagination: "pagination",
  fields: { page: "page", limit: "limit", total: "total", totalPages: "totalPages" },
  query: { page: "page", limit: "limit", all: "all" },
};

/** `queueid`, and `queuid` as the spec spells it for the organization rename. */
export const DEFAULT_QUEUE_ID = ["queueid", "queuid"] as const;

/** The shape of the route table, unchanged. */
export const DEFAULT_PROFILE: ApiProfile = {
  operations: {},
  list: DEFAULT_LIST,
  queueId: DEFAULT_QUEUE_ID,
};

/** A profile document (already schema-valid) with the defaults filled in. */
export function normaliseProfile(doc: ApiProfileDocument, file?: string): ApiProfile {
  const l = doc.envelope?.list ?? {};
  const list: ListEnvelope = {
    items: l.items ?? DEFAULT_LIST.items,
    pagination: l.pagination === undefined ? DEFAULT_LIST.pagination : l.pagination,
    fields: { ...DEFAULT_LIST.fields, ...l.pageFields },
    query: { ...DEFAULT_LIST.query, ...l.query },
  };
  const id = doc.queue?.id;
  return {
    ...(file !== undefined ? { file } : {}),
    operations: doc.operations ?? {},
    list,
    queueId:
      id === undefined ? DEFAULT_QUEUE_ID : [id, ...DEFAULT_QUEUE_ID.filter((n) => n !== id)],
  };
}

/** One problem of a profile beyond its schema: where (a field path) and what. */
export interface ProfileProblem {
  path: (string | number)[];
  message: string;
  hint?: string;
}

const sameParams = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** A path template with its parameters blanked, to compare routes. */
const shapeOf = (path: string) => path.replace(/\{[^}]+\}/g, "{}").replace(/\/+$/, "");

/**
 * What the schema cannot say: an override's path must keep the operation's parameters, and
 * two operations must not end up on the same method and path.
 */
export function profileProblems(doc: ApiProfileDocument): ProfileProblem[] {
  const problems: ProfileProblem[] = [];
  const ops = (doc.operations ?? {}) as Record<string, OperationOverride | undefined>;
  for (const [id, o] of Object.entries(ops)) {
    const def = (routes as Record<string, RouteDef | undefined>)[id];
    if (!def) {
      const hint = didYouMean(
        id,
        operations.map(([op]) => op),
      );
      problems.push({
        path: ["operations", id],
        message: `operations.${id} is not an operation id (phctl api routes lists them)`,
        ...(hint ? { hint } : {}),
      });
      continue;
    }
    if (o?.path === undefined) continue;
    const want = pathParams(def.path);
    const got = pathParams(o.path);
    if (!sameParams(want, got) || restParam(def.path) !== restParam(o.path)) {
      const missing = want.filter((p) => !got.includes(p));
      const extra = got.filter((p) => !want.includes(p));
      const hint =
        extra.length === 1 && missing.length === 1 ? didYouMean(extra[0], missing) : undefined;
      const params = def.path.match(/\{[^}]+\}/g)?.join(", ") ?? "none";
      problems.push({
        path: ["operations", id, "path"],
        message: `operations.${id}.path must use the parameters of ${id} (${params})${
          missing.length ? `; missing {${missing.join("}, {")}}` : ""
        }${extra.length ? `; unknown {${extra.join("}, {")}}` : ""}`,
        ...(hint ? { hint } : {}),
      });
    }
  }
  const seen = new Map<string, OperationId>();
  const table = effectiveRoutes(normaliseProfile(doc));
  for (const [id] of operations) {
    const def = table[id];
    const key = `${def.method} ${shapeOf(def.path)}`;
    const other = seen.get(key);
    if (other && (ops[id] || ops[other])) {
      const at = ops[id] ? id : other;
      problems.push({
        path: ["operations", at],
        message: `operations.${at}: ${other === at ? id : other} is already ${def.method} ${def.path}; two operations cannot share a method and path`,
      });
    }
    seen.set(key, id);
  }
  return problems;
}

const tables = new WeakMap<ApiProfile, RouteTable>();

/** The route table with the profile's methods and paths (the same object for the default). */
export function effectiveRoutes(profile: ApiProfile = DEFAULT_PROFILE): RouteTable {
  if (Object.keys(profile.operations).length === 0) return routes;
  let t = tables.get(profile);
  if (!t) {
    const out = { ...routes } as Record<OperationId, RouteDef>;
    for (const [id, o] of Object.entries(profile.operations) as [OperationId, OperationOverride][])
      if (out[id]) out[id] = { ...out[id], ...o };
    t = out;
    tables.set(profile, t);
  }
  return t;
}

/** Operations whose method or path the profile changes. */
export function overridden(profile: ApiProfile, op: OperationId): boolean {
  const o = profile.operations[op];
  const def = routes[op] as RouteDef;
  return (
    o !== undefined &&
    ((o.method ?? def.method) !== def.method || (o.path ?? def.path) !== def.path)
  );
}
