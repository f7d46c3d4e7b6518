/**
 * One section of the API as the server implements it: handlers, job effects, seeding; and
 * what the sections' seeding shares (counts, errors naming the object).
 */
import type { Handlers, ServerContext } from "../context.js";
import type { JobEffect } from "../queue.js";
import type { SeedDocument, SeedCounts } from "../seed.js";

export interface Section {
  readonly name: string;
  readonly handlers: Handlers;
  /** Effects of this section's queued jobs, by action name. */
  jobs?(ctx: ServerContext): Record<string, JobEffect>;
  /** Insert this section's part of a seed document (runs inside one transaction, in section order). */
  seed?(ctx: ServerContext, doc: SeedDocument, counts: SeedCounts): void;
}

/** Add `n` (default 1) to the count of `kind`; a kind of which nothing was inserted stays out. */
export function addCount(counts: SeedCounts, kind: string, n = 1): void {
  if (n > 0) counts[kind] = (counts[kind] ?? 0) + n;
}

/**
 * Prefix an error thrown by `fn` with the object it came from. API rule errors (HttpError)
 * read the same in a seed: "project x already exists".
 */
export function seedContext<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new Error(`${what}: ${message}`);
  }
}
