/**
 * Waiting for queued jobs. A queued operation answers `{code, description, queueid}`
 * (`queuid` for the organization rename, an array of one for organization-team
 * assignment); its effect is visible once the job's status endpoint says `completed`.
 * `waitForJob` polls that endpoint with exponential backoff and jitter — the first poll
 * after 200 ms (a job takes time: a poll at once mostly finds it open, and costs a request
 * per job), then ×2 with equal jitter, capped at 5 s — and holds no concurrency slot while
 * it sleeps: each poll is an ordinary call. The sleeps end on a shared 10 ms grid
 * (poll-clock.ts): polls due together wake the process once.
 */
import type { QueueKind } from "./route-def.js";
import { JobFailedError, JobTimeoutError } from "./errors.js";
import type { sleep } from "./limit.js";
import { pollSleep } from "./poll-clock.js";
import type { OperationId } from "./routes.js";
import { findQueueId, isObject } from "./envelope.js";
import { DEFAULT_PROFILE, DEFAULT_QUEUE_ID } from "./profile.js";
import { describeValue, ResponseShapeError } from "./shape-error.js";
import { checkResponse } from "./strict.js";

/** The status endpoint of each queue. */
export const STATUS_OPERATION = {
  entitlement: "users.entitlementStatus",
  orgTeam: "orgTeams.queueStatus",
  transfer: "users.transferStatus",
  rename: "organizations.renameStatus",
} as const satisfies Record<QueueKind, OperationId>;

/** A job's status record (the fields vary by queue; `status` and `message` are common). */
export interface JobStatus {
  status: string;
  message: string | null;
  [field: string]: unknown;
}

export interface WaitOptions {
  /** Give up after this long, ms (default 10 min). */
  timeoutMs?: number;
  /** Wait before the first poll, ms (default 200; up to a quarter more, jittered). */
  pollStartMs?: number;
  /** Longest wait between polls, ms (default 5000). */
  pollMaxMs?: number;
  /** Growth of the wait per poll (default 2). */
  factor?: number;
  signal?: AbortSignal;
  /** Called after each poll that found the job still running. */
  onPoll?: (status: JobStatus, poll: number) => void;
}

export const DEFAULT_WAIT = {
  timeoutMs: 10 * 60_000,
  pollStartMs: 200,
  pollMaxMs: 5_000,
  factor: 2,
} as const;

const DONE = new Set(["completed", "complete", "done", "success"]);
const FAILED = new Set(["failed", "error"]);

/**
 * The queue id in a queued operation's answer, whichever of its three shapes it has (the
 * client's answers are canonical: `queueid`, whatever the profile calls it), or undefined
 * for an answer that took effect at once (`{status}`: adding an admin). Anything else is a
 * `ResponseShapeError` naming the profile setting `queue.id`: an answer without a job id is
 * never taken for one with nothing to wait for. With `op`, the route table decides whether
 * an immediate answer is allowed at all.
 */
export function queueIdOf(
  answer: unknown,
  op?: OperationId,
  names: readonly string[] = DEFAULT_QUEUE_ID,
): string | undefined {
  const one = Array.isArray(answer) ? (answer[0] as unknown) : answer;
  const id = findQueueId(one, names);
  if (id !== undefined) return id;
  if (op !== undefined) {
    const mismatches = checkResponse(op, answer, { ...DEFAULT_PROFILE, queueId: names });
    if (mismatches.length > 0) throw new ResponseShapeError(mismatches);
    return undefined;
  }
  if (isObject(one) && isObject(one.status)) return undefined;
  throw new ResponseShapeError([
    {
      operation: "a queued operation",
      path: `${Array.isArray(answer) ? "/0" : ""}/${names[0]}`,
      expected: "a job id (a string)",
      got: describeValue(isObject(one) ? one[names[0]] : one),
      ...(isObject(one) ? { had: Object.keys(one) } : {}),
      setting: "queue.id",
    },
  ]);
}

/** Reads one status record (the client's typed call of the queue's status operation). */
export type ReadStatus = (
  kind: QueueKind,
  queueid: string,
  signal?: AbortSignal,
) => Promise<JobStatus>;

/**
 * Poll until the job completes (resolves to its last status record), fails (rejects with
 * `JobFailedError` carrying the job's message), or the timeout runs out (`JobTimeoutError`).
 */
export async function waitForJob(
  read: ReadStatus,
  kind: QueueKind,
  queueid: string,
  options: WaitOptions = {},
  deps: { random?: () => number; sleep?: typeof sleep } = {},
): Promise<JobStatus> {
  const random = deps.random ?? Math.random;
  const pause = deps.sleep ?? pollSleep;
  const o = { ...DEFAULT_WAIT, ...options };
  const started = performance.now();
  let wait = o.pollStartMs;
  await pause(Math.min(o.timeoutMs, wait * (1 + random() / 4)), o.signal);
  for (let poll = 1; ; poll++) {
    const s = await read(kind, queueid, o.signal);
    const word = String(s.status).toLowerCase();
    if (DONE.has(word)) return s;
    if (FAILED.has(word))
      throw new JobFailedError(kind, queueid, s.message ?? "no reason given", word);
    options.onPoll?.(s, poll);
    const left = o.timeoutMs - (performance.now() - started);
    if (left <= 0) throw new JobTimeoutError(kind, queueid, word, o.timeoutMs);
    wait = Math.min(o.pollMaxMs, wait * o.factor);
    // Equal jitter: at least half the step, so polls do not collapse to zero.
    await pause(Math.min(left, wait / 2 + random() * (wait / 2)), o.signal);
  }
}
