/**
 * How much each access-review finding matters, for the order in which a reviewer reads them
 * (the HTML report's first screen lists findings by severity, then as the report lists
 * them). A `Record` over every finding id: a new finding does not compile until it says
 * how severe it is here, and every renderer then shows it in its place with no other edit.
 */
import type { FindingId } from "./types.js";

/** high: someone can change what they should not; medium: ownership or the manifests drift; low: hygiene. */
export const SEVERITIES = ["high", "medium", "low"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Each finding's severity. */
export const FINDING_SEVERITY: Record<FindingId, Severity> = {
  "inactive-with-write": "high",
  "customer-write-on-parent": "high",
  "service-account-admin": "high",
  "live-only-access": "medium",
  "projects-under-two-admins": "medium",
  "never-logged-in": "low",
};

/** A finding's severity; "medium" for an id this build does not know (a newer report's). */
export const severityOf = (id: string): Severity =>
  (FINDING_SEVERITY as Record<string, Severity>)[id] ?? "medium";

/** Findings by severity, high first; equal ones keep their order. */
export function bySeverity<T extends { id: string }>(findings: readonly T[]): T[] {
  const rank = (f: T) => SEVERITIES.indexOf(severityOf(f.id));
  return [...findings].sort((a, b) => rank(a) - rank(b));
}
