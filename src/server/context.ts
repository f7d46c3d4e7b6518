/**
 * What a route handler receives and returns. Handlers are plain functions of
 * (context, request) → response body, registered per operation id in src/server/routes/*.
 */
import type { OperationId } from "../api/routes.js";
import type {
  BodyOf as ApiBodyOf,
  ParamsOf,
  QueryOf as ApiQueryOf,
  ResponseOf as ApiResponseOf,
} from "../api/op-types.js";
import type { Db } from "./store/db.js";
import type { Queue } from "./queue.js";
import type { Outbox } from "./outbox.js";
import type { TokenSpec } from "./options.js";

/** The authenticated caller: its role and parent organization, from the token. */
export interface Caller {
  readonly role: TokenSpec["role"];
  readonly parentOrgId: number;
  readonly parentOrganization: string;
}

/** Server-wide services shared by every handler. */
export interface ServerContext {
  readonly db: Db;
  readonly queue: Queue;
  readonly outbox: Outbox;
  readonly gitHost: string;
  readonly maxPageSize: number;
  /** How long a queued job (or a simulated arrival such as an upload) stays pending, ms. */
  readonly queueDelayMs: number;
  /** Current time in ms (one place, so tests could move it). */
  now(): number;
}

/** The query of an operation's request (an empty object when the route takes none). */
export type QueryOf<K extends OperationId> = [ApiQueryOf<K>] extends [never]
  ? Record<string, never>
  : ApiQueryOf<K>;
/** The body of an operation's request (undefined when the route takes none). */
export type BodyOf<K extends OperationId> = [ApiBodyOf<K>] extends [never]
  ? undefined
  : ApiBodyOf<K>;
/** What a handler returns for the route's success status (void for 204 answers). */
export type ResponseOf<K extends OperationId> =
  ApiResponseOf<K> extends undefined ? void : ApiResponseOf<K>;
export type { ParamsOf };

export interface RequestOf<K extends OperationId> {
  readonly params: ParamsOf<K>;
  readonly query: QueryOf<K>;
  readonly body: BodyOf<K>;
  readonly caller: Caller;
}

/** A response with a status other than the route's `successStatus`. */
export interface WithStatus<T> {
  readonly [WITH_STATUS]: number;
  readonly body: T;
}
export const WITH_STATUS: unique symbol = Symbol("withStatus");
export function withStatus<T>(status: number, body: T): WithStatus<T> {
  return { [WITH_STATUS]: status, body };
}
export function isWithStatus(v: unknown): v is WithStatus<unknown> {
  return typeof v === "object" && v !== null && WITH_STATUS in v;
}

export type Handler<K extends OperationId> = (
  ctx: ServerContext,
  req: RequestOf<K>,
) => ResponseOf<K> | WithStatus<unknown> | Promise<ResponseOf<K> | WithStatus<unknown>>;

/** A section's handlers: a partial map, merged in app.ts; a test checks all are present. */
export type Handlers = { [K in OperationId]?: Handler<K> };

/** Identity helper that gives each handler its request and response types. */
export function defineHandlers<H extends Handlers>(h: H): H {
  return h;
}

/** `{status, data}` envelope of mutating and detail answers. */
export function ok<T>(data: T, message = "OK", code = 200) {
  return { status: { code, message }, data };
}
export function statusOnly(message = "OK", code = 200) {
  return { status: { code, message } };
}
