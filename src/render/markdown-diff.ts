/**
 * One plan entry as lines of a `diff` code block, coloured the way GitHub colours diffs:
 * `+` a created object and new values, `-` a deleted object and old values, a plain
 * header for an update, plain lines (never `-`, `+` or `!`) for tickets and blocked
 * entries, which apply never sends. Fields that are drift already present end in
 * `(drift)`. No line is longer than CODE_LINE_CAP: long values end in `…`.
 */
import type { PlanEntry } from "../engine/plan.js";
import { CODE_LINE_CAP, codeLine, oneLine, shorten } from "./markdown-escape.js";
import { formatSource, formatValue, isEmptyValue, ownLine } from "./style.js";
import { visibleText } from "../visible.js";

const DRIFT = "  (drift)";

/**
 * `+   field: value  (drift)  # line 12`, the value shortened so the line stays within the
 * cap; `line`: the field's own line when it is not its entry's.
 */
function fieldLine(
  sign: string,
  field: string,
  value: unknown,
  drift: boolean,
  line?: number,
): string {
  const head = oneLine(`${sign}   ${field}: `);
  const tail = `${drift ? DRIFT : ""}${line !== undefined ? `  # line ${line}` : ""}`;
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

function headLine(sign: string, e: PlanEntry, note: string, drift: boolean): string {
  const src = formatSource(e.source);
  return codeLine(
    `${sign} ${visibleText(e.key)} (${e.kind})${note}${drift ? " (drift)" : ""}${src ? `  # ${src}` : ""}`,
  );
}

/** The diff lines of one entry; `drift`: the whole entry is drift already present. */
export function entryLines(e: PlanEntry, drift: boolean): string[] {
  const driftFields = new Set(e.driftFields ?? []);
  switch (e.action) {
    case "create": {
      const fields = Object.entries(e.after ?? {}).filter(([, v]) => !isEmptyValue(v));
      return [headLine("+", e, "", drift), ...fields.map(([k, v]) => fieldLine("+", k, v, false))];
    }
    case "update":
      return [
        headLine(" ", e, "", drift),
        ...e.changes.flatMap((c) => {
          const mark = driftFields.has(c.field);
          const old = c.before === null || c.before === undefined;
          return [
            ...(old ? [] : [fieldLine("-", c.field, c.before, mark)]),
            fieldLine("+", c.field, c.after, mark, ownLine(c, e)),
          ];
        }),
      ];
    case "delete":
      return [headLine("-", e, "", drift), ...(e.reason ? noteLines(e.reason) : [])];
    case "ticket":
    case "blocked": {
      const note =
        e.action === "ticket" ? " — support ticket, never sent" : " — blocked, never sent";
      const why =
        e.action === "ticket"
          ? `ticket: ${e.ticket?.subject ?? e.reason}`
          : (e.blocked?.reason ?? e.reason);
      return [
        headLine(" ", e, note, drift),
        ...e.changes.map((c) =>
          codeLine(
            `      ${c.field}: ${formatValue(c.before)} → ${formatValue(c.after)}${driftFields.has(c.field) ? DRIFT : ""}`,
          ),
        ),
        ...noteLines(why),
      ];
    }
  }
}
