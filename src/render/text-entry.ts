/**
 * One plan entry as text lines for a terminal of a given width:
 *
 *     + project/tf-a/repo/tf-a-tests (Repository) will be created
 *       projects/tf-a.yaml:41                          ← the manifest line, dim, its own line
 *                                                        (an update's: its first changed field's)
 *         + name: "tf-a-tests"
 *         ~ description: "Old text" → "New text"       ← one line when it fits, else:
 *         ~ title: "A" → "B"  (line 12)                ← a further field at its own line
 *         ~ enableForking: true → false  (defaults/repositories.yaml:7, Defaults baseline)
 *                                                      ← a value a Defaults layer gives
 *         ~ description:
 *             "Old text"
 *           → "Reference secure-world software for Armv8-A …"
 *
 * A delete's header is red from end to end, its key and DELETED bold. Notes that repeat what the lines
 * already say (a create's "absent live", an update's "description differs") are left out.
 * A ticket shows its subject; its letter comes after the plan unless `showTickets`.
 */
import type { Origin } from "../engine/base-split.js";
import type { Action, PlanEntry } from "../engine/plan.js";
import { ACTION_SYMBOL, entryWhere, fieldWhere, isEmptyValue, type Style } from "./style.js";
import { seg, wrap, wrapText, type Seg } from "./wrap.js";
import { visibleJson, visibleText } from "../visible.js";
import { visibleWidth } from "./width.js";

export interface EntryOptions {
  style: Style;
  /** Columns to lay out for; undefined: no wrapping. */
  width?: number | undefined;
  /** `plan --base`: mark the fields that are drift, or merged and not applied. */
  base: boolean;
  /** Where the whole entry comes from (drift already present, merged but not applied). */
  whole?: Origin;
  /** Ticket letters inline (`--show-tickets`) rather than after the plan. */
  showTickets?: boolean;
}

const VERB: Record<Exclude<Action, "delete">, string> = {
  create: "will be created",
  update: "will be updated in place",
  ticket: "needs a support ticket (not an API operation; never sent)",
  blocked: "is blocked (cannot be reached; never sent)",
};

/** The paint of an action's mark. */
export function paintOf(style: Style, action: Action): (s: string) => string {
  switch (action) {
    case "create":
      return style.green;
    case "update":
      return style.yellow;
    case "delete":
    case "blocked":
      return style.red;
    case "ticket":
      return style.magenta;
  }
}

/** A value as the text plan shows it: JSON (hidden characters as `\u202e`), `(none)` for absent. */
export function textValue(v: unknown): string {
  return v === undefined || v === null ? "(none)" : visibleJson(v);
}

/** The note the engine writes for every create, and the one naming an update's fields. */
const CREATE_NOTE = "declared in the manifests, absent live";
const fieldsNote = (e: PlanEntry) =>
  `${e.changes.map((c) => c.field).join(", ")} differ${e.changes.length === 1 ? "s" : ""}`;

/** Does the entry's reason only repeat what its lines say? */
export function redundantReason(e: PlanEntry): boolean {
  if (e.reason === "") return true;
  if (e.action === "create") return e.reason === CREATE_NOTE;
  if (e.action === "update") return e.changes.length > 0 && e.reason === fieldsNote(e);
  return e.action === "ticket" || e.action === "blocked"; // their reason/ticket lines say it
}

/** `  + key (Kind) will be created`: the header, a delete all red with DELETED in bold. */
function header(e: PlanEntry, o: EntryOptions): Seg[] {
  const { style } = o;
  const marks: Record<Origin, string> = {
    change: "",
    drift: " (drift already present)",
    unapplied: " (merged but not applied)",
  };
  const mark = o.whole && o.whole !== "change" ? [seg(marks[o.whole], style.dim)] : [];
  if (e.action === "delete")
    // Painted red as a whole line by `entryLines`.
    return [
      seg(ACTION_SYMBOL.delete),
      seg(" "),
      seg(visibleText(e.key), style.bold),
      seg(` (${e.kind}) will be `),
      seg("DELETED", style.bold),
      ...mark,
    ];
  return [
    seg(ACTION_SYMBOL[e.action], paintOf(style, e.action)),
    seg(" "),
    seg(visibleText(e.key), style.bold),
    seg(" "),
    seg(`(${e.kind})`, style.dim),
    seg(` ${VERB[e.action]}`),
    ...mark,
  ];
}

