/**
 * Test and benchmark control endpoints under /_control, served only with `control: true`
 * (`phctl serve --control`): the request log, one-shot faults (HTTP, queue jobs, forks),
 * the e-mail outbox, open jobs, draining the queue and seeding. Not part of the API.
 *
 * Each call is confined to the caller's parent organization (a system-admin token): it
 * reads and clears only its own requests, jobs and mails, arms faults that strike only its
 * own requests, jobs and forks, and seeds only into its own parent organization. A token
 * with the test-admin capability (`testAdmin`, `--token …:test-admin`) acts on every one.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { QueueKind } from "../api/route-def.js";
import type { ServerContext } from "./context.js";
import { confineSeed } from "./control-seed.js";
import { ruleViolated, HttpError } from "./errors.js";
import { FAULT_KINDS, type Faults, type OneShotFault } from "./faults.js";
import type { RequestLog } from "./request-log.js";
import { seed, type SeedDocument } from "./seed.js";
import type { ControlCaller } from "./tokens.js";
import { armForkFailure } from "./routes/git/fork.js";

export interface ControlDeps {
  ctx: ServerContext;
  faults: Faults;
  log: RequestLog;
  authenticate(req: FastifyRequest): ControlCaller;
}

const FAULTS_BODY = {
  type: "object",
  required: ["faults"],
  additionalProperties: false,
  properties: {
    faults: {
      type: "array",
      items: {
        type: "object",
        required: ["kind"],
        additionalProperties: false,
        properties: {
          kind: { enum: FAULT_KINDS },
          method: { type: "string" },
          operation: { type: "string" },
          retryAfter: { type: "number" },
          times: { type: "integer", minimum: 1 },
          rate: { type: "number", minimum: 0, maximum: 1 },
        },
      },
    },
  },
};

const JOB_FAULT_BODY = {
  type: "object",
  required: ["message"],
  additionalProperties: false,
  properties: {
    queue: { enum: ["entitlement", "orgTeam", "transfer", "rename"] },
    action: { type: "string" },
    message: { type: "string" },
  },
};

const cleared = (message: string) => ({ status: { code: 200, message } });

declare module "fastify" {
  interface FastifyRequest {
    control?: ControlCaller;
  }
}

export function registerControl(app: FastifyInstance, d: ControlDeps): void {
  app.register(
    async (c) => {
      c.addHook("onRequest", async (req) => {
        req.control = d.authenticate(req);
      });
      /** The caller's parent organization id, or null for a test-admin token. */
      const scope = (req: FastifyRequest) => req.control!.parentOrgId;
      const orUndefined = (id: number | null) => id ?? undefined;

      c.get("/requests", async (req) => ({ data: d.log.visibleTo(scope(req)) }));
      c.delete("/requests", async (req) => {
        d.log.clear(scope(req));
        return cleared("cleared");
      });

      c.post<{ Body: { faults: OneShotFault[] } }>(
        "/faults",
        { schema: { body: FAULTS_BODY } },
        async (req) => {
          const id = scope(req);
          for (const f of req.body.faults)
            d.faults.add(id === null ? f : { ...f, parentOrgId: id });
          return { data: d.faults.pending(orUndefined(id)) };
        },
      );
      c.delete("/faults", async (req) => {
        const id = scope(req);
        if (id === null) d.faults.clear();
        else d.faults.clearFor(id);
        return cleared("cleared");
      });
      c.post<{ Body: { queue?: QueueKind; action?: string; message: string } }>(
        "/job-faults",
        { schema: { body: JOB_FAULT_BODY } },
        async (req) => {
          const id = scope(req);
          d.ctx.queue.failNext(id === null ? req.body : { ...req.body, parentOrgId: id });
          return cleared("armed");
        },
      );
      c.get("/jobs", async (req) => ({ data: d.ctx.queue.openJobs(orUndefined(scope(req))) }));
      c.post("/jobs/drain", async (req) => {
        d.ctx.queue.drain(orUndefined(scope(req)));
        return cleared("drained");
      });
      c.get("/outbox", async (req) => ({ data: d.ctx.outbox.list(orUndefined(scope(req))) }));
      c.post<{ Body: { project?: string } | undefined }>("/fork-failure", async (req) => {
        // The next fork (of that project, or any of the caller's) fails and starts a cleanup window.
        armForkFailure(d.ctx, req.body?.project, orUndefined(scope(req)));
        return cleared("armed");
      });
      c.post<{ Body: SeedDocument }>(
        "/seed",
        { schema: { body: { type: "object" } } },
        async (req) => {
          const id = scope(req);
          const doc = id === null ? req.body : confineSeed(d.ctx, req.body, id);
          try {
            return { data: seed(d.ctx, doc) };
          } catch (e) {
            if (e instanceof HttpError) throw e;
            throw ruleViolated(e instanceof Error ? e.message : String(e));
          }
        },
      );
    },
    { prefix: "/_control" },
  );
}
