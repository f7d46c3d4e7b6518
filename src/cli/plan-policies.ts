/**
 * The policies a load found, as the plan is checked against them: the compiled policies
 * (change and live rules) and the object rules' violations the load already evaluated on
 * the declared objects; today (PHCTL_NOW in tests), for exceptions.
 */
import type { PlanPolicies } from "../engine/policy-check.js";
import type { LoadResult } from "../pipeline/types.js";
import { policyNow } from "../policy/load-pass.js";

export function planPoliciesOf(loaded: LoadResult, now: Date = policyNow()): PlanPolicies {
  return { policies: loaded.policies ?? [], objects: loaded.violations ?? [], now };
}
