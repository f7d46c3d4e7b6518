/**
 * The reference server's app factory. `buildServer(options)` wires the database, the queue
 * worker, auth, fault injection and every operation of the route table to its handler;
 * `listen` is separate so tests can use `inject()` or a loopback port.
 */
import Fastify, {
  type FastifySchemaValidationError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";
import { randomBytes } from "node:crypto";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { OperationId } from "../api/routes.js";
import { DEFAULT_PROFILE, effectiveRoutes } from "../api/profile.js";
import { paramsSchema, restParam, toFastifyPath, type RouteDef } from "../api/route-def.js";
import { bearer, mayCall, roleForbidden, unauthorized } from "./auth.js";
import {
  isWithStatus,
  WITH_STATUS,
  type Caller,
  type Handlers,
  type ServerContext,
} from "./context.js";
import { errorBody, HttpError } from "./errors.js";
import { Faults, type OneShotFault } from "./faults.js";
import type { ServerOptions, TokenSpec } from "./options.js";
import { Outbox } from "./outbox.js";
import { Queue } from "./queue.js";
import { Db, isoNow } from "./store/db.js";
import { sections } from "./routes/index.js";
import { registerControl } from "./control.js";
import { mapValidation } from "./validation-errors.js";
import { canonicalQuery, pagingOf, shapeAnswer, shapesNothing } from "./profile-shape.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** One line of the request log (what tests and benchmarks count). */
export interface RequestLogEntry {
  seq: number;
  method: string;
  url: string;
  operation: OperationId | null;
  status: number;
  fault: string | null;
  ms: number;
}

export interface PhServer {
  readonly app: FastifyInstance;
  readonly ctx: ServerContext;
  readonly faults: Faults;
  readonly requestLog: RequestLogEntry[];
  readonly tokens: readonly TokenSpec[];
  /** Listen on host:port (default 127.0.0.1, random port); resolves to the base URL. */
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

declare module "fastify" {
  interface FastifyContextConfig {
    operation?: OperationId;
    def?: RouteDef;
  }
  interface FastifyRequest {
    caller?: Caller;
    started?: number;
    fault?: OneShotFault;
  }
}

/** Every handler of every section, by operation id. */
export function allHandlers(): Handlers {
  const h: Handlers = {};
  for (const s of sections) Object.assign(h, s.handlers);
  return h;
}

/** A development token, printed by `phctl serve` when none is given. */
export function developmentToken(parentOrganization = "acme"): TokenSpec {
  return {
    secret: `phdev_${randomBytes(18).toString("hex")}`,
    role: "system-admin",
    parentOrganization,
  };
}

export async function buildServer(options: ServerOptions = {}): Promise<PhServer> {
  const db = new Db(options.db ?? ":memory:");
  const now = () => Date.now();
  const queue = new Queue(db, options.queueDelayMs ?? 0, now);
  const ctx: ServerContext = {
    db,
    queue,
    outbox: new Outbox(db),
    gitHost: options.gitHost ?? "git.example.org",
    maxPageSize: options.maxPageSize ?? 100,
    queueDelayMs: options.queueDelayMs ?? 0,
    now,
  };
  const tokens = options.tokens ?? [];
  const tokenMap = new Map<string, { spec: TokenSpec; orgId: number }>();
  for (const t of tokens)
    tokenMap.set(t.secret, { spec: t, orgId: ensureParentOrg(db, t.parentOrganization) });

  const faults = new Faults(options.faultRate ?? 0, options.latencyMs ?? 0, options.faultSeed ?? 1);
  const requestLog: RequestLogEntry[] = [];
  const logRequests = options.requestLog ?? true;
  let seq = 0;

  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 10 * 1024 * 1024,
    forceCloseConnections: true,
  });

  // Request validators are compiled on first use: compiling ~140 routes' schemas up front
  // would cost most of a second of startup.
  const requestAjv = new Ajv({
    removeAdditional: false,
    coerceTypes: "array",
    useDefaults: true,
    allErrors: true,
    strict: false,
  });
  addFormats(requestAjv);
  app.setValidatorCompiler(({ schema }) => {
    let compiled: ValidateFunction | undefined;
    const validate = (data: unknown) => {
      compiled ??= requestAjv.compile(schema);
      const valid = compiled(data);
      validate.errors = (compiled.errors ?? null) as FastifySchemaValidationError[] | null;
      return valid;
    };
    validate.errors = null as FastifySchemaValidationError[] | null;
    return validate;
  });

  for (const s of sections)
    for (const [action, effect] of Object.entries(s.jobs?.(ctx) ?? {}))
      queue.register(action, effect);
  queue.resumePending();

  const responseAjv = new Ajv({ strict: false, allErrors: false });
  addFormats(responseAjv);

  app.addHook("onRequest", async (req, reply) => {
    req.started = performance.now();
    const op = req.routeOptions.config?.operation;
    const def = req.routeOptions.config?.def;
    const wait = req.url.startsWith("/_control") ? 0 : faults.delay();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (def) {
      req.caller = authenticate(req, def, op!);
      const fault = faults.pick(req.method, op);
      if (fault) {
        req.fault = fault;
        if (fault.kind === "drop") {
          logEntry(req, 0, "drop");
          reply.hijack();
          req.raw.socket.destroy();
          return;
        }
        if (fault.kind !== "dropAfter") throw injected(fault);
      }
    }
  });

  function authenticate(req: FastifyRequest, def: RouteDef, op: OperationId): Caller {
    const secret =
      def.auth === "gitToken"
        ? (req.headers["private-token"] as string | undefined)
        : bearer(req.headers.authorization);
    if (!secret) {
      throw unauthorized(
        def.auth === "gitToken" ? "missing PRIVATE-TOKEN header" : "missing bearer token",
      );
    }
    const t = tokenMap.get(secret);
    if (!t) throw unauthorized("invalid token");
    if (!mayCall(t.spec.role, def.auth)) {
      throw roleForbidden(t.spec.role, def.auth, `${def.method} ${def.path} (${op})`);
    }
    const org = db.get<{ name: string }>("SELECT name FROM organizations WHERE id = ?", t.orgId);
    return {
      role: t.spec.role,
      parentOrgId: t.orgId,
      parentOrganization: org?.name ?? t.spec.parentOrganization,
    };
  }

  function logEntry(req: FastifyRequest, status: number, fault: string | null) {
    if (!logRequests || req.url.startsWith("/_control")) return;
    requestLog.push({
      seq: ++seq,
      method: req.method,
      url: req.url,
      operation: req.routeOptions.config?.operation ?? null,
      status,
      fault,
      ms: Math.round((performance.now() - (req.started ?? performance.now())) * 10) / 10,
    });
  }

  app.addHook("onResponse", async (req, reply) => {
    logEntry(
      req,
      reply.statusCode,
      req.fault && req.fault.kind !== "dropAfter" ? req.fault.kind : null,
    );
  });

  app.addHook("onSend", async (req, reply, payload) => {
    if (req.routeOptions.config?.def?.deprecated) {
      // RFC 9745: the operation is deprecated since the API version 2026-02.
      reply.header("deprecation", "@1769904000");
    }
    return payload;
  });

  app.setErrorHandler((err: unknown, req, reply) => sendError(err, req, reply));
  app.setNotFoundHandler((req, reply) => {
    void reply
      .code(404)
      .send(errorBody(404, `no operation ${req.method} ${req.url.split("?")[0]}`));
  });

  function sendError(err: unknown, req: FastifyRequest, reply: FastifyReply) {
    if (err instanceof HttpError) {
      if (err.headers) void reply.headers(err.headers);
      return reply.code(err.statusCode).send(errorBody(err.statusCode, err.message, err.errors));
    }
    const e = err as {
      validation?: {
        instancePath: string;
        message?: string;
        keyword: string;
        params: Record<string, unknown>;
      }[];
      validationContext?: string;
      statusCode?: number;
      code?: string;
      message?: string;
    };
    if (e.validation) {
      if (e.validationContext === "params") {
        return reply
          .code(404)
          .send(errorBody(404, `no operation ${req.method} ${req.url.split("?")[0]}`));
      }
      const m = mapValidation(e.validation, e.validationContext, req.method);
      return reply.code(m.status).send(errorBody(m.status, m.message, m.errors));
    }
    if (e.code === "SQLITE_CONSTRAINT_UNIQUE" || e.code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
      return reply.code(409).send(errorBody(409, "conflict: the object already exists"));
    }
    if (e.code === "SQLITE_CONSTRAINT_FOREIGNKEY") {
      return reply.code(422).send(errorBody(422, "a referenced object does not exist"));
    }
    if (typeof e.statusCode === "number" && e.statusCode >= 400 && e.statusCode < 500) {
      return reply.code(e.statusCode).send(errorBody(e.statusCode, e.message ?? "bad request"));
    }
    req.log.error(err);
    return reply.code(500).send(errorBody(500, "internal error"));
  }

  const handlers = allHandlers();
  const responseChecks = new Map<OperationId, ValidateFunction>();
  // An API profile: its paths and methods, and its envelope at the edge (profile-shape.ts).
  const profile = options.apiProfile ?? DEFAULT_PROFILE;
  const reshape = !shapesNothing(profile);
  for (const [op, def] of Object.entries(effectiveRoutes(profile)) as [OperationId, RouteDef][]) {
    const handler = handlers[op] as
      | ((
          c: ServerContext,
          r: { params: unknown; query: unknown; body: unknown; caller: Caller },
        ) => unknown)
      | undefined;
    const rest = restParam(def.path);
    const schema: Record<string, unknown> = {};
    const params = paramsSchema(def);
    if (params) schema.params = params;
    if (def.query) schema.querystring = def.query;
    if (def.body) schema.body = def.body;
    if (options.checkResponses && def.response)
      responseChecks.set(op, responseAjv.compile(def.response));
    app.route({
      method: def.method,
      url: toFastifyPath(def.path),
      schema,
      config: { operation: op, def },
      ...(reshape && def.paging
        ? {
            preValidation: async (req: FastifyRequest) => {
              req.query = canonicalQuery(def, req.query as Record<string, unknown>, profile);
            },
          }
        : {}),
      handler: async (req, reply) => {
        if (!handler) throw new HttpError("INTERNAL", `operation ${op} is not implemented`);
        const p = { ...(req.params as Record<string, unknown>) };
        if (rest) {
          p[rest] = p["*"];
          delete p["*"];
        }
        const result = await handler(ctx, {
          params: p,
          query: reshape
            ? pagingOf(def, (req.query ?? {}) as Record<string, unknown>, profile)
            : (req.query ?? {}),
          body: req.body,
          caller: req.caller!,
        });
        if (req.fault?.kind === "dropAfter") {
          logEntry(req, 0, "dropAfter");
          reply.hijack();
          req.raw.socket.destroy();
          return;
        }
        const status = isWithStatus(result) ? result[WITH_STATUS] : def.successStatus;
        const body = isWithStatus(result) ? result.body : result;
        const check = responseChecks.get(op);
        if (check && status === def.successStatus && !check(body)) {
          throw new HttpError(
            "INTERNAL",
            `response of ${op} does not match its schema: ${responseAjv.errorsText(check.errors)}`,
          );
        }
        void reply.code(status);
        if (status === 204) return reply.send();
        return (reshape ? shapeAnswer(def, body, profile) : body) ?? null;
      },
    });
  }

  if (options.control ?? true)
    registerControl(app, {
      ctx,
      faults,
      requestLog,
      authenticate: (req) => {
        const secret = bearer(req.headers.authorization);
        const t = secret ? tokenMap.get(secret) : undefined;
        if (!t) throw unauthorized("invalid token");
        if (t.spec.role !== "system-admin")
          throw new HttpError("FORBIDDEN", "control endpoints need a system-admin token");
      },
    });

  return {
    app,
    ctx,
    faults,
    requestLog,
    tokens,
    async listen(port = 0, host = "127.0.0.1") {
      const address = await app.listen({ port, host });
      return address.replace("[::1]", "localhost");
    },
    async close() {
      queue.close();
      await app.close();
      db.close();
    },
  };
}

function injected(f: OneShotFault): HttpError {
  switch (f.kind) {
    case "status429":
      return new HttpError("RATE_LIMITED", "rate limited (injected)", undefined, {
        "retry-after": String(f.retryAfter ?? 1),
      });
    case "status503":
      return new HttpError("UNAVAILABLE", "service unavailable (injected)");
    case "status500":
    case "drop":
    case "dropAfter":
      return new HttpError("INTERNAL", "internal error (injected)");
  }
}

/** Make sure a token's parent organization exists (with its default settings). */
function ensureParentOrg(db: Db, name: string): number {
  const row = db.get<{ id: number; parent_id: number | null }>(
    "SELECT id, parent_id FROM organizations WHERE name = ?",
    name,
  );
  if (row) return row.id;
  return Number(
    db.run(
      "INSERT INTO organizations (name, parent_id, created) VALUES (?, NULL, ?)",
      name,
      isoNow(),
    ).lastInsertRowid,
  );
}
