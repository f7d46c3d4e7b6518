/**
 * Policy violations counted per rule, as identical changes are (change-groups.ts): one line
 * "naming/title-prefix denies 40 projects: a, b, c, … (policies/naming.yaml:7)" instead of
 * forty. A group is one policy's rule with one verdict (deny, warn, excepted); every violation
 * is in exactly one. Pure: the renderers get plain data.
 */
import type { PolicyViolation } from "../engine/plan.js";
import type { ViolationGroup } from "../engine/plan-groups.js";
import { projectCount } from "./change-groups.js";
import { byName, kindCount } from "./markdown-groups.js";
import { verdictOf } from "./policy-words.js";

export type { ViolationGroup };

/** A rule broken this many times is shown as one line (its objects named after it). */
export const GROUPED_VIOLATIONS = 10;

const RANK = { deny: 0, warn: 1, excepted: 2, debt: 3 } as const;

/** The violations per policy, rule and verdict: denials first, largest first. */
export function violationGroups(vs: readonly PolicyViolation[]): ViolationGroup[] {
  const by = new Map<string, PolicyViolation[]>();
  for (const v of vs) {
    const id = JSON.stringify([v.policy, v.rule, verdictOf(v)]);
    const list = by.get(id);
    if (list) list.push(v);
    else by.set(id, [v]);
  }
  const groups = [...by.values()].map((list): ViolationGroup => {
    const v = list[0];
    const kinds = new Set(list.map((x) => x.kind));
    const messages = new Set(list.map((x) => x.message));
    const keys = list.map((x) => x.key).sort(byName);
    return {
      policy: v.policy,
      rule: v.rule,
      verdict: verdictOf(v),
      kind: kinds.size === 1 ? v.kind : "",
      ...(messages.size === 1 ? { message: v.message } : {}),
      ...(v.ruleSource ? { ruleSource: v.ruleSource } : {}),
      count: list.length,
      projects: projectCount(keys),
      keys,
    };
  });
  return groups.sort(
    (a, b) =>
      RANK[a.verdict] - RANK[b.verdict] ||
      b.count - a.count ||
      byName(a.policy, b.policy) ||
      byName(a.rule, b.rule),
  );
}

/**
 * The rules broken at least `min` times (shown as one line each) and the violations of the
 * other rules (shown one by one).
 */
export function groupedViolations(
  vs: readonly PolicyViolation[],
  min = GROUPED_VIOLATIONS,
): { groups: ViolationGroup[]; rest: PolicyViolation[] } {
  const groups = violationGroups(vs).filter((g) => g.count >= min);
  const big = new Set(groups.map((g) => JSON.stringify([g.policy, g.rule, g.verdict])));
  const rest = vs.filter((v) => !big.has(JSON.stringify([v.policy, v.rule, verdictOf(v)])));
  return { groups, rest };
}

const VERB = {
  deny: "denies",
  warn: "warns on",
  excepted: "excepts",
  debt: "counts as debt on",
} as const;

/** "policy naming, rule title-prefix denies 40 projects" (`kind` says an unknown kind). */
export function violationHead(g: ViolationGroup, name: (s: string) => string): string {
  const objects =
    g.kind === "" ? `${g.count.toLocaleString("en-US")} objects` : kindCount(g.kind, g.count, name);
  return `policy ${name(g.policy)}, rule ${name(g.rule)} ${VERB[g.verdict]} ${objects}`;
}
