/**
 * What a ratchet rule judges on a full plan (src/engine/policy-ratchet.ts): each document the
 * plan changes, as live has it — its effective document with each of its plan entries undone
 * by the edits `drift --adopt` makes (places.ts, ops.ts). An object absent live, or an entry
 * with no place in the manifest, gives null: its violations are new. Pure.
 */
import type { ValidDoc } from "../manifest/check.js";
import type { PlanEntry } from "../engine/plan.js";
import { documentOfKey, idOf, type LiveDocuments } from "../engine/policy-ratchet.js";
import { applyToValue } from "./ops.js";
import { absentLive } from "./place-common.js";
import { placeEntry } from "./places.js";

/** The documents `entries` change, as live has them (LiveDocuments). */
export const liveDocuments: LiveDocuments = (docs, entries, organization) => {
  const byDoc = new Map<string, PlanEntry[]>();
  for (const e of entries) {
    const id = documentOfKey(e.key);
    if (id) byDoc.set(id, [...(byDoc.get(id) ?? []), e]);
  }
  const out = new Map<string, ValidDoc | null>();
  if (byDoc.size === 0) return out;
  const absent = new Set(entries.filter(absentLive).map((e) => e.key));
  for (const d of docs) {
    const mine = byDoc.get(idOf(d));
    if (!mine) continue;
    out.set(idOf(d), undone(d, mine, organization, absent));
  }
  return out;
};

function undone(
  d: ValidDoc,
  entries: readonly PlanEntry[],
  organization: string | undefined,
  absent: ReadonlySet<string>,
): ValidDoc | null {
  const value = structuredClone(d.value) as unknown as Record<string, unknown>;
  try {
    for (const e of entries) {
      const ops = placeEntry(e, { organization, value, absent });
      if (!Array.isArray(ops)) return null;
      for (const op of ops) {
        if (op.op === "removeDocument") return null;
        applyToValue(value, op);
      }
    }
  } catch {
    return null;
  }
  return { ...d, value } as ValidDoc;
}
