/**
 * Whether the drift changed since the last run. Two digests say it: the plan hash
 * (changesDigest: what apply would send; the hash people see) and the live digest, of the
 * live values of the drifted fields — so that a field that drifted to "A" and is "B" on the
 * next run is a change although apply would send the same. Only what the drift says counts:
 * a deleted object's other live fields (timestamps, counters) are not drift, and a list of
 * plain values is compared as a set (the service need not list them in the same order twice).
 */
import type { PlanEntry } from "../engine/plan.js";
import { canonical, changesDigest, sha256 } from "../engine/reviewed.js";

/** The digests of one run's drift, as the issue body and the state file keep them. */
export interface DriftDigests {
  /** changesDigest of the entries (the plan hash). */
  digest?: string;
  /** liveDigest of the entries; absent where an earlier phctl wrote the state. */
  live?: string;
}

const isScalar = (v: unknown) => v === null || typeof v !== "object";

/** A value as the drift compares it: lists of plain values in one order. */
function normalised(v: unknown): unknown {
  if (Array.isArray(v))
    return v.every(isScalar)
      ? [...v].sort((a, b) => (canonical(a) < canonical(b) ? -1 : 1))
      : v.map(normalised);
  if (v !== null && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalised(x)]));
  return v;
}

/** sha256 (hex) of the live values of the drifted fields (update, ticket, blocked entries). */
export function liveDigest(entries: readonly PlanEntry[]): string {
  const live = entries
    .flatMap((e) =>
      e.changes.map((c) => ({ key: e.key, field: c.field, live: normalised(c.before) })),
    )
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
