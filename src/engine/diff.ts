/**
 * The pure diff of one object: desired vs live fields → plan entries. Never mutates its
 * inputs; both sides arrive normalised by their kind (defaults filled, sets sorted,
 * computed fields dropped), so equality is plain deep equality. A field the desired side
 * leaves undefined is not managed and never compared.
 */
import equal from "fast-deep-equal";
import type {
  DiffContext,
  DesiredObject,
  Fields,
  LiveObject,
  ResourceKind,
} from "../kinds/kind.js";
import type { FieldChange, PlanEntry } from "./plan.js";

/** The managed fields whose values differ, in the desired side's field order. */
export function changedFields(desired: Fields, live: Fields): FieldChange[] {
  const out: FieldChange[] = [];
  for (const [field, after] of Object.entries(desired)) {
    if (after === undefined) continue;
    const before = live[field];
    if (!equal(before, after)) out.push({ field, before: before ?? null, after });
  }
  return out;
}

/** The plan-entry form of a desired object's source. */
export function sourceRef(d: DesiredObject | undefined): PlanEntry["source"] {
  return d?.source ? { file: d.source.file, line: d.source.line, column: d.source.column } : null;
}

/** The default entry of an object declared in the manifests and absent live. */
export function createEntry(kind: string, d: DesiredObject): PlanEntry {
  return {
    key: d.key,
    kind,
    action: "create",
    before: null,
    after: { ...d.fields },
    changes: [],
    reason: "declared in the manifests, absent live",
    source: sourceRef(d),
    dependsOn: [...d.dependsOn],
    destructive: false,
  };
}

/** Entries for one key: nothing when in sync; create, update, and ticket/blocked for immutable fields. */
export function diffObject(
  kind: ResourceKind,
  d: DesiredObject,
  l: LiveObject | undefined,
  ctx: DiffContext,
  others?: ReadonlyMap<string, LiveObject>,
): PlanEntry[] {
  const checked = kind.check?.(d, l, ctx, others);
  if (checked) return Array.isArray(checked) ? checked : [checked];
  if (!l) return [createEntry(kind.kind, d)];
  const changes = changedFields(d.fields, l.fields);
  if (changes.length === 0) return [];
  const fixed = changes.filter((c) => kind.immutable[c.field]);
  const mutable = changes.filter((c) => !kind.immutable[c.field]);
  const entries: PlanEntry[] = [];
  if (mutable.length > 0) {
    entries.push({
      key: d.key,
      kind: kind.kind,
      action: "update",
      before: pick(l.fields, mutable),
      after: pick(d.fields, mutable),
      changes: mutable,
      reason: `${mutable.map((c) => c.field).join(", ")} differ${mutable.length === 1 ? "s" : ""}`,
      source: sourceRef(d),
      dependsOn: [...d.dependsOn],
      // Archiving (a repository's status) takes it out of use: reviewers must see it.
      destructive: mutable.some((c) => c.field === "status" && c.after === "archived"),
    });
  }
  for (const c of fixed) {
    const rule = kind.immutable[c.field]!;
    const entry: PlanEntry = {
      key: d.key,
      kind: kind.kind,
      action: rule.action,
      before: { [c.field]: c.before },
      after: { [c.field]: c.after },
      changes: [c],
      reason: rule.reason,
      source: sourceRef(d),
      dependsOn: [],
      destructive: false,
    };
    if (rule.action === "blocked") entry.blocked = { field: c.field, reason: rule.reason };
    else entry.ticket = kind.ticketText?.(entry) ?? defaultTicket(entry);
    entries.push(entry);
  }
  return entries;
}

/** A delete entry for a live object no manifest declares (the caller decided it may go). */
export function deleteEntry(
  kind: ResourceKind,
  l: LiveObject,
  reason: string,
  src: PlanEntry["source"],
): PlanEntry {
  return {
    key: l.key,
    kind: kind.kind,
    action: "delete",
    before: { ...l.fields },
    after: null,
    changes: [],
    reason,
    source: src,
    dependsOn: [],
    destructive: kind.destructiveDelete,
  };
}

function pick(fields: Fields, changes: FieldChange[]): Fields {
  return Object.fromEntries(changes.map((c) => [c.field, fields[c.field] ?? null]));
}

/** Support-ticket text naming what, why, which object and the manifest line. */
export function defaultTicket(e: PlanEntry): { subject: string; body: string } {
  const what = e.changes.map(
    (c) => `${c.field} from ${JSON.stringify(c.before)} to ${JSON.stringify(c.after)}`,
  );
  const where = e.source ? `${e.source.file}:${e.source.line}` : "the manifests";
  return {
    subject: `${e.kind} ${e.key}: change ${e.changes.map((c) => c.field).join(", ")}`,
    body: [
      `Please change ${what.join(" and ")} for ${e.kind.toLowerCase()} ${e.key}.`,
      `Why: ${e.reason}.`,
      `Requested by ${where} (managed with phctl).`,
    ].join("\n"),
  };
}
