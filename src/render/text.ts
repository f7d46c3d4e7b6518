/**
 * The plan for people, in a terminal: the Defaults layers involved and what each selects
 * (src/render/layers.ts), the summary of identical changes when some are organization-wide
 * (text-groups.ts: one line for a layer's change on 999 repositories, whose objects are then
 * folded into a note unless `verbose`), then Terraform-like `+ ~ - !` entries grouped by action
 * (src/render/text-entry.ts lays out each one for the width), then tickets, blocked
 * entries, the ticket letters (unless `showTickets` put them inline), warnings and a
 * summary. With `plan --base`, the changes of this change come first, then what was merged
 * earlier and not applied (`--applied`), then the drift already present; fields of a mixed
 * entry that are not this change are marked `(drift)` or `(not applied)`. Without
 * `--applied`, a note says that changes merged and not applied cannot be known.
 * `deletesBlock` repeats the deletes just above apply's confirmation prompt.
 * A pure function of the plan.
 */
import { entryOrigin } from "../engine/base-split.js";
import type { Action, Plan, PlanEntry } from "../engine/plan.js";
import { entryLines, letterLines, type EntryOptions } from "./text-entry.js";
import { layerAt, layerName, layerReach, layersHeading } from "./layers.js";
import { ACTION_SYMBOL, formatCount, formatSource, PLAIN, plural, type Style } from "./style.js";
import { visibleText } from "../visible.js";
import { seg, wrap, wrapText, type Seg } from "./wrap.js";
import { policyBlock } from "./text-policy.js";
import { groupedSummary } from "./change-groups.js";
import { foldedLines, groupsBlock } from "./text-groups.js";

export interface TextOptions {
  style?: Style;
  /**
   * List every object one by one: the unmanaged (otherwise only their count), and those
   * changed only as the summary of identical changes says (otherwise folded into a note).
   */
  verbose?: boolean;
  /** Columns to lay out for (the terminal's); undefined: no wrapping. */
  width?: number | undefined;
  /** Ticket letters under their entries instead of after the plan (`--show-tickets`). */
  showTickets?: boolean;
}

/** The summary as painted pieces: the delete count in red when there are deletes. */
function summarySegs(plan: Plan, style: Style): Seg[] {
  const s = plan.summary;
  if (plan.entries.length === 0)
    return [
      seg(
        plan.scope?.length === 0
          ? "No changes: the change touches nothing phctl manages."
          : plan.scope
            ? "No changes. Live state matches the manifests in what the change touches."
            : "No changes. Live state matches the manifests.",
        style.bold,
      ),
    ];
  const deletes = `${formatCount(s.delete)} to delete`;
  return [
    seg(
      `Plan: ${formatCount(s.create)} to create, ${formatCount(s.update)} to update, `,
      style.bold,
    ),
    seg(deletes, s.delete > 0 ? (x: string) => style.red(style.bold(x)) : style.bold),
    seg(`; ${plural(s.ticket, "ticket")}, ${formatCount(s.blocked)} blocked.`, style.bold),
  ];
}

/** One-line summary: `Plan: 2 to create, 1 to update, 0 to delete; 1 ticket, 0 blocked.` */
export function summaryLine(plan: Plan): string {
  return summarySegs(plan, PLAIN)
    .map((s) => s.text)
    .join("");
}

/** A section title or a note (wrapped, continuation lines indented by 2, painted). */
const title = (text: string, o: TextOptions, paint?: (s: string) => string) =>
  wrapText(text, { width: o.width, hang: 2, ...(paint ? { paint } : {}) });

