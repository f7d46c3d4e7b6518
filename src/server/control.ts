/**
 * Test and benchmark control endpoints under /_control (system-admin token): the request
 * log, one-shot faults (HTTP, queue jobs, forks), the e-mail outbox, draining the queue and
 * seeding. Not part of the administration API; `--no-control` turns them off.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { QueueKind } from "../api/route-def.js";
import type { RequestLogEntry } from "./app.js";
import type { ServerContext } from "./context.js";
import { FAULT_KINDS, type Faults, type OneShotFault } from "./faults.js";
import { seed, type SeedDocument } from "./seed.js";
import { armForkFailure } from "./routes/git/fork.js";

export interface ControlDeps {
  ctx: ServerContext;
  faults: Faults;
  requestLog: RequestLogEntry[];
  authenticate(req: FastifyRequest): void;
}

export function registerControl(app: FastifyInstance, d: ControlDeps): void {
  app.register(
    async (c) => {
      c.addHook("onRequest", async (req) => d.authenticate(req));
      c.get("/requests", async () => ({ data: d.requestLog }));
      c.delete("/requests", async () => {
        d.requestLog.length = 0;
        return { status: { code: 200, message: "cleared" } };
      });
      c.post<{ Body: { faults: OneShotFault[] } }>(
        "/faults",
        {
          schema: {
            body: {
              type: "object",
              required: ["faults"],
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
                    },
                  },
                },
              },
            },
          },
        },
        async (req) => {
          for (const f of req.body.faults) d.faults.add(f);
          return { data: d.faults.pending() };
        },
      );
      c.delete("/faults", async () => {
        d.faults.clear();
        return { status: { code: 200, message: "cleared" } };
      });
      c.post<{ Body: { queue?: QueueKind; action?: string; message: string } }>(
        "/job-faults",
        {
          schema: {
            body: {
              type: "object",
              required: ["message"],
              additionalProperties: false,
              properties: {
                queue: { enum: ["entitlement", "orgTeam", "transfer", "rename"] },
                action: { type: "string" },
                message: { type: "string" },
              },
            },
          },
        },
        async (req) => {
          d.ctx.queue.failNext(req.body);
          return { status: { code: 200, message: "armed" } };
        },
      );
      c.get("/jobs", async () => ({ data: d.ctx.queue.openJobs() }));
      c.post("/jobs/drain", async () => {
        d.ctx.queue.drain();
        return { status: { code: 200, message: "drained" } };
      });
      c.get("/outbox", async () => ({ data: d.ctx.outbox.list() }));
      c.post<{ Body: { project?: string } | undefined }>("/fork-failure", async (req) => {
        // The next fork (of that project, or any) fails and starts a cleanup window.
        armForkFailure(d.ctx, req.body?.project);
        return { status: { code: 200, message: "armed" } };
      });
      c.post<{ Body: SeedDocument }>("/seed", async (req) => ({ data: seed(d.ctx, req.body) }));
    },
    { prefix: "/_control" },
  );
}
