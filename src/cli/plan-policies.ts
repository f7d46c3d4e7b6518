/**
 * The policies a load found, as the plan is checked against them: the compiled policies
 * (change and live rules) and the object rules' violations the load already evaluated on
 * the declared objects; the load's clock, for exceptions.
 */
import type { PlanPolicies } from "../engine/policy-check.js";
import type { LoadResult } from "../manifest/types.js";
import type { CompiledPolicy, Violation } from "../policy/index.js";

/** What the load's policy pass adds to a LoadResult (absent: no policies). */
type WithPolicies = LoadResult & {
  policies?: readonly CompiledPolicy[];
  violations?: readonly Violation[];
};

export function planPoliciesOf(loaded: LoadResult, now: Date = new Date()): PlanPolicies {
  const l = loaded as WithPolicies;
  return { policies: l.policies ?? [], objects: l.violations ?? [], now };
}
