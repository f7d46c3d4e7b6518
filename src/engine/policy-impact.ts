/**
 * `plan --base` and a change to the policies: a pull request that adds a deny policy changes
 * no manifest object, yet after merge every plan of the objects it selects is denied. So a
 * Policy document added, removed or altered in any way (rules, selector, bindings, params,
 * exceptions, enforcement) touches every declared object its old or new selector chooses, as
 * a changed Defaults document does: those are planned, the plan carries their violations
 * under the new rules (a removed exception lets its violations back in), and the plan lists
 * the policy change that caused them. Live rules judge live objects at drift time: a changed
 * live policy is listed and touches nothing. Pure.
 */
import type { PolicyImpact } from "./plan.js";

/** What this needs of a compiled policy (src/policy's CompiledPolicy). */
export interface PolicyDigest {
  name: string;
  scope: string;
  digest: string;
  selected: readonly string[];
  source: { file: string; line: number; column?: number };
}

/** The policies that differ between `base` and `head` (by name), and the top-level keys they touch. */
export function changedPolicies(
  base: readonly PolicyDigest[],
  head: readonly PolicyDigest[],
): { policies: PolicyImpact[]; keys: string[] } {
  const was = new Map(base.map((p) => [p.name, p]));
  const policies: PolicyImpact[] = [];
  const keys = new Set<string>();
  const add = (sides: PolicyDigest[], change: PolicyImpact["change"]) => {
    const reach = new Set(sides.flatMap((p) => (p.scope === "live" ? [] : p.selected)));
    for (const k of reach) keys.add(k);
    const last = sides[sides.length - 1];
    const { file, line, column } = last.source;
    policies.push({
      name: last.name,
      source: { file, line, ...(column !== undefined ? { column } : {}) },
      change,
      scope: last.scope,
      objects: reach.size,
    });
  };
  for (const p of head) {
    const b = was.get(p.name);
    was.delete(p.name);
    if (!b) add([p], "added");
    else if (b.digest !== p.digest || b.scope !== p.scope) add([b, p], "changed");
  }
  for (const b of was.values()) add([b], "removed");
  return { policies, keys: [...keys].sort() };
}
