/** The plan for bots: its JSON form (what `plan --out` stores and plan.schema.json describes). */
import type { Plan } from "../engine/plan.js";

export function renderJson(plan: Plan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}
