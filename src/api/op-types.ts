/**
 * Types of one operation's call, derived from the route table (src/api/routes.ts) with
 * TypeBox's `Static`, so a client call cannot drift from the schemas the server validates.
 * `CallArgs<"git.repos.create">` is `{params: {projectSlug: string}, body: {...}}`.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import type { OperationId, Routes } from "./routes.js";

type Def<K extends OperationId> = Routes[K];

/** Names of the `{x}` / `{x+}` parameters of a path template. */
export type PathParamNames<S extends string> = S extends `${string}{${infer P}}${infer Rest}`
  ? (P extends `${infer N}+` ? N : P) | PathParamNames<Rest>
  : never;
type IntParams<K extends OperationId> =
  Def<K> extends { intParams: readonly (infer I)[] } ? I : never;
type EnumParams<K extends OperationId> =
  Def<K> extends { paramEnums: infer E } ? E : Record<never, never>;

/** Path parameters: integers where the route says so, enums where it lists the values. */
export type ParamsOf<K extends OperationId> = {
  [P in PathParamNames<Def<K>["path"]>]: P extends IntParams<K>
    ? number
    : P extends keyof EnumParams<K>
      ? EnumParams<K>[P] extends readonly (infer V)[]
        ? V
        : string
      : string;
};
/** Query parameters (`never` when the route takes none). */
export type QueryOf<K extends OperationId> =
  Def<K> extends { query: infer Q extends TSchema } ? Static<Q> : never;
/** Request body (`never` when the route takes none). */
export type BodyOf<K extends OperationId> =
  Def<K> extends { body: infer B extends TSchema } ? Static<B> : never;
/** Response body of the success status (`undefined` for 204 answers). */
export type ResponseOf<K extends OperationId> = Def<K>["response"] extends infer R extends TSchema
  ? Static<R>
  : undefined;

type ParamsPart<K extends OperationId> = [PathParamNames<Def<K>["path"]>] extends [never]
  ? { params?: never }
  : { params: ParamsOf<K> };
type QueryPart<K extends OperationId> = [QueryOf<K>] extends [never]
  ? { query?: never }
  : Record<never, never> extends QueryOf<K>
    ? { query?: QueryOf<K> }
    : { query: QueryOf<K> };
type BodyPart<K extends OperationId> = [BodyOf<K>] extends [never]
  ? { body?: never }
  : Record<never, never> extends BodyOf<K>
    ? { body?: BodyOf<K> }
    : { body: BodyOf<K> };

/** What a call of operation K needs: path parameters, query and body, each only if it has them. */
export type CallArgs<K extends OperationId> = ParamsPart<K> & QueryPart<K> & BodyPart<K>;

/** Per-call options, beside the operation's arguments. */
export interface CallOptions {
  /** Abort the call (and any retry wait). */
  signal?: AbortSignal;
  /** Per-attempt timeout, ms (default: the client's). */
  timeoutMs?: number;
}

/** The argument list of a call: the arguments may be omitted when nothing is required. */
export type ArgsOf<K extends OperationId> =
  Record<never, never> extends CallArgs<K>
    ? [args?: CallArgs<K>, options?: CallOptions]
    : [args: CallArgs<K>, options?: CallOptions];

/** Operations that answer a paged list `{pagination, data}`. */
export type PagedOperationId = {
  [K in OperationId]: Def<K> extends { paging: object } ? K : never;
}[OperationId];

/** One item of a paged operation's `data`. */
export type ItemOf<K extends OperationId> = ResponseOf<K> extends { data: (infer T)[] } ? T : never;
