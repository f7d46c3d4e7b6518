/**
 * The plan for people, in a terminal: Terraform-like `+ ~ - !` lines grouped by action,
 * each entry with its manifest source, then tickets, blocked entries, warnings and a
 * summary. With `plan --base`, the changes of this change come first and the drift
 * already present after them; fields of a mixed entry that are drift are marked `(drift)`.
 * A pure function of the plan.
 */
import type { Action, Plan, PlanEntry } from "../engine/plan.js";
import {
  ACTION_SYMBOL,
  formatCount,
  formatSource,
  formatValue,
  isEmptyValue,
  PLAIN,
  type Style,
} from "./style.js";

export interface TextOptions {
  style?: Style;
  /** List unmanaged objects one by one (otherwise only their count). */
  verbose?: boolean;
}

const VERB: Record<Action, string> = {
  create: "will be created",
  update: "will be updated in place",
  delete: "will be DELETED",
  ticket: "needs a support ticket (not an API operation; never sent)",
  blocked: "is blocked (cannot be reached; never sent)",
};

function paint(style: Style, action: Action, s: string): string {
  switch (action) {
    case "create":
      return style.green(s);
    case "update":
      return style.yellow(s);
    case "delete":
      return style.red(s);
    case "ticket":
      return style.magenta(s);
    case "blocked":
      return style.red(s);
  }
}

function entryLines(e: PlanEntry, style: Style, base: boolean, drift = false): string[] {
  const src = formatSource(e.source);
  const mark = drift ? style.dim(" (drift already present)") : "";
  const head = `  ${paint(style, e.action, ACTION_SYMBOL[e.action])} ${style.bold(e.key)} ${style.dim(`(${e.kind})`)} ${VERB[e.action]}${mark}${src ? style.dim(`  ${src}`) : ""}`;
  const lines = [head];
  if (e.action === "create" && e.after) {
    for (const [k, v] of Object.entries(e.after))
      if (!isEmptyValue(v)) lines.push(`      ${style.green("+")} ${k}: ${formatValue(v)}`);
  }
  const driftFields = new Set(base ? (e.driftFields ?? []) : []);
  for (const c of e.changes) {
    lines.push(
      `      ${paint(style, e.action, ACTION_SYMBOL[e.action])} ${c.field}: ${formatValue(c.before)} → ${formatValue(c.after)}${driftFields.has(c.field) ? style.dim("  (drift)") : ""}`,
    );
  }
  if (e.blocked) lines.push(`      reason: ${e.blocked.reason}`);
  if (e.ticket) {
    lines.push(`      ticket: ${e.ticket.subject}`);
    for (const l of e.ticket.body.split("\n")) lines.push(`        ${l}`);
  }
  if (e.action !== "ticket" && e.action !== "blocked" && e.reason)
    lines.push(style.dim(`      # ${e.reason}`));
  for (const w of e.warnings ?? []) lines.push(style.yellow(`      warning: ${w}`));
  return lines;
}

/** One-line summary: `Plan: 2 to create, 1 to update, 0 to delete; 1 ticket, 0 blocked.` */
export function summaryLine(plan: Plan): string {
  const s = plan.summary;
  if (plan.entries.length === 0)
    return plan.scope?.length === 0
      ? "No changes: the change touches nothing phctl manages."
      : plan.scope
        ? "No changes. Live state matches the manifests in what the change touches."
        : "No changes. Live state matches the manifests.";
  return `Plan: ${s.create} to create, ${s.update} to update, ${s.delete} to delete; ${s.ticket} ticket${s.ticket === 1 ? "" : "s"}, ${s.blocked} blocked.`;
}

export function renderText(plan: Plan, opts: TextOptions = {}): string {
  const style = opts.style ?? PLAIN;
  const out: string[] = [];
  const byAction = (a: Action) => plan.entries.filter((e) => e.action === a);
  const base = plan.drift !== undefined;
  const drift = new Set(plan.drift ?? []);
  const changes = plan.entries.filter(
    (e) => e.action === "create" || e.action === "update" || e.action === "delete",
  );
  if (plan.drift === undefined) {
    if (changes.length > 0) {
      out.push("phctl will perform these actions:", "");
      for (const e of changes) out.push(...entryLines(e, style, base), "");
    }
  } else {
    const mine = changes.filter((e) => !drift.has(e.key));
    const theirs = changes.filter((e) => drift.has(e.key));
    out.push(
      mine.length > 0
        ? "This change (compared with the base):"
        : "No changes compared with the base.",
      "",
    );
    for (const e of mine) out.push(...entryLines(e, style, base), "");
    if (theirs.length > 0) {
      out.push(style.yellow("Drift already present (apply will also revert it):"), "");
      for (const e of theirs) out.push(...entryLines(e, style, base), "");
    }
  }
  const tickets = byAction("ticket");
  if (tickets.length > 0) {
    out.push(style.magenta("Support tickets needed (apply lists them and never sends them):"), "");
    for (const e of tickets) out.push(...entryLines(e, style, base, drift.has(e.key)), "");
  }
  const blocked = byAction("blocked");
  if (blocked.length > 0) {
    out.push(style.red("Blocked (cannot be reached through the API):"), "");
    for (const e of blocked) out.push(...entryLines(e, style, base, drift.has(e.key)), "");
  }
  if (plan.unmanaged.length > 0) {
    if (opts.verbose) {
      out.push("Not managed (no manifest declares them; never touched):");
      for (const u of plan.unmanaged) out.push(`  ${u.key} (${u.kind}) ${style.dim(u.note)}`);
      out.push("");
    } else {
      out.push(
        style.dim(
          `${plan.unmanaged.length} live object${plan.unmanaged.length === 1 ? " is" : "s are"} not managed by any manifest (phctl plan --verbose lists them).`,
        ),
        "",
      );
    }
  }
  for (const w of plan.warnings) {
    const src = w.source ? `${formatSource(w.source)}: ` : "";
    out.push(style.yellow(`warning: ${src}${w.message}`));
  }
  if (plan.warnings.length > 0) out.push("");
  out.push(style.bold(summaryLine(plan)));
  out.push(
    style.dim(
      `read ${formatCount(plan.stats.objectsRead)} objects in ${formatCount(plan.stats.apiCalls)} calls`,
    ),
  );
  return `${out.join("\n")}\n`;
}
