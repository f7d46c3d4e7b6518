/**
 * How the organization's policy verdicts are said, the same way in the terminal, the
 * pull-request comment, the drift issue and validate's annotations: the order (denials
 * first, then by key), the counts ("policy: 1 denied, 2 warnings"), what the rule saw and
 * the exception that still covers an object. Pure.
 */
import { policyCounts, type PolicyExceptionChanges, type PolicyViolation } from "../engine/plan.js";
import { plural } from "./style.js";

/**
 * How a violation counts: denied, a warning, excepted (an exception covers it: counts for
 * nothing), or debt (a ratchet rule's violation already there: reported, never blocking). A
 * ratchet violation judged new or worse, or not judged, denies.
 */
export function verdictOf(v: PolicyViolation): "deny" | "warn" | "excepted" | "debt" {
  if (v.exception) return "excepted";
  if (v.enforcement !== "ratchet") return v.enforcement;
  return v.ratchet === "existing" ? "debt" : "deny";
}

/** What the ratchet says of a denial: "new under ratchet", "worse under ratchet (was: …)"; "". */
export function ratchetNote(v: PolicyViolation): string {
  if (v.enforcement !== "ratchet" || v.exception || v.ratchet === "existing") return "";
  if (v.ratchet === "worsened") return `worse than before under ratchet (was: ${v.was ?? ""})`;
  return "new under ratchet";
}

/**
 * The debt: ratchet violations already there, by policy, most first (then by name):
 * `[["two-admins", 3]]`.
 */
export function debtByPolicy(vs: readonly PolicyViolation[]): [string, number][] {
  const by = new Map<string, number>();
  for (const v of vs) if (verdictOf(v) === "debt") by.set(v.policy, (by.get(v.policy) ?? 0) + 1);
  return [...by].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/**
 * `Policy debt: 3 violations already there, not blocking (two-admins 3); each must be fixed
 * before the policy moves from ratchet to deny`; "" without debt.
 */
export function debtWords(vs: readonly PolicyViolation[]): string {
  const by = debtByPolicy(vs);
  if (by.length === 0) return "";
  const n = by.reduce((s, [, c]) => s + c, 0);
  const each = by.map(([p, c]) => `${p} ${c.toLocaleString("en-US")}`).join(", ");
  return `Policy debt: ${plural(n, "violation")} already there, not blocking (${each}); fix them before the policy moves from ratchet to deny`;
}

/**
 * Denials first, then warnings, then what exceptions cover; by key, policy and rule within
 * each (a stable order for reviewers and goldens).
 */
export function sortViolations(vs: readonly PolicyViolation[]): PolicyViolation[] {
  const ranks = { deny: 0, warn: 1, excepted: 2, debt: 3 };
  const rank = (v: PolicyViolation) => ranks[verdictOf(v)];
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

/**
 * `1 denied, 2 warnings` (`, 1 excepted` when an exception covers any, `, 3 debt` when ratchet
 * rules have violations already there), as validate says it.
 */
export function policyCountWords(vs: readonly PolicyViolation[]): string {
  const c = policyCounts(vs);
  const excepted = c.excepted > 0 ? `, ${c.excepted.toLocaleString("en-US")} excepted` : "";
  const debt = c.debt > 0 ? `, ${c.debt.toLocaleString("en-US")} debt` : "";
  return `${c.deny.toLocaleString("en-US")} denied, ${plural(c.warn, "warning")}${excepted}${debt}`;
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

/**
 * `excepted until 2026-12-01 (migration; approved by alice)`, "… — expires within 14 days"
 * when it soon stops counting; "" without an exception.
 */
export function exceptionNote(v: PolicyViolation): string {
  const x = v.exception;
  if (!x) return "";
  const soon = x.status === "expiring" ? " — expires within 14 days" : "";
  return `excepted until ${x.expires} (${x.reason}; approved by ${x.approvedBy})${soon}`;
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
