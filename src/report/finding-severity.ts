/**
 * How much each access-review finding matters, for the order in which a reviewer reads them
 * (the HTML report's first screen lists findings by severity, then as the report lists
 * them). The severities are the report's own (findings.ts `SEVERITY`, a `Record` over every
 * finding id: a new finding does not compile until it says how severe it is); a saved report
 * carries each finding's, which wins.
 */
import { SEVERITY } from "./findings.js";
import { SEVERITIES, type Severity } from "./types.js";

export { SEVERITIES, type Severity };
/** Each finding's severity. */
export const FINDING_SEVERITY = SEVERITY;

/** A finding's severity: the report's, else this build's; "medium" for an id it does not know. */
export const severityOf = (id: string, given?: Severity): Severity =>
  given ?? (FINDING_SEVERITY as Record<string, Severity>)[id] ?? "medium";

/** Findings by severity, high first; equal ones keep their order. */
export function bySeverity<T extends { id: string; severity?: Severity }>(
  findings: readonly T[],
): T[] {
  const rank = (f: T) => SEVERITIES.indexOf(severityOf(f.id, f.severity));
  return [...findings].sort((a, b) => rank(a) - rank(b));
}
