/**
 * The policies a load found, as the plan is checked against them: the compiled policies
 * (change and live rules) and the object rules' violations the load already evaluated on
 * the declared objects; today (PHCTL_NOW in tests), for exceptions; the effective documents,
 * which ratchet rules are judged on as live has them (src/engine/policy-ratchet.ts, with src/adopt/live-documents.ts).
 */
import { liveDocuments } from "../adopt/live-documents.js";
import type { PlanPolicies } from "../engine/policy-check.js";
import type { LoadResult } from "../pipeline/types.js";
import { policyNow } from "../policy/load-pass.js";
import { hasRatchet } from "../policy/ratchet.js";
import { usersOf } from "../policy/index.js";

export function planPoliciesOf(
  loaded: LoadResult,
  now: Date = policyNow(),
  root?: string,
): PlanPolicies {
  const policies = loaded.policies ?? [];
  const ratchet = hasRatchet(policies);
  const docs = loaded.layers?.docs;
  const organization = loaded.config?.organization;
  return {
    policies,
    objects: loaded.violations ?? [],
    now,
    ...(ratchet && loaded.layers ? { docs: loaded.layers.docs, liveDocuments } : {}),
    ...(root !== undefined ? { roots: [root] } : {}),
    ...(docs ? { users: () => usersOf(docs, organization) } : {}),
  };
}
