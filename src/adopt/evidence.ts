/**
 * What `drift --adopt` may accept as live's doing, and what it must leave alone. A drift plan
 * cannot tell "deleted live" from "never created": both are a declared object absent live.
 * Nor "changed live" from "merged, not applied yet": both are a field that differs. Adopting
 * the second of each pair deletes or reverts merged work before its apply runs. So adoption
 * takes only what it can prove live did:
 *
 * - a declared object absent live is gone live only when phctl saw it exist: the apply
 *   journal of this service records its create (or an update) done, or the config of the
 *   last applied commit (`--applied DIR`) declares it — the applied record is written only
 *   when an apply carried out everything, so that commit's objects were created;
 * - with `--applied`, a changed field or list entry is drift only when the applied config
 *   plans the same change against the same live state (live moved away from what was
 *   applied); one it does not plan was merged since and is not applied yet.
 *
 * Without `--applied` the changed fields are adopted as before, and the caller says once that
 * a change merged and not applied yet would read as drift. Pure.
 */
import { absentLive } from "./place-common.js";
import { fieldsByOrigin, splitByBase } from "../engine/base-split.js";
import type { Plan, PlanEntry } from "../engine/plan.js";
import type { NotAdoptable } from "./unmanaged.js";

/** What shows which objects existed live and which changes were applied. */
export interface AdoptEvidence {
  /**
   * The plan of the last applied commit's config against the same live state (drift
   * `--applied DIR`); undefined when there is none.
   */
  applied?: Pick<Plan, "entries">;
  /** Node ids (`<action> <key>`) the apply journal of this service records done. */
  journalDone?: Iterable<string>;
  /** The command-line hint for proving what cannot be proven (e.g. which commit to check out). */
  hint?: string;
}

/** The plan cut to what adoption may write, and what it holds back (with why). */
export interface Sorted {
  plan: Plan;
  held: NotAdoptable[];
}

/** Keys whose create or update the journal records done: they existed live then. */
function seenLive(done: Iterable<string> | undefined): Set<string> {
  const out = new Set<string>();
  for (const id of done ?? []) {
    const space = id.indexOf(" ");
    const action = id.slice(0, space);
    if (action === "create" || action === "update") out.add(id.slice(space + 1));
  }
  return out;
}

/** The entry as the drift plan had it: the split's markers are not adoption's business. */
function unmarked(e: PlanEntry): PlanEntry {
  if (e.driftFields === undefined && e.unappliedFields === undefined) return e;
  const rest = { ...e };
  delete rest.driftFields;
  delete rest.unappliedFields;
  return rest;
}

const NOT_APPLIED =
  "merged since the last applied commit and not applied yet (not drift): its apply carries it out";

/**
 * Split `plan` into what adoption may write and what it must hold back, given `evidence`.
 * An entry kept in part keeps only its drifted fields.
 */
export function sortByEvidence(plan: Plan, evidence: AdoptEvidence = {}): Sorted {
  const seen = seenLive(evidence.journalDone);
  const created = new Set(
    (evidence.applied?.entries ?? []).filter((e) => e.action === "create").map((e) => e.key),
  );
  const split = evidence.applied
    ? splitByBase(plan, evidence.applied, evidence.applied)
    : undefined;
  const hint = evidence.hint ? `; ${evidence.hint}` : "";
  const held: NotAdoptable[] = [];
  const hold = (e: PlanEntry, why: string) => held.push({ key: e.key, kind: e.kind, why });
  const entries: PlanEntry[] = [];
  for (const e of split?.entries ?? plan.entries) {
    if (absentLive(e)) {
      if (seen.has(e.key) || created.has(e.key)) entries.push(e);
      else
        hold(
          e,
          `declared and absent live, and nothing shows it ever existed: not applied yet, so its declaration stays (an apply creates it); if it was deleted live, remove its declaration by hand${hint}`,
        );
      continue;
    }
    if (!split) {
      entries.push(e);
      continue;
    }
    const origin = fieldsByOrigin(split, e);
    if (e.changes.length === 0) {
      if (origin.drift.length > 0 || split.drift?.includes(e.key)) entries.push(e);
      else hold(e, NOT_APPLIED);
      continue;
    }
    const drifted = new Set(origin.drift);
    const kept = e.changes.filter((c) => drifted.has(c.field));
    if (kept.length < e.changes.length) {
      const fields = e.changes.filter((c) => !drifted.has(c.field)).map((c) => c.field);
      hold(e, `${[...new Set(fields)].join(", ")} ${NOT_APPLIED}`);
    }
    if (kept.length > 0)
      entries.push(kept.length === e.changes.length ? e : { ...e, changes: kept });
  }
  return { plan: { ...plan, entries: entries.map(unmarked) }, held };
}
