/**
 * The shape of one operation in the route table (src/api/routes.ts) and the helpers that
 * turn a path template into what fastify and the client need.
 */
import { Type, type TObject, type TProperties, type TSchema } from "@sinclair/typebox";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Which queue a queued operation's job lives in; each has its own status endpoint. */
export type QueueKind = "entitlement" | "orgTeam" | "transfer" | "rename";

/**
 * Who may call an operation. `read`: every role. `users`: users-admin and system-admin.
 * `projects`: projects-admin and system-admin. `access`: users-admin, projects-admin and
 * system-admin (granting resource access). `system`: system-admin only. `gitToken`: the
 * delivery-metrics API's PRIVATE-TOKEN header.
 */
export type Permission = "read" | "users" | "projects" | "access" | "system" | "gitToken";

export type SuccessStatus = 200 | 201 | 202 | 204;
/** Error statuses an operation's handler answers by its own rules (src/api/route-errors.ts). */
export type RuleStatus = 400 | 403 | 404 | 409 | 422 | 500;
/** When each of an operation's rule statuses is answered, in a few words. */
export type OperationErrors = Readonly<Partial<Record<RuleStatus, string>>>;

/** Longest value of a path parameter (fastify's `maxParamLength`; longer is 414). */
export const MAX_PATH_PARAM = 100;

export interface RouteDef {
  readonly method: HttpMethod;
  /**
   * Path template: `{name}` is one segment; a final `{name+}` matches the rest of the path
   * (artifact file paths contain slashes).
   */
  readonly path: string;
  readonly summary: string;
  /** API-SPEC.md section, used as the OpenAPI tag. */
  readonly section: string;
  readonly auth: Permission;
  /** Path parameters that are integers (all others are strings). */
  readonly intParams?: readonly string[];
  /** Allowed values of a path parameter (e.g. the six access levels). */
  readonly paramEnums?: Readonly<Record<string, readonly string[]>>;
  readonly query?: TObject;
  readonly body?: TSchema;
  /** Response schema of the success status; `null` when the spec gives no body. */
  readonly response: TSchema | null;
  readonly successStatus: SuccessStatus;
  /**
   * When an operation has several success answers: each status with its own schema and
   * when it is given (`response` then covers them all, which is what the client reads).
   */
  readonly successes?: Readonly<
    Partial<Record<SuccessStatus, { readonly response: TSchema | null; readonly when: string }>>
  >;
  /**
   * Stricter schemas of string path parameters that the handler checks itself, answering
   * 400 naming the parameter (the router only knows "a non-empty segment").
   */
  readonly paramChecks?: Readonly<Record<string, TSchema>>;
  /**
   * The statuses the handler answers by the operation's own rules, and when (404 for an
   * unknown object, 409, 422, …). Filled from src/api/route-errors.ts; the statuses every
   * operation shares (401, 403 role, 400 validation, 429, …) come from route-status.ts.
   */
  readonly errors?: OperationErrors;
  /** The answer carries a queue id of this kind; the effect is visible once the job completes. */
  readonly queue?: QueueKind;
  /** Paged list (`{pagination, data}`); `all` says whether `all=true` is supported. */
  readonly paging?: { readonly all: boolean };
  readonly deprecated?: boolean;
  /** The spec does not show this method and path: DESIGN.md's assumption. */
  readonly assumed?: boolean;
}

const PARAM = /\{([A-Za-z_][A-Za-z0-9_-]*)(\+?)\}/g;

/** Names of the path parameters of a template, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(PARAM)].map((m) => m[1]);
}

/** The parameter that swallows the rest of the path (`{x+}`), if any. */
export function restParam(path: string): string | undefined {
  for (const m of path.matchAll(PARAM)) if (m[2] === "+") return m[1];
  return undefined;
}

/** fastify/find-my-way form of a template: `{id}` → `:id`, `{x+}` → `*`. */
export function toFastifyPath(path: string): string {
  return path.replace(PARAM, (_all, name: string, plus: string) => (plus ? "*" : `:${name}`));
}

/** OpenAPI form of a template: `{x+}` → `{x}`. */
export function toOpenApiPath(path: string): string {
  return path.replace(PARAM, (_all, name: string) => `{${name}}`);
}

/** JSON Schema of the path parameters (integers where declared, enums where declared). */
export function paramsSchema(def: RouteDef): TObject | undefined {
  const names = pathParams(def.path);
  if (names.length === 0) return undefined;
  const props: TProperties = {};
  const rest = restParam(def.path);
  for (const n of names) {
    const key = n === rest ? "*" : n;
    const values = def.paramEnums?.[n];
    props[key] = def.intParams?.includes(n)
      ? Type.Integer({ minimum: 0 })
      : values
        ? Type.Unsafe<string>({ type: "string", enum: [...values] })
        : Type.String({ minLength: 1 });
  }
  return Type.Object(props);
}

/**
 * Fill a template with values, each encoded as one path segment; the rest parameter keeps
 * its slashes. Throws on a missing value (a programming error, not a user one).
 */
export function fillPath(path: string, params: Readonly<Record<string, string | number>>): string {
  return path.replace(PARAM, (_all, name: string, plus: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`missing path parameter ${name} for ${path}`);
    const s = String(v);
    return plus ? s.split("/").map(encodeURIComponent).join("/") : encodeURIComponent(s);
  });
}

/** The route table with each operation's own error statuses merged in (`RouteDef.errors`). */
export function withErrors<T extends Readonly<Record<string, RouteDef>>>(
  table: T,
  errors: Readonly<Record<keyof T, OperationErrors>>,
): { readonly [K in keyof T]: T[K] & { readonly errors: OperationErrors } } {
  const out: Record<string, RouteDef> = {};
  for (const [id, def] of Object.entries(table)) out[id] = { ...def, errors: errors[id] };
  return out as { readonly [K in keyof T]: T[K] & { readonly errors: OperationErrors } };
}
