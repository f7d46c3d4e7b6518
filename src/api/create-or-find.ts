/**
 * Creating safely over an unreliable network. A POST that fails ambiguously (dropped after
 * sending, timeout, 5xx) may have created the object; sending it again could create it
 * twice. `createOrFind` re-reads by natural key first and only sends again when the object
 * is not there. A 429 is a definite "not processed": it waits for Retry-After and sends again.
 *
 * Only the create request's own answer is read this way: `create` may also wait on the
 * job it queued, and a failure of that wait (a 429 or an outage on a status poll, a
 * timeout) says nothing about the create — it is passed on, never answered by a re-send.
 * A queued create whose job failed is re-read too: a duplicate job fails ("already has an
 * account") exactly when the first one landed.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { AmbiguousRequestError, ApiError, JobFailedError } from "./errors.js";
import { sleep } from "./limit.js";

/**
 * What the creates of one apply action met, for the walk that runs it (src/engine/walk.ts):
 * `existed` is set when a create was answered 409 Conflict and the object was found — made
 * by another writer after this run read live state (another apply at work on the same
 * service, or a person), never by this run's own earlier attempt. It decides who owes the
 * object's side effects (the welcome mail). Carried by AsyncLocalStorage so that every
 * kind's create reports it without threading a value through each of them.
 */
export interface CreateWitness {
  existed: boolean;
}
export const createWitness = new AsyncLocalStorage<CreateWitness>();

export type CreateOutcome =
  /** The create call answered. */
  | "created"
  /** The create call's answer was lost, and the re-read found the object. */
  | "found"
  /**
   * The create call said 409 Conflict, and the re-read found the object: another writer made
   * it (after an ambiguous attempt of this call's own, a 409 is "found": that one landed).
   */
  | "existed";

export interface CreateOrFindOptions {
  /** Create attempts in all (default 3). */
  attempts?: number;
  /** Wait before an attempt after an ambiguous failure, ms (default 250, doubled each time). */
  delayMs?: number;
  /** Longest 429 Retry-After to wait for, ms (default 60 s). */
  maxRetryAfterMs?: number;
  /** Treat a 409 Conflict as "already there" and re-read (default true). */
  findOnConflict?: boolean;
  signal?: AbortSignal;
}

/**
 * Run `create`; on an ambiguous failure or a conflict, run `find` (a read by natural key,
 * undefined when absent) and return what it finds, or try `create` again.
 */
export async function createOrFind<T>(
  create: () => Promise<T>,
  find: () => Promise<T | undefined>,
  options: CreateOrFindOptions = {},
): Promise<{ value: T; outcome: CreateOutcome; attempts: number }> {
  const attempts = options.attempts ?? 3;
  let delay = options.delayMs ?? 250;
  let last: unknown;
  /** An earlier attempt may have landed: a conflict then is most likely this call's own. */
  let mayHaveLanded = false;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      return { value: await create(), outcome: "created", attempts: attempt };
    } catch (e) {
      last = e;
      // A status poll (GET) failed, not the create: never answered by sending again.
      if (e instanceof ApiError && e.method === "GET") throw e;
      if (e instanceof JobFailedError) {
        const found = await find();
        if (found !== undefined) return { value: found, outcome: "existed", attempts: attempt };
        throw e;
      }
      if (e instanceof AmbiguousRequestError) {
        mayHaveLanded = true;
        const found = await find();
        if (found !== undefined) return { value: found, outcome: "found", attempts: attempt };
        await sleep(delay, options.signal);
        delay *= 2;
        continue;
      }
      if (e instanceof ApiError && e.status === 409 && options.findOnConflict !== false) {
        const found = await find();
        if (found === undefined) throw e;
        if (mayHaveLanded) return { value: found, outcome: "found", attempts: attempt };
        const witness = createWitness.getStore();
        if (witness) witness.existed = true;
        return { value: found, outcome: "existed", attempts: attempt };
      }
      if (e instanceof ApiError && e.status === 429) {
        const wait = e.retryAfterMs ?? delay;
        if (wait > (options.maxRetryAfterMs ?? 60_000)) throw e;
        await sleep(wait, options.signal);
        continue;
      }
      throw e;
    }
  }
  throw last;
}
