/**
 * How the organization's policy verdicts are said, the same way in the terminal, the
 * pull-request comment, the drift issue and validate's annotations: the order (denials
 * first, then by key), the counts ("policy: 1 denied, 2 warnings"), what the rule saw and
 * the exception that still covers an object. Pure.
 */
import type { PolicyExceptionChanges, PolicyViolation } from "../engine/plan.js";
import { plural } from "./style.js";

/** Denials first, then by key, policy and rule (a stable order for reviewers and goldens). */
export function sortViolations(vs: readonly PolicyViolation[]): PolicyViolation[] {
  const rank = (v: PolicyViolation) => (v.enforcement === "deny" ? 0 : 1);
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...vs].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      cmp(a.key, b.key) ||
      cmp(a.policy, b.policy) ||
      cmp(a.rule, b.rule) ||
      cmp(a.message, b.message),
  );
}

/** `1 denied, 2 warnings`. */
export function policyCountWords(vs: readonly PolicyViolation[]): string {
  const deny = vs.filter((v) => v.enforcement === "deny").length;
  return `${deny.toLocaleString("en-US")} denied, ${plural(vs.length - deny, "warning")}`;
}

/** `policy two-admins, rule at-least-two`. */
export function ruleName(v: PolicyViolation): string {
  return `policy ${v.policy}, rule ${v.rule}`;
}

/**
 * What the rule looked at, beyond the key: the plan entry's action for a change rule, "live,
 * not managed" for a live object no manifest declares.
 */
export function subjectNote(v: PolicyViolation): string {
  if (v.scope === "change" && v.action) return v.action;
  if (v.scope === "live") return v.managed === false ? "live, not managed" : "live";
  return "";
}

/** `exception until 2026-12-01 (approved by alice: migration)`, or "". */
export function exceptionNote(v: PolicyViolation): string {
  const x = v.exception;
  if (!x) return "";
  const who = x.approvedBy ? `approved by ${x.approvedBy}: ` : "";
  return `exception until ${x.expires} (${who}${x.reason})`;
}

/**
 * What a change does to exceptions: "adds 1 policy exception", "extends 2 policy
 * exceptions", "adds 1 policy exception and extends 1"; "" when nothing.
 */
export function exceptionChangeWords(c: PolicyExceptionChanges | undefined): string {
  const added = c?.added.length ?? 0;
  const extended = c?.extended.length ?? 0;
  if (added > 0 && extended > 0)
    return `adds ${plural(added, "policy exception")} and extends ${extended.toLocaleString("en-US")}`;
  if (added > 0) return `adds ${plural(added, "policy exception")}`;
  if (extended > 0) return `extends ${plural(extended, "policy exception")}`;
  return "";
}
