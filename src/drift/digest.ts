/**
 * Whether the drift changed since the last run. Two digests say it: the plan hash
 * (changesDigest: what apply would send and the live values it changes; the hash people see)
 * and the live digest, of the live values of the drifted fields — which an issue kept by a
 * phctl whose plan hash left live values out still needs to see that a field that drifted to
 * "A" is "B" on the next run. Only what the drift says counts:
 * a deleted object's other live fields (timestamps, counters) are not drift, and a list of
 * plain values is compared as a set (the service need not list them in the same order twice).
 */
import type { PlanEntry } from "../engine/plan.js";
import { asSet, canonical, changesDigest, sha256 } from "../engine/reviewed.js";

/** The digests of one run's drift, as the issue body and the state file keep them. */
export interface DriftDigests {
  /** changesDigest of the entries (the plan hash). */
  digest?: string;
  /** liveDigest of the entries; absent where an earlier phctl wrote the state. */
  live?: string;
}

/** sha256 (hex) of the live values of the drifted fields (update, ticket, blocked entries). */
export function liveDigest(entries: readonly PlanEntry[]): string {
  const live = entries
    .flatMap((e) => e.changes.map((c) => ({ key: e.key, field: c.field, live: asSet(c.before) })))
    .sort((a, b) => (a.key === b.key ? (a.field < b.field ? -1 : 1) : a.key < b.key ? -1 : 1));
  return sha256(canonical(live));
}

/** Both digests of a drifted run. */
export function driftDigests(entries: readonly PlanEntry[]): { digest: string; live: string } {
  return { digest: changesDigest(entries), live: liveDigest(entries) };
}

/**
 * The drift differs from what the last run kept: other changes, or other live values (when
 * both runs kept them: a state written before the live digest is no change by itself).
 */
export function driftChanged(was: DriftDigests, now: DriftDigests): boolean {
  if (was.digest !== now.digest) return true;
  return was.live !== undefined && now.live !== undefined && was.live !== now.live;
}
