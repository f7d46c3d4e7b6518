/**
 * What every drift output says in a few words, from the plan: the counts per action and per
 * kind × action (the issue title, the webhook message and the metrics all use them), one line
 * for people ("3 differences: 2 to update, 1 to delete"), the name of a scope, and times in
 * UTC to the minute. Pure.
 */
import { ACTIONS, policyCounts, type Action, type Plan } from "../engine/plan.js";
import { DEFAULT_KEY } from "./options.js";
import { debtByPolicy } from "../render/policy-words.js";

export interface DriftCounts {
  total: number;
  byAction: Record<Action, number>;
  /** kind → action → entries; only the actions that occur. */
  byKind: Record<string, Partial<Record<Action, number>>>;
  /** Live objects no manifest declares (never touched, not drift). */
  unmanaged: number;
  /** Violations of the organization's policies, by enforcement (not drift either; excepted ones not counted). */
  policy: { deny: number; warn: number; debt: Record<string, number> };
  /**
   * Grants with an `expires:` that has passed — still live (`due`: the plan removes them) or
   * gone live with their manifest entry left (`ended`) — and that end within the warning
   * window (`soon`).
   */
  expiring: { due: number; ended: number; soon: number };
}

export function countsOf(
  plan: Pick<Plan, "entries" | "unmanaged"> & Partial<Pick<Plan, "violations" | "expiring">>,
): DriftCounts {
  const byAction = Object.fromEntries(ACTIONS.map((a) => [a, 0])) as Record<Action, number>;
  const byKind: DriftCounts["byKind"] = {};
  for (const e of plan.entries) {
    byAction[e.action]++;
    const k = (byKind[e.kind] ??= {});
    k[e.action] = (k[e.action] ?? 0) + 1;
  }
  const { deny, warn } = policyCounts(plan.violations ?? []);
  // The ratchet's debt by policy: violations already there (phctl_policy_debt).
  const debt = Object.fromEntries(debtByPolicy(plan.violations ?? []));
  return {
    total: plan.entries.length,
    byAction,
    byKind,
    unmanaged: plan.unmanaged.length,
    policy: { deny, warn, debt },
    expiring: expiringCounts(plan.expiring ?? []),
  };
}

function expiringCounts(grants: NonNullable<Plan["expiring"]>): DriftCounts["expiring"] {
  const c = { due: 0, ended: 0, soon: 0 };
  for (const g of grants)
    if (g.status === "expiring") c.soon++;
    else if (g.due === false) c.ended++;
    else c.due++;
  return c;
}

const WORDS: Record<Action, string> = {
  create: "to create",
  update: "to update",
  delete: "to delete",
  ticket: "ticket",
  blocked: "blocked",
};

export const plural = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** "2 to update, 1 to delete" (tickets as "1 ticket", "2 tickets"). */
export function countParts(c: DriftCounts): string {
  return ACTIONS.filter((a) => c.byAction[a] > 0)
    .map((a) => (a === "ticket" ? plural(c.byAction[a], "ticket") : `${c.byAction[a]} ${WORDS[a]}`))
    .join(", ");
}

/** "3 differences: 2 to update, 1 to delete". */
export function describeCounts(c: DriftCounts): string {
  const parts = countParts(c);
  return `${plural(c.total, "difference")}${parts ? `: ${parts}` : ""}`;
}

/**
 * How a run's scope is named in sentences: the default key by its organization
 * ("organization acme"), another key as given, with the organization when known.
 */
export function scopeName(key: string, organization?: string): string {
  if (key !== DEFAULT_KEY) return organization ? `${key} (${organization})` : key;
  return organization ? `organization ${organization}` : "the manifests";
}

/** "2026-11-23T10:02:31.000Z" → "2026-11-23 10:02 UTC" (the text itself when not a time). */
export function utcMinute(iso: string): string {
  const t = new Date(iso);
  return Number.isNaN(t.getTime()) ? iso : `${t.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** A CI run as the comment names it ("run 45", linked), as platform.ts gives it. */
export interface RunRef {
  label: string;
  url?: string;
}
