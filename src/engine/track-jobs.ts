/**
 * A thin view of an ApiClient for one apply action that reports the queue ids of the jobs
 * it starts — the moment a queued operation answers, before anything waits on it — and
 * when they complete. The journal learns the ids this way, so `apply --resume` can wait on
 * an interrupted run's jobs instead of sending their requests again. The kinds are
 * unchanged: they get this view where they would get the client.
 */
import type { ApiClient } from "../api/client.js";
import { ApiError, JobFailedError } from "../api/errors.js";
import { buildMethods } from "../api/methods.js";
import { queueIdOf, type JobStatus, type WaitOptions } from "../api/queue.js";
import type { QueueKind, RouteDef } from "../api/route-def.js";
import { routes, type OperationId } from "../api/routes.js";

export interface JobHooks {
  /** A queued operation answered this id (called once per id, before any wait). */
  queued(queue: QueueKind, queueId: string): void;
  /** The job completed. */
  completed(queue: QueueKind, queueId: string): void;
  /** The job ended failed (its message); a job whose wait timed out is neither. */
  failed(queue: QueueKind, queueId: string, message: string): void;
}

/**
 * The open job a 409 names: the service refuses a second identical queued request while the
 * first job is open (`… is already queued (<job id>)`). Waiting on that job is what the
 * request wanted; sending it again would queue a duplicate.
 */
export function alreadyQueued(e: unknown): string | undefined {
  if (!(e instanceof ApiError) || e.status !== 409) return undefined;
  return /already queued \(([^()\s]+)\)\s*$/.exec(e.serverMessage)?.[1];
}

type LooseCall = (op: OperationId, ...args: unknown[]) => Promise<unknown>;

/** The queue of an operation, if it answers a queue id. */
const queueOf = (op: OperationId): QueueKind | undefined => (routes[op] as RouteDef).queue;

export function trackJobs(api: ApiClient, hooks: JobHooks): ApiClient {
  const announced = new Set<string>();
  const announce = (queue: QueueKind, id: string) => {
    if (announced.has(id)) return;
    announced.add(id);
    hooks.queued(queue, id);
  };
  const call: LooseCall = async (op, ...args) => {
    const res = await (api.call as unknown as LooseCall)(op, ...args);
    const queue = queueOf(op);
    const id = queue ? queueIdOf(res, op) : undefined;
    if (queue && id) announce(queue, id);
    return res;
  };
  const waitForJob = async (
    queue: QueueKind,
    id: string,
    options?: WaitOptions,
  ): Promise<JobStatus> => {
    announce(queue, id);
    let status: JobStatus;
    try {
      status = await api.waitForJob(queue, id, options);
    } catch (e) {
      if (e instanceof JobFailedError) hooks.failed(queue, id, e.jobMessage);
      throw e;
    }
    hooks.completed(queue, id);
    return status;
  };
  // As ApiClient.callAndWait, through the tracked call and wait; an "already queued" 409
  // waits on the job it names.
  const callAndWait = async (op: OperationId, args: unknown, wait: WaitOptions = {}) => {
    const queue = queueOf(op);
    let response: unknown;
    try {
      response = await call(op, args, wait.signal ? { signal: wait.signal } : {});
    } catch (e) {
      const open = queue ? alreadyQueued(e) : undefined;
      if (!queue || !open) throw e;
      return { response: { queueid: open }, job: await waitForJob(queue, open, wait) };
    }
    const id = queue ? queueIdOf(response, op) : undefined;
    const job = queue && id ? await waitForJob(queue, id, wait) : undefined;
    return { response, job };
  };
  // Built when a kind first asks for it: an apply makes one view per action.
  let ops: ReturnType<typeof buildMethods> | undefined;
  return new Proxy(api, {
    get(target, prop) {
      switch (prop) {
        case "call":
          return call;
        case "waitForJob":
          return waitForJob;
        case "callAndWait":
          return callAndWait;
        case "ops":
          return (ops ??= buildMethods(call));
        default: {
          // The client keeps #private state: its own methods must run on it, not on the proxy.
          const v: unknown = Reflect.get(target, prop, target);
          return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        }
      }
    },
  });
}
