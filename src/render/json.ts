/**
 * The plan for bots: its JSON form (what `plan --out` stores and plan.schema.json describes).
 * Right after `summary` comes `groups`: identical changes and violations counted together
 * (change-groups.ts, violation-groups.ts), derived afresh from the entries whenever the plan is
 * written. Hidden characters of its strings are written as `\u202e` escapes: the same values
 * for every JSON reader, and a person who opens the file sees no reordered line.
 */
import type { Plan } from "../engine/plan.js";
import type { PlanGroups } from "../engine/plan-groups.js";
import { escapeJsonText } from "../visible.js";
import { changeGroups } from "./change-groups.js";
import { violationGroups } from "./violation-groups.js";

/** The plan's `groups` section. */
export function planGroups(plan: Pick<Plan, "entries" | "violations">): PlanGroups {
  return { changes: changeGroups(plan.entries), violations: violationGroups(plan.violations) };
}

export function renderJson(plan: Plan): string {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(plan)) {
    if (k === "groups") continue;
    out[k] = v;
    if (k === "summary") out.groups = planGroups(plan);
  }
  return `${escapeJsonText(JSON.stringify(out, null, 2))}\n`;
}
