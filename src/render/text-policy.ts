/**
 * The policy verdict in the terminal (plan, apply, drift): every violation — denials first —
 * with its key, where it is declared, the policy and rule, and the message, under a
 * heading that counts them, then the ratchet's debt counted; shown after the plan's summary.
 * Pure.
 */
import type { Plan, PolicyViolation } from "../engine/plan.js";
import {
  debtWords,
  exceptionNote,
  policyCountWords,
  ratchetNote,
  ruleName,
  sortViolations,
  subjectNote,
  verdictOf,
} from "./policy-words.js";
import { formatSource, PLAIN, type Style } from "./style.js";
import { seg, wrap, wrapText, type Seg } from "./wrap.js";
import { groupedViolations } from "./violation-groups.js";
import { violationGroupLines } from "./text-groups.js";

/** One violation: `deny  project/x (delete)  projects/x.yaml:3` then the rule and message. */
function violationLines(v: PolicyViolation, style: Style, width: number | undefined): string[] {
  const verdict = verdictOf(v);
  const paint =
    verdict === "deny"
      ? (s: string) => style.red(style.bold(s))
      : verdict === "warn"
        ? style.yellow
        : style.dim;
  const note = subjectNote(v);
  const src = formatSource(v.source);
  const head: Seg[] = [
    seg(verdict, paint),
    seg("  "),
    seg(v.key, style.bold),
    ...(note ? [seg(` (${note})`)] : []),
    ...(src ? [seg(`  ${src}`, style.dim)] : []),
  ];
  const exception = exceptionNote(v);
  const ratchet = ratchetNote(v);
  return [
    ...wrap(head, { width, lead: "  ", hang: 6 }),
    ...wrapText(`${ruleName(v)}: ${v.message}`, { width, lead: "        ", hang: 0 }),
    ...(exception ? wrapText(exception, { width, lead: "        ", paint: style.dim }) : []),
    ...(ratchet ? wrapText(ratchet, { width, lead: "        ", paint: style.dim }) : []),
  ];
}

/**
/**
 * The violations block (empty when the plan breaks no rule), a blank line after it; a rule
 * broken many times is one entry naming its objects (each its own with `verbose`). The debt
 * (ratchet violations already there) is one line of counts by policy, not a list: the JSON
 * plan has each.
 */
export function policyBlock(
  plan: Plan,
  style: Style = PLAIN,
  width?: number,
  verbose = false,
): string[] {
  if (plan.violations.length === 0) return [];
  const out = wrapText(`Policy violations (${policyCountWords(plan.violations)}):`, {
    width,
    hang: 2,
    paint: plan.violations.some((v) => verdictOf(v) === "deny") ? style.red : style.yellow,
  });
  out.push("");
  const judged = plan.violations.filter((v) => verdictOf(v) !== "debt");
  const { groups, rest } = verbose ? { groups: [], rest: judged } : groupedViolations(judged);
  for (const g of groups) out.push(...violationGroupLines(g, style, width));
  for (const v of sortViolations(rest)) out.push(...violationLines(v, style, width));
  const debt = debtWords(plan.violations);
  if (debt) out.push(...wrapText(debt, { width, lead: "  ", hang: 2, paint: style.dim }));
  out.push("");
  return out;
}
