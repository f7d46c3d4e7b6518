/** Counting and printing violations: what decides exit codes, and the one-line text form. */
import { escapeHiddenLines } from "../visible.js";
import type { Violation } from "./types.js";

/**
 * Violations that count: denied (exit 1), warnings; those an exception waives; and, only when
 * a ratchet rule has any, the debt (existing violations) and, where nothing was judged
 * (validate has no live state and no base), the unjudged ones that plan judges.
 */
export interface ViolationSummary {
  denied: number;
  warnings: number;
  excepted: number;
  /** Ratchet violations already there: reported, never blocking. */
  debt?: number;
  /** Ratchet violations not judged (validate): plan, apply and drift judge them. */
  ratchet?: number;
}

export function summarizeViolations(vs: readonly Violation[]): ViolationSummary {
  const s = { denied: 0, warnings: 0, excepted: 0, debt: 0, ratchet: 0 };
  for (const v of vs) {
    if (v.exception) s.excepted++;
    else if (v.enforcement === "deny") s.denied++;
    else if (v.enforcement === "warn") s.warnings++;
    else if (v.ratchet === undefined) s.ratchet++;
    else if (v.ratchet === "existing") s.debt++;
    else s.denied++;
  }
  const { debt, ratchet, ...counts } = s;
  return { ...counts, ...(debt > 0 ? { debt } : {}), ...(ratchet > 0 ? { ratchet } : {}) };
}

/** The verdict word of one violation, as validate prints it. */
function verdictWord(v: Violation): string {
  if (v.enforcement === "deny") return "denied";
  if (v.enforcement === "warn") return "warning";
  if (v.ratchet === undefined) return "ratchet (plan judges it against live state)";
  return v.ratchet === "existing" ? "debt" : `denied (${v.ratchet} under ratchet)`;
}

/**
 * `projects/tfa.yaml:3:1 denied: Project project/tfa: policy access-baseline, rule
 * two-admins: a project needs at least two admins` (warned / excepted until … likewise).
 */
export function formatViolation(v: Violation): string {
  const where = v.source ? `${v.source.file}:${v.source.line}:${v.source.column} ` : "";
  const verdict = v.exception
    ? `excepted until ${v.exception.expires} (${v.exception.reason}; approved by ${v.exception.approvedBy})`
    : verdictWord(v);
  return escapeHiddenLines(
    `${where}${verdict}: ${v.kind} ${v.key}: policy ${v.policy}, rule ${v.rule}: ${v.message}`,
  );
}
