/** One section of the API as the server implements it: handlers, job effects, seeding. */
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
