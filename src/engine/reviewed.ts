/**
 * "Apply exactly what was reviewed": the structured changes of a plan — what apply would
 * send, and the live values of the fields it changes as the reviewer saw them — their digest
 * (the plan hash a pull-request comment shows), and the differences between a reviewed plan
 * and a fresh one. Values are compared as JSON: a field a default leaves undefined in memory
 * and absent in a saved plan file is the same (no key), so an unchanged plan always compares
 * equal and two equal digests never come with a difference. Fingerprints and the live values
 * of fields a change leaves alone are left out. Pure, but for the credentials registered with
 * src/secrets.ts, which mask values.
 */
import { createHash } from "node:crypto";
import { redactValue } from "../secrets.js";
import type { PlanEntry } from "./plan.js";

/** What one entry asks apply to do. */
export interface Change {
  key: string;
  kind: string;
  action: PlanEntry["action"];
  /** Create: the whole object; update/ticket/blocked: the changed fields' new values. */
  after: Record<string, unknown> | null;
  /** Update/ticket/blocked: the changed fields' live values (what the reviewer saw change). */
  before: Record<string, unknown> | null;
}

/**
 * The changes of `entries`, their values masked as every output masks them (src/secrets.ts):
 * a plan and the same plan read back from its file (stored masked) have the same changes,
 * and so the same digest. Two credentials in the same field compare equal once masked; the
 * manifests are where a desired value is reviewed (validate warns about a credential there).
 */
export function changesOf(entries: readonly PlanEntry[]): Change[] {
  return entries
    .map((e) => {
      const field = e.action === "create" || e.action === "delete";
      return {
        key: e.key,
        kind: e.kind,
        action: e.action,
        after: redactValue(
          e.action === "create"
            ? e.after
            : e.action === "delete"
              ? null
              : Object.fromEntries(e.changes.map((c) => [c.field, c.after])),
        ),
        before: field
          ? null
          : redactValue(Object.fromEntries(e.changes.map((c) => [c.field, asSet(c.before)]))),
      };
    })
    .sort((a, b) => (a.key === b.key ? a.action.localeCompare(b.action) : a.key < b.key ? -1 : 1));
}

/** JSON with every object's keys sorted: equal values give equal text. */
export function canonical(value: unknown): string {
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

const isScalar = (v: unknown) => v === null || typeof v !== "object";

/**
 * A live value as changes compare it: a list of plain values in one order (the service need
 * not list them the same way twice; the lists phctl manages as ordered hold objects).
 */
export function asSet(v: unknown): unknown {
  if (Array.isArray(v))
    return v.every(isScalar)
      ? [...v].sort((a, b) => (canonical(a) < canonical(b) ? -1 : 1))
      : v.map(asSet);
  if (v !== null && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asSet(x)]));
  return v;
}

/** Equal as JSON: key order aside, and an undefined value is no key (as in a saved plan). */
const same = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);
/** sha256 of a text, hex. */
export const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

/** sha256 (hex) of the structured changes: equal for plans that would send the same. */
export function changesDigest(entries: readonly PlanEntry[]): string {
  return sha256(canonical(changesOf(entries)));
}

/** The short form shown to people (12 hex digits, as git's short hashes). */
export const shortDigest = (digest: string): string => digest.slice(0, 12);

/** How a fresh plan compares with the reviewed one. */
export interface ReviewComparison {
  /** Changes the fresh plan makes that were not reviewed (or with other values): refuse. */
  differences: string[];
  /** Reviewed changes the fresh plan no longer makes: live state already has them. */
  inPlace: string[];
}

/**
 * Compare a fresh plan with the reviewed one, per entry and per field. The fresh plan may
 * do less than was reviewed (a re-run after part of it was applied, or someone made the
 * change by hand): those are `inPlace`. It may not do anything else, nor send other values:
 * those are `differences`, one line each naming the key and, for updates, the field with
 * its live value and the values reviewed and to be set. `owed` keys (side effects an earlier apply still owes) are not differences.
 */
export function compareReviewed(
  reviewed: readonly PlanEntry[],
  fresh: readonly PlanEntry[],
  owed: ReadonlySet<string> = new Set(),
): ReviewComparison {
  const id = (c: Change) => `${c.action} ${c.key}`;
  const was = new Map(changesOf(reviewed).map((c) => [id(c), c]));
  const now = new Map(changesOf(fresh).map((c) => [id(c), c]));
  const differences: string[] = [];
  const inPlace: string[] = [];
  const show = (v: unknown) => JSON.stringify(v ?? null);
  for (const [k, c] of now) {
    const r = was.get(k);
    if (!r) {
      if (!owed.has(c.key)) differences.push(`${c.action} ${c.key}: not in the reviewed plan`);
      continue;
    }
    if (c.action === "create" || c.action === "delete") {
      if (!same(r.after, c.after)) {
        const fields = new Set([...Object.keys(r.after ?? {}), ...Object.keys(c.after ?? {})]);
        const moved = [...fields].filter((f) => !same(r.after?.[f], c.after?.[f]));
        differences.push(
          `${c.action} ${c.key}: ${moved.map((f) => `${f} reviewed ${show(r.after?.[f])}, now ${show(c.after?.[f])}`).join("; ")}`,
        );
      }
      continue;
    }
    const moved: string[] = [];
    // The live value too: "now X" alone read as if X were live, when it is what apply sets.
    const live = (f: string) => `live ${show(c.before?.[f])}`;
    for (const [f, v] of Object.entries(c.after ?? {})) {
      if (!r.after || !(f in r.after))
        moved.push(`${f} not reviewed (${live(f)}, apply would set ${show(v)})`);
      else if (!same(r.after[f], v))
        moved.push(
          `${f} reviewed ${show(r.after[f])}, apply would now set ${show(v)} (${live(f)})`,
        );
      else if (r.before && f in r.before && !same(r.before[f], c.before?.[f]))
        // The same new value, but over another live value than the reviewer saw change.
        moved.push(
          `${f} was ${show(r.before[f])} live at review (${show(r.before[f])} → ${show(v)} was reviewed), now ${show(c.before?.[f])}`,
        );
    }
    if (moved.length > 0) differences.push(`${c.action} ${c.key}: ${moved.join("; ")}`);
    const left = Object.keys(r.after ?? {}).filter((f) => !(f in (c.after ?? {})));
    if (left.length > 0) inPlace.push(`${c.action} ${c.key}: ${left.join(", ")}`);
  }
  for (const [k, r] of was) if (!now.has(k)) inPlace.push(`${r.action} ${r.key}`);
  return { differences: differences.sort(), inPlace: inPlace.sort() };
}
