/** Counting and printing violations: what decides exit codes, and the one-line text form. */
import { escapeHiddenLines } from "../visible.js";
import type { Violation } from "./types.js";

/** Violations that count: denied (exit 1), warnings; and those an exception waives. */
export interface ViolationSummary {
  denied: number;
  warnings: number;
  excepted: number;
}

export function summarizeViolations(vs: readonly Violation[]): ViolationSummary {
  const s = { denied: 0, warnings: 0, excepted: 0 };
  for (const v of vs) {
    if (v.exception) s.excepted++;
    else if (v.enforcement === "deny") s.denied++;
    else s.warnings++;
  }
  return s;
}

/**
 * `projects/tfa.yaml:3:1 denied: Project project/tfa: policy access-baseline, rule
 * two-admins: a project needs at least two admins` (warned / excepted until … likewise).
 */
export function formatViolation(v: Violation): string {
  const where = v.source ? `${v.source.file}:${v.source.line}:${v.source.column} ` : "";
  const verdict = v.exception
    ? `excepted until ${v.exception.expires} (${v.exception.reason}; approved by ${v.exception.approvedBy})`
    : v.enforcement === "deny"
      ? "denied"
      : "warning";
  return escapeHiddenLines(
    `${where}${verdict}: ${v.kind} ${v.key}: policy ${v.policy}, rule ${v.rule}: ${v.message}`,
  );
}