export function renderText(plan: Plan, opts: TextOptions = {}): string {
  const style = opts.style ?? PLAIN;
  const width = opts.width;
  const out: string[] = [];
  const byAction = (a: Action) => plan.entries.filter((e) => e.action === a);
  const base = plan.drift !== undefined;
  const eo: EntryOptions = { style, width, base, showTickets: opts.showTickets === true };
  // An organization-wide change: its summary above the entries, and the entries it says in
  // full folded away (an entry with fields of mixed origin keeps its own lines).
  const grouped = groupedSummary(plan.entries);
  const folds = (e: PlanEntry) =>
    !opts.verbose &&
    grouped?.folded.has(e) === true &&
    !(base && (e.driftFields?.length || e.unappliedFields?.length));
  const list = (entries: readonly PlanEntry[], marked = false) => {
    const folded = entries.filter(folds).length;
    if (folded > 0) out.push(...foldedLines(folded, style, width), "");
    for (const e of entries)
      if (!folds(e))
        out.push(
          ...entryLines(e, { ...eo, ...(marked ? { whole: entryOrigin(plan, e) } : {}) }),
          "",
        );
  };
  const changes = plan.entries.filter(
    (e) => e.action === "create" || e.action === "update" || e.action === "delete",
  );
  // The policies the change alters: the violations on the objects they select are theirs.
  if (plan.policyChanges && plan.policyChanges.length > 0) {
    out.push(
      ...title("Policies this change alters (their rules judged on what they select):", opts),
    );
    for (const p of plan.policyChanges)
      out.push(
        ...wrap(
          [
            seg(visibleText(formatSource(p.source)), style.dim),
            seg(
              `  ${visibleText(p.name)}: ${p.change}, ${p.scope} rules${p.scope === "live" ? "" : `, ${p.objects.toLocaleString("en-US")} object${p.objects === 1 ? "" : "s"} planned`}`,
            ),
          ],
          { width, lead: "  ", hang: 2 },
        ),
      );
    out.push("");
  }
  // The blast radius of the Defaults layers involved, above the entries.
  if (plan.layers && plan.layers.length > 0) {
    out.push(...title(`${layersHeading(plan)}:`, opts));
    for (const l of plan.layers)
      out.push(
        ...wrap(
          [seg(visibleText(layerAt(l)), style.dim), seg(`  ${layerName(l)}: ${layerReach(l)}`)],
          {
            width,
            lead: "  ",
            hang: 2,
          },
        ),
      );
    out.push("");
  }
  if (grouped) out.push(...groupsBlock(grouped, style, width));
  if (plan.drift === undefined) {
    if (changes.length > 0) {
      out.push(...title("phctl will perform these actions:", opts), "");
      list(changes);
    }
  } else {
    const mine = changes.filter((e) => entryOrigin(plan, e) === "change");
    const unapplied = changes.filter((e) => entryOrigin(plan, e) === "unapplied");
    const theirs = changes.filter((e) => entryOrigin(plan, e) === "drift");
    out.push(
      ...title(
        mine.length > 0
          ? "This change (compared with the base):"
          : "No changes compared with the base.",
        opts,
      ),
      "",
    );
    list(mine);
    if (unapplied.length > 0) {
      out.push(
        ...title(
          "Merged but not applied (earlier merges whose apply did not carry them out; apply will):",
          opts,
          style.yellow,
        ),
        "",
      );
      list(unapplied);
    }
    if (theirs.length > 0) {
      out.push(...title("Drift already present (apply will also revert it):", opts, style.yellow));
      out.push("");
      list(theirs);
    }
    if (plan.applied?.known === false)
      out.push(
        ...title(
          `note: ${plan.applied.note ?? "no record of the last applied commit"}`,
          opts,
          style.dim,
        ),
        "",
      );
  }
  const tickets = byAction("ticket");
  if (tickets.length > 0) {
    out.push(
      ...title(
        "Support tickets needed (apply lists them and never sends them):",
        opts,
        style.magenta,
      ),
      "",
    );
    list(tickets, true);
  }
  const blocked = byAction("blocked");
  if (blocked.length > 0) {
    out.push(...title("Blocked (cannot be reached through the API):", opts, style.red), "");
    list(blocked, true);
  }
  const letters = tickets.filter((e) => e.ticket);
  if (letters.length > 0 && !opts.showTickets) {
    out.push(
      ...title(
        letters.length === 1
          ? "The ticket letter (send it to the service's support; phctl never sends it):"
          : "The ticket letters (send them to the service's support; phctl never sends them):",
        opts,
        style.magenta,
      ),
      "",
    );
    for (const e of letters)
      out.push(
        ...wrap(
          [seg(`${ACTION_SYMBOL.ticket} `, style.magenta), seg(visibleText(e.key), style.bold)],
          {
            width,
            lead: "  ",
            hang: 2,
          },
        ),
        ...letterLines(e, "    ", width, "Subject:"),
        "",
      );
  }
  if (plan.unmanaged.length > 0) {
    if (opts.verbose) {
      out.push(...title("Not managed (no manifest declares them; never touched):", opts));
      for (const u of plan.unmanaged)
        out.push(
          ...wrap([seg(`${visibleText(u.key)} (${u.kind}) `), seg(u.note, style.dim)], {
            width,
            lead: "  ",
            hang: 2,
          }),
        );
      out.push("");
    } else {
      // The first few by name (a removed Team manifest leaves its team here, never deleted).
      const n = plan.unmanaged.length;
      const named = plan.unmanaged.slice(0, 5).map((u) => visibleText(u.key));
      const rest = n > named.length ? `, …and ${formatCount(n - named.length)} more` : "";
      out.push(
        ...title(
          `${plural(n, "live object")} ${n === 1 ? "is" : "are"} not managed by any manifest: ${named.join(", ")}${rest} (--verbose lists them).`,
          opts,
          style.dim,
        ),
        "",
      );
    }
  }
  for (const w of plan.warnings) {
    const src = w.source ? `${formatSource(w.source)}: ` : "";
    out.push(...title(`warning: ${src}${w.message}`, opts, style.yellow));
  }
  if (plan.warnings.length > 0) out.push("");
  out.push(...wrap(summarySegs(plan, style), { width, hang: 2 }));
  // The organization's policies, after the summary: "No changes." still comes first.
  const policy = policyBlock(plan, style, width, opts.verbose === true);
  if (policy.length > 0) out.push("", ...policy);
  out.push(
    ...title(
      `read ${plural(plan.stats.objectsRead, "object")} in ${plural(plan.stats.apiCalls, "call")}`,
      opts,
      style.dim,
    ),
  );
  return `${out.join("\n")}\n`;
}

/**
 * The plan's deletes, one line each, for just above apply's confirmation prompt (a long plan
 * may have scrolled them away); empty when there are none.
 */
export function deletesBlock(
  entries: readonly PlanEntry[],
  style: Style = PLAIN,
  width?: number,
): string[] {
  const deletes = entries.filter((e) => e.action === "delete");
  if (deletes.length === 0) return [];
  const out = wrap(
    [
      seg("This plan will "),
      seg("DELETE", style.bold),
      seg(` ${plural(deletes.length, "object")}:`),
    ],
    { width, line: style.red },
  );
  for (const e of deletes)
    out.push(
      ...wrap(
        [seg(`${ACTION_SYMBOL.delete} `), seg(visibleText(e.key), style.bold), seg(` (${e.kind})`)],
        {
          width,
          lead: "  ",
          hang: 2,
          line: style.red,
        },
      ),
    );
  return out;
}
