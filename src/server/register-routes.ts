/**
 * Every operation of the (effective) route table registered on fastify with its handler:
 * path, method, schemas of path parameters, query and body, the API profile's edge
 * translation, `dropAfter` faults, the success status, and — with `checkResponses` — the
 * answer checked against its schema (a mismatch is a 500, so tests catch it).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { OperationId } from "../api/routes.js";
import { effectiveRoutes, type ApiProfile } from "../api/profile.js";
import { paramsSchema, restParam, toFastifyPath, type RouteDef } from "../api/route-def.js";
import {
  isWithStatus,
  WITH_STATUS,
  type Caller,
  type Handlers,
  type ServerContext,
} from "./context.js";
import { HttpError } from "./errors.js";
import {
  canonicalQuery,
  pagingOf,
  profileQueryNames,
  shapeAnswer,
  shapesNothing,
} from "./profile-shape.js";
import type { RequestLog } from "./request-log.js";
import { dropConnection } from "./request-hooks.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

type AnyHandler = (
  c: ServerContext,
  r: { params: unknown; query: unknown; body: unknown; caller: Caller },
) => unknown;

export interface RouteDeps {
  ctx: ServerContext;
  handlers: Handlers;
  profile: ApiProfile;
  log: RequestLog;
  checkResponses: boolean;
}

export function registerRoutes(app: FastifyInstance, d: RouteDeps): void {
  // Response checks (tests) are compiled on an operation's first answer, as request
  // validators are (validation.ts): compiling all ~140 up front cost each test's server
  // about 0.4 s of CPU at start.
  let responseAjv: Ajv | undefined;
  const ajvForResponses = () => {
    if (!responseAjv) {
      responseAjv = new Ajv({ strict: false, allErrors: false });
      addFormats(responseAjv);
    }
    return responseAjv;
  };
  const responseChecks = new Map<OperationId, () => ValidateFunction>();
  // An API profile: its paths and methods, and its envelope at the edge (profile-shape.ts).
  const profile = d.profile;
  const reshape = !shapesNothing(profile);
  const queryNames = profileQueryNames(profile);
  for (const [op, def] of Object.entries(effectiveRoutes(profile)) as [OperationId, RouteDef][]) {
    const handler = d.handlers[op] as AnyHandler | undefined;
    const rest = restParam(def.path);
    const schema: Record<string, unknown> = {};
    const params = paramsSchema(def);
    if (params) schema.params = params;
    if (def.query) schema.querystring = def.query;
    if (def.body) schema.body = def.body;
    if (d.checkResponses && def.response) {
      const response = def.response;
      let compiled: ValidateFunction | undefined;
      responseChecks.set(op, () => (compiled ??= ajvForResponses().compile(response)));
    }
    app.route({
      method: def.method,
      url: toFastifyPath(def.path),
      schema,
      config: { operation: op, def, ...(reshape && def.paging ? { queryNames } : {}) },
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
        const result = await handler(d.ctx, {
          params: p,
          query: reshape
            ? pagingOf(def, (req.query ?? {}) as Record<string, unknown>, profile)
            : (req.query ?? {}),
          body: req.body,
          caller: req.caller!,
        });
        if (req.fault?.kind === "dropAfter") return dropConnection(d.log, req, reply, "dropAfter");
        const status = isWithStatus(result) ? result[WITH_STATUS] : def.successStatus;
        const body = isWithStatus(result) ? result.body : result;
        const check = status === def.successStatus ? responseChecks.get(op)?.() : undefined;
        if (check && !check(body)) {
          throw new HttpError(
            "INTERNAL",
            `response of ${op} does not match its schema: ${ajvForResponses().errorsText(check.errors)}`,
          );
        }
        void reply.code(status);
        if (status === 204) return reply.send();
        return (reshape ? shapeAnswer(def, body, profile) : body) ?? null;
      },
    });
  }
}
