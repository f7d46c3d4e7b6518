/**
 * `plan --base`: which parts of a plan this change makes, and which were already there
 * (drift the base config would plan the same way, and apply will also revert). The split
 * is per field: an update that holds both shows which field is which. Pure.
 */
import type { Plan, PlanEntry } from "./plan.js";
import equal from "fast-deep-equal";

const id = (e: Pick<PlanEntry, "action" | "key">) => `${e.action} ${e.key}`;

/**
 * The head plan with `drift` (keys whose whole entry the base plans the same way) and, on
 * entries that mix both, `driftFields` (the fields the base changes the same way).
 */
export function splitByBase(head: Plan, base: Pick<Plan, "entries">): Plan {
  const before = new Map(base.entries.map((e) => [id(e), e]));
  const drift = new Set<string>();
  const entries = head.entries.map((e): PlanEntry => {
    const b = before.get(id(e));
    if (!b) return withoutDrift(e);
    if (e.changes.length === 0 || b.changes.length === 0) {
      // create, delete (or a change without fields): the same target state is drift.
      if (equal(e.after, b.after) && equal(e.ticket, b.ticket) && equal(e.blocked, b.blocked))
        drift.add(e.key);
      return withoutDrift(e);
    }
    const same = e.changes
      .filter((c) => b.changes.some((x) => x.field === c.field && equal(x.after, c.after)))
      .map((c) => c.field);
    if (same.length === e.changes.length) {
      drift.add(e.key);
      return withoutDrift(e);
    }
    return same.length > 0 ? { ...e, driftFields: same } : withoutDrift(e);
  });
  return { ...head, entries, drift: [...drift].sort() };
}

function withoutDrift(e: PlanEntry): PlanEntry {
  if (e.driftFields === undefined) return e;
  const rest = { ...e };
  delete rest.driftFields;
  return rest;
}

/** Is the whole entry drift that was there before this change? */
export function isDrift(plan: Pick<Plan, "drift">, e: Pick<PlanEntry, "key">): boolean {
  return plan.drift?.includes(e.key) === true;
}
