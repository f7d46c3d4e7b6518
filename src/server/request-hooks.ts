/**
 * What happens around every request: injected latency, authentication of API operations,
 * fault injection before the handler (random or one-shot), the request log entry once the
 * answer is sent, and the `Deprecation` header of deprecated operations.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { OperationId } from "../api/routes.js";
import type { RouteDef } from "../api/route-def.js";
import { bearer } from "./auth.js";
import type { Caller } from "./context.js";
import { HttpError } from "./errors.js";
import type { Faults, OneShotFault } from "./faults.js";
import type { RequestLog } from "./request-log.js";
import type { TokenTable } from "./tokens.js";

declare module "fastify" {
  interface FastifyContextConfig {
    operation?: OperationId;
    def?: RouteDef;
    /** Paging query parameters as the API profile calls them, by their canonical name. */
    queryNames?: Readonly<Record<string, string>>;
  }
  interface FastifyRequest {
    caller?: Caller;
    started?: number;
    fault?: OneShotFault;
    /** Parent organization id of the request's token, once known. */
    tenant?: number;
  }
}

const isControl = (req: FastifyRequest) => req.url.startsWith("/_control");

const tokenOf = (req: FastifyRequest) =>
  bearer(req.headers.authorization) ?? (req.headers["private-token"] as string | undefined);

/** Add one request to the log (never /_control's own calls). */
export function logRequest(
  log: RequestLog,
  req: FastifyRequest,
  status: number,
  fault: string | null,
): void {
  if (!log.enabled || isControl(req)) return;
  log.add({
    method: req.method,
    url: req.url,
    operation: req.routeOptions.config?.operation ?? null,
    status,
    fault,
    ms: Math.round((performance.now() - (req.started ?? performance.now())) * 10) / 10,
    parentOrgId: req.tenant ?? null,
  });
}

/**
 * Log a request fastify answered before routing it (a path it could not decode, a path
 * parameter too long): no route, no hooks, so no timing and only the token's tenant.
 */
export function logUnrouted(
  log: RequestLog,
  tokens: TokenTable,
  req: FastifyRequest,
  status: number,
): void {
  if (!log.enabled || isControl(req)) return;
  log.add({
    method: req.method,
    url: req.url,
    operation: null,
    status,
    fault: null,
    ms: 0,
    parentOrgId: tokens.tenantOf(tokenOf(req)),
  });
}

/** Drop the connection without an answer (a `drop` or `dropAfter` fault). */
export function dropConnection(
  log: RequestLog,
  req: FastifyRequest,
  reply: { hijack(): void },
  kind: string,
): void {
  logRequest(log, req, 0, kind);
  reply.hijack();
  req.raw.socket.destroy();
}

export function installRequestHooks(
  app: FastifyInstance,
  d: { tokens: TokenTable; faults: Faults; log: RequestLog },
): void {
  app.addHook("onRequest", async (req, reply) => {
    req.started = performance.now();
    const op = req.routeOptions.config?.operation;
    const def = req.routeOptions.config?.def;
    const wait = isControl(req) ? 0 : d.faults.delay();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (!def) {
      // Not an API operation (404, 405, /openapi.*): attribute it when the token is known.
      const id = isControl(req) ? null : d.tokens.tenantOf(tokenOf(req));
      if (id !== null) req.tenant = id;
      return;
    }
    req.caller = d.tokens.authenticate(req, def, op!, (id) => (req.tenant = id));
    const fault = d.faults.pick(req.method, op, req.tenant ?? null);
    if (!fault) return;
    req.fault = fault;
    if (fault.kind === "drop") return dropConnection(d.log, req, reply, "drop");
    if (fault.kind !== "dropAfter") throw injected(fault);
  });

  app.addHook("onResponse", async (req, reply) => {
    const fault = req.fault && req.fault.kind !== "dropAfter" ? req.fault.kind : null;
    logRequest(d.log, req, reply.statusCode, fault);
  });

  app.addHook("onSend", async (req, reply, payload) => {
    if (req.routeOptions.config?.def?.deprecated) {
      // RFC 9745: the operation is deprecated since the API version 2026-02.
      reply.header("deprecation", "@1769904000");
    }
    return payload;
  });
}

function injected(f: OneShotFault): HttpError {
  switch (f.kind) {
    case "status429":
      return new HttpError("RATE_LIMITED", "rate limited (injected)", undefined, {
        "retry-after": String(f.retryAfter ?? 1),
      });
    case "status503":
      return new HttpError("UNAVAILABLE", "service unavailable (injected)");
    case "status403":
      return new HttpError("FORBIDDEN", "forbidden (injected)");
    case "status500":
    case "drop":
    case "dropAfter":
      return new HttpError("INTERNAL", "internal error (injected)");
  }
}
