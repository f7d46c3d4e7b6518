/**
 * The plan for bots: its JSON form (what `plan --out` stores and plan.schema.json describes).
 * Hidden characters of its strings are written as `\u202e` escapes: the same values for every
 * JSON reader, and a person who opens the file sees no reordered line.
 */
import type { Plan } from "../engine/plan.js";
import { escapeJsonText } from "../visible.js";

export function renderJson(plan: Plan): string {
  return `${escapeJsonText(JSON.stringify(plan, null, 2))}\n`;
}
