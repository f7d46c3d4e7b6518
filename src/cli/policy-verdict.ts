/**
 * What plan, apply and drift say of a plan's policy violations on stderr, beside the plan
 * they print (which lists every violation): a denial fails `plan` (exit 1, the plan still
 * shown) and stops `apply` before anything is sent. `drift` only shows them in its report
 * (exit 2 keeps meaning drift). Warnings never change an exit code.
 */
import { PhctlError } from "../errors.js";
import { policyCounts, type Plan } from "../engine/plan.js";
import { sortViolations, verdictOf } from "../render/policy-words.js";
import { plural } from "../render/style.js";

/** "policy two-admins, rule at-least-two on project/tf-a" for the first denials. */
function firstDenials(plan: Plan, n = 3): string {
  // Ratchet rules' debt (violations already there) never denies.
  const denied = sortViolations(plan.violations).filter((v) => verdictOf(v) === "deny");
  const named = denied.slice(0, n).map((v) => `${v.policy}/${v.rule} on ${v.key}`);
  return `${named.join(", ")}${denied.length > n ? ", …" : ""}`;
}

/** `plan`: exit 1 when a deny rule is broken; the plan was printed (with the violations). */
export function failOnDenial(plan: Plan, say: (line: string) => void): void {
  const { deny } = policyCounts(plan.violations);
  if (deny === 0) return;
  say(
    `${plural(deny, "policy violation")} ${deny === 1 ? "denies" : "deny"} this plan (${firstDenials(plan)}): change the manifests, or add an exception with an owner and an end to the policy`,
  );
  process.exitCode = 1;
}

/** `apply`: refuse before anything is sent when a deny rule is broken. */
export function refuseOnDenial(plan: Plan): void {
  const { deny } = policyCounts(plan.violations);
  if (deny === 0) return;
  throw new PhctlError(
    "POLICY_DENIED",
    `${plural(deny, "policy violation")} ${deny === 1 ? "denies" : "deny"} this plan (${firstDenials(plan)}): nothing was applied; change the manifests, or add an exception with an owner and an end to the policy`,
  );
}
