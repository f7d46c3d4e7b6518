/**
 * `plan --base`: which parts of a plan this change makes, and which were already there. With
 * `--applied` (the config of the last commit an apply carried out) what was already there is
 * split once more: "merged but not applied" — the base config plans it and the applied one
 * does not (an earlier merge whose apply was refused, failed or never ran) — and drift made
 * live — the applied config plans it too (live state moved away from what was applied). Apply
 * carries out all three. The split is per field: an update that holds several shows which
 * field is which. Pure.
 */
import type { Plan, PlanEntry } from "./plan.js";
import equal from "fast-deep-equal";

const id = (e: Pick<PlanEntry, "action" | "key">) => `${e.action} ${e.key}`;

/** Where a part of a plan comes from. */
export type Origin = "change" | "unapplied" | "drift";

/** Does `other` plan the whole of `e` (a create, delete or field-less change) the same way? */
const sameWhole = (e: PlanEntry, other: PlanEntry | undefined) =>
  other !== undefined &&
  equal(e.after, other.after) &&
  equal(e.ticket, other.ticket) &&
  equal(e.blocked, other.blocked);

/** The fields of `e` that `other` changes to the same value. */
const sameFields = (e: PlanEntry, other: PlanEntry | undefined) =>
  other === undefined
    ? []
    : e.changes
        .filter((c) => other.changes.some((x) => x.field === c.field && equal(x.after, c.after)))
        .map((c) => c.field);

/**
 * The head plan with `drift` (keys whose whole entry the base plans the same way — and,
 * given `applied`, the applied config too) and, on entries that mix, `driftFields`. Given
 * `applied`, what the base plans and the applied config does not is `unapplied` (whole
 * entries) or `unappliedFields`.
 */
export function splitByBase(
  head: Plan,
  base: Pick<Plan, "entries">,
  applied?: Pick<Plan, "entries">,
): Plan {
  const before = new Map(base.entries.map((e) => [id(e), e]));
  const was = applied ? new Map(applied.entries.map((e) => [id(e), e])) : undefined;
  const drift = new Set<string>();
  const unapplied = new Set<string>();
  const entries = head.entries.map((e): PlanEntry => {
    const b = before.get(id(e));
    const a = was?.get(id(e));
    const rest = withoutSplit(e);
    if (!b) return rest;
    if (e.changes.length === 0 || b.changes.length === 0) {
      // create, delete (or a change without fields): the same target state was there before.
      if (!sameWhole(e, b)) return rest;
      (was && !sameWhole(e, a) ? unapplied : drift).add(e.key);
      return rest;
    }
    const same = sameFields(e, b);
    const live = was ? new Set(sameFields(e, a)) : new Set(same);
    const drifted = same.filter((f) => live.has(f));
    const notApplied = same.filter((f) => !live.has(f));
    if (same.length === e.changes.length) {
      // All of it was there before: drift, or merged but not applied (its drift fields named).
      if (notApplied.length === 0) drift.add(e.key);
      else unapplied.add(e.key);
      return notApplied.length > 0 && drifted.length > 0 ? { ...rest, driftFields: drifted } : rest;
    }
    return {
      ...rest,
      ...(drifted.length > 0 ? { driftFields: drifted } : {}),
      ...(notApplied.length > 0 ? { unappliedFields: notApplied } : {}),
    };
  });
  return {
    ...head,
    entries,
    drift: [...drift].sort(),
    ...(applied ? { unapplied: [...unapplied].sort() } : {}),
  };
}

function withoutSplit(e: PlanEntry): PlanEntry {
  if (e.driftFields === undefined && e.unappliedFields === undefined) return e;
  const rest = { ...e };
  delete rest.driftFields;
  delete rest.unappliedFields;
  return rest;
}

/** Is the whole entry drift that was there before this change? */
export function isDrift(plan: Pick<Plan, "drift">, e: Pick<PlanEntry, "key">): boolean {
  return plan.drift?.includes(e.key) === true;
}

/** Where the whole of an entry comes from (for one that is not split by field). */
export function entryOrigin(
  plan: Pick<Plan, "drift" | "unapplied">,
  e: Pick<PlanEntry, "key">,
): Origin {
  if (plan.unapplied?.includes(e.key)) return "unapplied";
  return plan.drift?.includes(e.key) ? "drift" : "change";
}

/**
 * An entry's changed fields by where they come from; a create, delete or field-less entry
 * is all of one origin (`whole`). Without `plan --base` everything is "change".
 */
export function fieldsByOrigin(
  plan: Pick<Plan, "drift" | "unapplied">,
  e: PlanEntry,
): Record<Origin, string[]> {
  const out: Record<Origin, string[]> = { change: [], unapplied: [], drift: [] };
  if (plan.drift === undefined) {
    out.change = e.changes.map((c) => c.field);
    return out;
  }
  const whole = entryOrigin(plan, e);
  const un = new Set(e.unappliedFields ?? []);
  const dr = new Set(e.driftFields ?? []);
  for (const c of e.changes)
    out[un.has(c.field) ? "unapplied" : dr.has(c.field) ? "drift" : whole].push(c.field);
  return out;
}

/** The origin of one field of an entry (see `fieldsByOrigin`). */
export function fieldOrigin(
  plan: Pick<Plan, "drift" | "unapplied">,
  e: PlanEntry,
  field: string,
): Origin {
  if (plan.drift === undefined) return "change";
  if (e.unappliedFields?.includes(field)) return "unapplied";
  if (e.driftFields?.includes(field)) return "drift";
  return entryOrigin(plan, e);
}
