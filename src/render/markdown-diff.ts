/**
 * One plan entry as lines of a `diff` code block, coloured the way GitHub colours diffs:
 * `+` a created object and new values, `-` a deleted object and old values, a plain
 * header for an update, plain lines (never `-`, `+` or `!`) for tickets and blocked
 * entries, which apply never sends. Fields that are drift already present end in
 * `(drift)`, those merged earlier and not applied in `(not applied)`. No line is longer than
 * CODE_LINE_CAP: long values end in `…`.
 */
import type { Origin } from "../engine/base-split.js";
import type { PlanEntry } from "../engine/plan.js";
import { CODE_LINE_CAP, codeLine, oneLine, shorten } from "./markdown-escape.js";
import { entryWhere, fieldWhere, formatValue, isEmptyValue } from "./style.js";
import { visibleText } from "../visible.js";

/** The mark of a part that is not this change's. */
const MARK: Record<Origin, string> = {
  change: "",
  drift: "  (drift)",
  unapplied: "  (not applied)",
};

/**
 * `+   field: value  (drift)  # line 12`, the value shortened so the line stays within the
 * cap; `where`: where the value comes from when the entry's line does not say it (another
 * line, a Defaults layer: `# defaults/repos.yaml:7, Defaults baseline`).
 */
function fieldLine(
  sign: string,
  field: string,
  value: unknown,
  origin: Origin,
  where?: string,
): string {
  const head = oneLine(`${sign}   ${field}: `);
  const tail = `${MARK[origin]}${where !== undefined ? `  # ${oneLine(where)}` : ""}`;
  const room = Math.max(12, CODE_LINE_CAP - head.length - tail.length);
  return codeLine(`${head}${shorten(oneLine(formatValue(value)), room)}${tail}`);
}

/**
 * `    # why`: a note (a delete's reason, a ticket's subject, a blocked reason) over as many
 * lines as it takes, broken between words: a code line is cut at the cap, a sentence is not.
 */
function noteLines(text: string): string[] {
  const lead = "    # ";
  const room = CODE_LINE_CAP - lead.length;
  const lines: string[] = [];
  let line = "";
  for (const word of oneLine(text).split(/ +/)) {
    if (line && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l) => codeLine(`${lead}${l}`));
}

function headLine(sign: string, e: PlanEntry, note: string, whole: Origin): string {
  const src = entryWhere(e);
  return codeLine(
    `${sign} ${visibleText(e.key)} (${e.kind})${note}${MARK[whole].trimStart() ? ` ${MARK[whole].trimStart()}` : ""}${src ? `  # ${src}` : ""}`,
  );
}

/**
 * The diff lines of one entry; `whole`: where the whole entry comes from (drift already
 * present, merged but not applied), its fields marked where they differ from that.
 */
export function entryLines(e: PlanEntry, whole: Origin = "change"): string[] {
  const unapplied = new Set(e.unappliedFields ?? []);
  const drift = new Set(e.driftFields ?? []);
  const origin = (f: string): Origin =>
    unapplied.has(f) ? "unapplied" : drift.has(f) ? "drift" : "change";
  switch (e.action) {
    case "create": {
      const fields = Object.entries(e.after ?? {}).filter(([, v]) => !isEmptyValue(v));
      return [
        headLine("+", e, "", whole),
        ...fields.map(([k, v]) => fieldLine("+", k, v, "change")),
      ];
    }
    case "update":
      return [
        headLine(" ", e, "", whole),
        ...e.changes.flatMap((c) => {
          const mark = origin(c.field);
          const old = c.before === null || c.before === undefined;
          return [
            ...(old ? [] : [fieldLine("-", c.field, c.before, mark)]),
            fieldLine("+", c.field, c.after, mark, fieldWhere(c, e)),
          ];
        }),
      ];
    case "delete":
      return [headLine("-", e, "", whole), ...(e.reason ? noteLines(e.reason) : [])];
    case "ticket":
    case "blocked": {
      const note =
        e.action === "ticket" ? " — support ticket, never sent" : " — blocked, never sent";
      const why =
        e.action === "ticket"
          ? `ticket: ${e.ticket?.subject ?? e.reason}`
          : (e.blocked?.reason ?? e.reason);
      return [
        headLine(" ", e, note, whole),
        ...e.changes.map((c) =>
          codeLine(
            `      ${c.field}: ${formatValue(c.before)} → ${formatValue(c.after)}${MARK[origin(c.field)]}`,
          ),
        ),
        ...noteLines(why),
      ];
    }
  }
}