/** `+ field: value` (a created object), wrapped under the value. */
function fieldLines(mark: Seg, field: string, value: unknown, o: EntryOptions): string[] {
  return wrap([mark, seg(` ${field}: ${textValue(value)}`)], {
    width: o.width,
    lead: "      ",
    hang: 4,
  });
}

/** `~ field: before → after`; on three lines when that does not fit. */
function changeLines(
  mark: Seg,
  c: PlanEntry["changes"][number],
  e: PlanEntry,
  origin: Origin,
  o: EntryOptions,
): string[] {
  const where = fieldWhere(c, e);
  const note = [
    ...(origin === "change"
      ? []
      : [seg(origin === "drift" ? "  (drift)" : "  (not applied)", o.style.dim)]),
    ...(where !== undefined ? [seg(`  (${visibleText(where)})`, o.style.dim)] : []),
  ];
  const before = textValue(c.before);
  const after = textValue(c.after);
  const one = [mark, seg(` ${c.field}: ${before} → ${after}`), ...note];
  const oneWidth = 6 + visibleWidth(one.map((s) => s.text).join(""));
  if (o.width === undefined || oneWidth <= o.width) return wrap(one, { lead: "      " });
  return [
    ...wrap([mark, seg(` ${c.field}:`), ...note], { width: o.width, lead: "      ", hang: 4 }),
    ...wrapText(before, { width: o.width, lead: "          " }),
    ...wrapText(`→ ${after}`, { width: o.width, lead: "        ", hang: 2 }),
  ];
}

/** The ticket's letter: subject (after `label`) and body, indented by `lead`. */
export function letterLines(
  e: PlanEntry,
  lead: string,
  width: number | undefined,
  label = "ticket:",
): string[] {
  if (!e.ticket) return [];
  const out = wrapText(`${label} ${e.ticket.subject}`, { width, lead, hang: 2 });
  for (const l of e.ticket.body.split("\n")) {
    const indent = /^ */.exec(l)![0];
    out.push(...wrapText(l.trimStart(), { width, lead: `${lead}  ${indent}` }));
  }
  return out;
}

export function entryLines(e: PlanEntry, o: EntryOptions): string[] {
  const { style, width } = o;
  const lines = wrap(header(e, o), {
    width,
    lead: "  ",
    hang: 2,
    line: e.action === "delete" ? style.red : undefined,
  });
  const src = entryWhere(e);
  if (src) lines.push(...wrapText(src, { width, lead: "    ", paint: style.dim }));
  if (e.action === "create" && e.after) {
    for (const [k, v] of Object.entries(e.after))
      if (!isEmptyValue(v)) lines.push(...fieldLines(seg("+", style.green), k, v, o));
  }
  const drift = new Set(o.base ? (e.driftFields ?? []) : []);
  const unapplied = new Set(o.base ? (e.unappliedFields ?? []) : []);
  const origin = (f: string): Origin =>
    unapplied.has(f) ? "unapplied" : drift.has(f) ? "drift" : "change";
  const mark = seg(ACTION_SYMBOL[e.action], paintOf(style, e.action));
  for (const c of e.changes) {
    if (e.action === "create") {
      if (!isEmptyValue(c.after)) lines.push(...fieldLines(mark, c.field, c.after, o));
    } else lines.push(...changeLines(mark, c, e, origin(c.field), o));
  }
  if (e.blocked)
    lines.push(...wrapText(`reason: ${e.blocked.reason}`, { width, lead: "      ", hang: 2 }));
  if (e.ticket) {
    if (o.showTickets) lines.push(...letterLines(e, "      ", width));
    else lines.push(...wrapText(`ticket: ${e.ticket.subject}`, { width, lead: "      ", hang: 2 }));
  }
  if (!redundantReason(e))
    lines.push(...wrapText(`# ${e.reason}`, { width, lead: "      ", hang: 2, paint: style.dim }));
  for (const w of e.warnings ?? [])
    lines.push(
      ...wrapText(`warning: ${w}`, { width, lead: "      ", hang: 2, paint: style.yellow }),
    );
  return lines;
}
