/**
 * The ratchet (issue 35): a `ratchet` rule blocks only what a change makes new or worse, and
 * reports the violations already there as debt, so a rule can be adopted over an organization
 * without hundreds of exceptions first (Gatekeeper audits what exists and denies at
 * admission; a Kubernetes ValidatingAdmissionPolicy judges only what is admitted).
 *
 * A violation is one (policy, rule, object key) with one message. Against the baseline's
 * violations of the same rules:
 * - existing: the baseline has the same policy, rule, key and message — debt, never blocks;
 * - worsened: the baseline has the object breaking the rule, but with another message. phctl
 *   cannot tell a better message from a worse one, so any change of what the violation says
 *   counts as worse (sound: nothing new passes as debt);
 * - new: the object did not break the rule in the baseline (or was not there).
 * Pure.
 */
import type { RatchetStatus } from "./types.js";

/** What a violation is judged by. */
export interface RatchetSubject {
  policy: string;
  rule: string;
  key: string;
  message: string;
}

const id = (v: Omit<RatchetSubject, "message">) => JSON.stringify([v.policy, v.rule, v.key]);

/** The violations the change starts from, indexed for judging. */
export class RatchetBaseline {
  private readonly byRule = new Map<string, string[]>();

  constructor(violations: Iterable<RatchetSubject>) {
    for (const v of violations) {
      const k = id(v);
      const list = this.byRule.get(k);
      if (list) list.push(v.message);
      else this.byRule.set(k, [v.message]);
    }
  }

  /** new, worsened (with what the rule said before) or existing. */
  judge(v: RatchetSubject): { status: RatchetStatus; was?: string } {
    const before = this.byRule.get(id(v));
    if (!before) return { status: "new" };
    if (before.includes(v.message)) return { status: "existing" };
    return { status: "worsened", was: before[0] };
  }
}

/**
 * Does any policy ratchet (itself or a binding)? Then plan keeps the effective documents, to
 * judge its violations against live state (the load otherwise frees them as it goes).
 */
export function hasRatchet(
  policies: readonly { enforcement: string; bindings: readonly { enforcement: string }[] }[],
): boolean {
  return policies.some(
    (p) => p.enforcement === "ratchet" || p.bindings.some((b) => b.enforcement === "ratchet"),
  );
}

/** Does this violation stop plan and apply (deny, or ratchet judged new or worse)? */
export function blocks(v: { enforcement: string; ratchet?: RatchetStatus; exception?: unknown }) {
  if (v.exception) return false;
  if (v.enforcement === "deny") return true;
  // Not judged yet counts as new: nothing unjudged passes as debt.
  return v.enforcement === "ratchet" && v.ratchet !== "existing";
}
