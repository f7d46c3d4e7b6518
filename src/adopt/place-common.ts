/** What places.ts and places-git.ts share: the context of an entry and the field edit. */
import type { PlanEntry } from "../engine/plan.js";
import type { Op, Seg } from "./ops.js";

/** What an entry's adoption needs beyond the entry. */
export interface PlaceContext {
  /** The default organization of users and projects (phctl.yaml's, else the plan's). */
  organization: string | undefined;
  /** The document's value as edited so far. */
  value: Record<string, unknown>;
  /** Keys of the entries whose object is absent live (their declarations go). */
  absent: ReadonlySet<string>;
}

/** The edits, or why the entry cannot be adopted. */
export type Placed = Op[] | { why: string };

/** Declared but absent live: create entries, and the ticket/blocked entries standing for one. */
export const absentLive = (e: PlanEntry): boolean => e.before === null && e.action !== "delete";

/**
 * `value` at `path`, or the key removed when the value is the default or none (null): the
 * file stays minimal, and a plan compares the default (or does not manage the field).
 * `keep`: see ops.ts.
 */
export function field(path: Seg[], value: unknown, dflt: unknown, keep: number): Op {
  return value === dflt || value === undefined || value === null
    ? { op: "unset", path, keep }
    : { op: "set", path, value };
}
