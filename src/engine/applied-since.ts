/**
 * The apply after merge and what was merged before it: the top-level objects whose
 * declaration changed between the last commit an apply carried out and the merged commit
 * (`changeTouches`, as `plan --base` finds what a change touches), and which of them the plan
 * reviewed on the pull request did not plan. Those were never reviewed: applying the merged
 * commit and recording it as applied would leave them behind unseen. Pure.
 */
import { changeTouches, type ChangeSide } from "./change-touch.js";
import type { Plan } from "./plan.js";

/** What the merged commit holds since the last applied commit. */
export interface AppliedSince {
  /** Top-level keys changed since the applied commit (sorted). */
  keys: string[];
  /** phctl.yaml planning settings changed since (then every object may plan differently). */
  settings: string[];
  /** Of `keys` (or, when settings changed, of everything), what the reviewed plan did not plan. */
  unreviewed: string[];
}

/** Does the reviewed plan cover everything (made without a scope or targets)? */
const unscoped = (p: Pick<Plan, "scope" | "targets">) =>
  p.scope === undefined && (p.targets ?? []).length === 0;

export function appliedSince(
  applied: ChangeSide,
  merged: ChangeSide,
  reviewed: Pick<Plan, "scope" | "targets">,
): AppliedSince {
  const { keys, settings } = changeTouches(applied, merged);
  const found = { keys, settings };
  if (unscoped(reviewed)) return { ...found, unreviewed: [] };
  if (found.settings.length > 0)
    return { ...found, unreviewed: found.settings.map((s) => `phctl.yaml ${s}`) };
  const scope = new Set(reviewed.scope ?? []);
  return { ...found, unreviewed: found.keys.filter((k) => !scope.has(k)) };
}
