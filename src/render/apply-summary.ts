/**
 * The end of an apply, for people: a title in green only when everything is done and nothing
 * is pending, what is still pending (support tickets to open, blocked entries) in yellow,
 * skipped actions by the failure they needed, the slowest actions when that says something,
 * and the failures last — the last thing on the screen. Pure.
 */
import type { ApplySummary, Inconsistency } from "../engine/apply-events.js";
import type { PlanEntry } from "../engine/plan.js";
import { formatCount, formatDuration, PLAIN, plural, type Style } from "./style.js";
import { fitParts, shortenId, truncate } from "./width.js";
import { visibleText } from "../visible.js";
import { seg, wrap } from "./wrap.js";

/** One line for people: `project/x (Project): a new plan still has update: title "a" → "b"`. */
export function describeInconsistency(i: Inconsistency): string {
  const what =
    i.changes.length > 0
      ? i.changes
          .map((c) => `${c.field} ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`)
          .join(", ")
      : i.reason;
  return `inconsistent result after apply: ${visibleText(i.key)} (${i.kind}): a new plan still has ${i.action}: ${what}`;
}

/** What the summary lists besides the counts. */
export interface SummaryFacts {
  failures: { id: string; message: string; durationMs: number }[];
  /** Skipped ids by the root they needed. */
  skipped: Map<string, string[]>;
  /** Finished actions, for the slowest ones. */
  durations: { id: string; durationMs: number }[];
  /** Ticket and blocked entries of the plan (never sent). */
  notSent: readonly PlanEntry[];
  inconsistencies: Inconsistency[];
  /** Creates that found their object already made by another writer. */
  madeByOthers?: string[];
}

/** The slowest line says something only past a handful of actions and a second. */
const SLOW_MS = 1000;
const HANDFUL = 5;

/** `  slowest  a 3.1 s, b 2.0 s`: as many as fit in `width`, never wrapped; undefined if none. */
function slowestLine(f: SummaryFacts, done: number, width: number): string | undefined {
  if (done <= HANDFUL) return undefined;
  const slow = [...f.durations]
    .filter((d) => d.durationMs >= SLOW_MS)
    .sort((a, b) => b.durationMs - a.durationMs)
    .slice(0, 3);
  if (slow.length === 0) return undefined;
  const room = width - 11;
  const parts = slow.map((d, i) => {
    const took = formatDuration(d.durationMs);
    return { text: `${shortenId(visibleText(d.id), room - took.length - 1)} ${took}`, keep: 3 - i };
  });
  const line = `  slowest  ${fitParts(parts, room, ", ")}`;
  return truncate(line, width);
}

export function summaryLines(
  s: ApplySummary,
  f: SummaryFacts,
  style: Style = PLAIN,
  width?: number,
): string[] {
  const bad = s.failed > 0 || s.inconsistent > 0 || s.stopped !== undefined;
  const pending = s.ticket + s.blocked;
  const title =
    s.stopped !== undefined
      ? seg("Apply stopped", style.red)
      : bad
        ? seg("Apply finished with errors", style.red)
        : pending > 0
          ? seg("Apply done", style.bold)
          : seg("Apply complete", style.green);
  const counts = [
    `${formatCount(s.done)} done`,
    `${formatCount(s.failed)} failed`,
    `${formatCount(s.skipped)} skipped`,
  ];
  if (s.inconsistent > 0) counts.push(`${formatCount(s.inconsistent)} inconsistent`);
  if (s.alreadyDone > 0) counts.push(`${formatCount(s.alreadyDone)} done by the interrupted apply`);
  const w = { width, lead: "  ", hang: 9 };
  const out = wrap([title, seg(`: ${counts.join(", ")} (${formatDuration(s.durationMs)}).`)], {
    width,
  });
  if (pending > 0) {
    const what = [
      ...(s.ticket > 0 ? [`${plural(s.ticket, "support ticket")} to open`] : []),
      ...(s.blocked > 0
        ? [`${plural(s.blocked, "blocked entry", "blocked entries")} to resolve`]
        : []),
    ];
    out.push(
      ...wrap(
        [seg(`Still pending: ${what.join(", ")} (never sent: not API operations).`, style.yellow)],
        {
          width,
        },
      ),
    );
    const listed = f.notSent.slice(0, 10);
    for (const e of listed)
      out.push(
        ...(e.action === "ticket"
          ? wrap(
              [
                seg("ticket", style.yellow),
                seg(
                  `   ${visibleText(e.key)}: ${e.ticket?.subject ?? e.reason} (the letter is in the plan)`,
                ),
              ],
              w,
            )
          : wrap(
              [
                seg("blocked", style.yellow),
                seg(`  ${visibleText(e.key)}: ${e.blocked?.reason ?? e.reason}`),
              ],
              w,
            )),
      );
    if (f.notSent.length > listed.length)
      out.push(
        `    … and ${formatCount(f.notSent.length - listed.length)} more ticket and blocked entries`,
      );
  }
  const some = (ids: string[]) =>
    `${ids.slice(0, 5).map(visibleText).join(", ")}${ids.length > 5 ? ", …" : ""}`;
  // The reason a run stopped is said once, by the command's last line: not per action here.
  for (const [root, ids] of f.skipped)
    out.push(
      ...(root === ""
        ? wrap(
            [
              seg("stopped", style.red),
              seg(
                `  ${plural(ids.length, "action")} not started (${some(ids)})${s.stopped === undefined ? ": the run stopped" : ""}`,
              ),
            ],
            w,
          )
        : wrap(
            [
              seg(
                `skipped  ${plural(ids.length, "action")} that needed ${visibleText(root)}: ${some(ids)}`,
              ),
            ],
            w,
          )),
    );
  for (const i of f.inconsistencies)
    out.push(...wrap([seg("error", style.red), seg(`    ${describeInconsistency(i)}`)], w));
  const others = f.madeByOthers ?? [];
  if (others.length > 0)
    out.push(
      ...wrap(
        [
          seg("note", style.yellow),
          seg(
            `     ${plural(others.length, "create")} found ${others.length === 1 ? "its object" : "their objects"} made meanwhile by another writer (${some(others)})`,
          ),
        ],
        w,
      ),
    );
  const slowest = slowestLine(f, s.done, width ?? Infinity);
  if (slowest) out.push(slowest);
  for (const [message, xs] of byMessage(f.failures)) {
    const text =
      xs.length === 1
        ? `   ${visibleText(xs[0].id)} (${formatDuration(xs[0].durationMs)})`
        : `   ${plural(xs.length, "action")} (${some(xs.map((x) => x.id))})`;
    out.push(
      ...wrap(
        [
          seg("failed", style.red),
          seg(
            message === s.stopped
              ? `${text}: in flight when the run stopped`
              : `${text}: ${message}`,
          ),
        ],
        w,
      ),
    );
  }
  return out;
}

/** Failures grouped by their message, in the order each message first came. */
function byMessage(failures: SummaryFacts["failures"]): Map<string, SummaryFacts["failures"]> {
  const groups = new Map<string, SummaryFacts["failures"]>();
  for (const x of failures) {
    const g = groups.get(x.message);
    if (g) g.push(x);
    else groups.set(x.message, [x]);
  }
  return groups;
}
