/**
 * The reference server's app factory. `buildServer(options)` wires the database, the queue
 * worker, the tokens, request validation, error handling, the request hooks (latency,
 * auth, faults, request log) and every operation of the route table to its handler, plus
 * the OpenAPI document and, when asked for, /_control. `listen` is separate so tests can
 * use `inject()` or a loopback port.
 */
import Fastify, { type FastifyInstance } from "fastify";
import { randomBytes } from "node:crypto";
import { DEFAULT_PROFILE } from "../api/profile.js";
import { AllowedMethods } from "./allowed-methods.js";
import type { Handlers, ServerContext } from "./context.js";
import { registerControl } from "./control.js";
import {
  BODY_LIMIT,
  clientErrorHandler,
  frameworkErrorHandler,
  installErrorHandling,
  MAX_PARAM_LENGTH,
} from "./error-handling.js";
import { Faults } from "./faults.js";
import { installJsonBody } from "./json-body.js";
import { registerOpenApi } from "./openapi-routes.js";
import type { ServerOptions, TokenSpec } from "./options.js";
import { Outbox } from "./outbox.js";
import { Queue } from "./queue.js";
import { registerRoutes } from "./register-routes.js";
import { installRequestHooks, logUnrouted } from "./request-hooks.js";
import { DEFAULT_REQUEST_LOG_SIZE, RequestLog, type RequestLogEntry } from "./request-log.js";
import { sections } from "./routes/index.js";
import { Db } from "./store/db.js";
import { TokenTable } from "./tokens.js";
import { installValidation } from "./validation.js";

export type { RequestLogEntry } from "./request-log.js";

export interface PhServer {
  readonly app: FastifyInstance;
  readonly ctx: ServerContext;
  readonly faults: Faults;
  /**
   * The request log's entries, oldest first: empty unless `requestLog` is on, and at most
   * `requestLogSize` long. Tests read and clear it in place.
   */
  readonly requestLog: RequestLogEntry[];
  readonly tokens: readonly TokenSpec[];
  /** Refuse a token from now on (401, "invalid token"): a token that expired mid-run. */
  revokeToken(secret: string): void;
  /** Listen on host:port (default 127.0.0.1, random port); resolves to the base URL. */
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
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
  const tokens = new TokenTable(db, options.tokens ?? []);
  const faults = new Faults(options.faultRate ?? 0, options.latencyMs ?? 0, options.faultSeed ?? 1);
  const log = new RequestLog(
    options.requestLog ?? false,
    options.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE,
  );

  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT,
    forceCloseConnections: true,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: frameworkErrorHandler((req, status) => logUnrouted(log, tokens, req, status)),
    clientErrorHandler,
  });
  const allowed = new AllowedMethods();
  allowed.collect(app);
  installValidation(app);
  installErrorHandling(app, allowed);
  installJsonBody(app);
  installRequestHooks(app, { tokens, faults, log });

  for (const s of sections)
    for (const [action, effect] of Object.entries(s.jobs?.(ctx) ?? {}))
      queue.register(action, effect);
  queue.resumePending();

  const profile = options.apiProfile ?? DEFAULT_PROFILE;
  registerRoutes(app, {
    ctx,
    handlers: allHandlers(),
    profile,
    log,
    checkResponses: options.checkResponses ?? false,
  });
  registerOpenApi(app, profile);
  if (options.control === true)
    registerControl(app, { ctx, faults, log, authenticate: (req) => tokens.control(req) });

  return {
    app,
    ctx,
    faults,
    requestLog: log.entries,
    tokens: tokens.tokens,
    revokeToken: (secret: string) => tokens.revoke(secret),
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
