/**
 * "Apply exactly what was reviewed": the structured changes of a plan — what apply would
 * send, not how a renderer shows it — their digest (the plan hash a pull-request comment
 * shows), and the differences between a reviewed plan and a fresh one. Values live state
 * had before (`before`) and fingerprints are left out: they do not change what is sent.
 * Pure.
 */
import { createHash } from "node:crypto";
import equal from "fast-deep-equal";
import type { PlanEntry } from "./plan.js";

/** What one entry asks apply to do. */
export interface Change {
  key: string;
  kind: string;
  action: PlanEntry["action"];
  /** Create: the whole object; update/ticket/blocked: the changed fields' new values. */
  after: Record<string, unknown> | null;
}

export function changesOf(entries: readonly PlanEntry[]): Change[] {
  return entries
    .map((e) => ({
      key: e.key,
      kind: e.kind,
      action: e.action,
      after:
        e.action === "create"
          ? e.after
          : e.action === "delete"
            ? null
            : Object.fromEntries(e.changes.map((c) => [c.field, c.after])),
    }))
    .sort((a, b) => (a.key === b.key ? a.action.localeCompare(b.action) : a.key < b.key ? -1 : 1));
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
      : v,
  );
}

/** sha256 (hex) of the structured changes: equal for plans that would send the same. */
export function changesDigest(entries: readonly PlanEntry[]): string {
  return createHash("sha256")
    .update(canonical(changesOf(entries)))
    .digest("hex");
}

/** The short form shown to people (12 hex digits, as git's short hashes). */
export const shortDigest = (digest: string): string => digest.slice(0, 12);

/**
 * How a fresh plan differs from the reviewed one, one line per difference (empty: equal).
 * Names the key, and for updates the field with both values.
 */
export function reviewedDifferences(
  reviewed: readonly PlanEntry[],
  fresh: readonly PlanEntry[],
): string[] {
  const id = (c: Change) => `${c.action} ${c.key}`;
  const was = new Map(changesOf(reviewed).map((c) => [id(c), c]));
  const now = new Map(changesOf(fresh).map((c) => [id(c), c]));
  const out: string[] = [];
  for (const [k, c] of now) {
    const r = was.get(k);
    if (!r) out.push(`${c.action} ${c.key}: not in the reviewed plan`);
    else if (!equal(r.after, c.after)) {
      const fields = new Set([...Object.keys(r.after ?? {}), ...Object.keys(c.after ?? {})]);
      const moved = [...fields]
        .filter((f) => !equal(r.after?.[f], c.after?.[f]))
        .map(
          (f) =>
            `${f} reviewed ${JSON.stringify(r.after?.[f] ?? null)}, now ${JSON.stringify(c.after?.[f] ?? null)}`,
        );
      out.push(`${c.action} ${c.key}: ${moved.join("; ")}`);
    }
  }
  for (const [k, r] of was)
    if (!now.has(k)) out.push(`${r.action} ${r.key}: reviewed, no longer planned`);
  return out.sort();
}
