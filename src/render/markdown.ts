/**
 * The plan as a pull-request comment: a summary table first; destructive, ticket and
 * blocked entries called out; then collapsible details per project. It stays under
 * `maxChars` (default 60,000, below GitHub's comment limit): when the details do not fit
 * they are cut, with a pointer to the JSON plan artifact. A pure function of the plan.
 */
import type { Plan, PlanEntry } from "../engine/plan.js";
import { projectOf } from "../engine/plan.js";
import { ACTION_SYMBOL, formatCount, formatSource, formatValue } from "./style.js";
import { summaryLine } from "./text.js";

export interface MarkdownOptions {
  maxChars?: number;
  /** Where the full JSON plan can be found (named in the cut notice). */
  artifactHint?: string;
}

function detailLines(e: PlanEntry): string[] {
  const src = formatSource(e.source);
  const lines = [
    `${ACTION_SYMBOL[e.action]} ${e.key} (${e.kind}) ${e.action}${src ? `  # ${src}` : ""}`,
  ];
  if (e.action === "create" && e.after) {
    for (const [k, v] of Object.entries(e.after)) lines.push(`+     ${k}: ${formatValue(v)}`);
  }
  for (const c of e.changes)
    lines.push(
      `${ACTION_SYMBOL[e.action]}     ${c.field}: ${formatValue(c.before)} → ${formatValue(c.after)}`,
    );
  if (e.blocked) lines.push(`!     reason: ${e.blocked.reason}`);
  return lines;
}

function bullet(e: PlanEntry, text: string): string {
  const src = formatSource(e.source);
  return `- \`${e.key}\`${src ? ` (${src})` : ""}: ${text}`;
}

function escapeCell(s: string): string {
  return s.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

export function renderMarkdown(plan: Plan, opts: MarkdownOptions = {}): string {
  const max = opts.maxChars ?? 60_000;
  const artifact = opts.artifactHint ?? "the JSON plan artifact (phctl plan --format json)";
  const s = plan.summary;
  const head: string[] = [];
  head.push(`### phctl plan — ${escapeCell(plan.organization)}`, "");
  head.push(summaryLine(plan), "");
  head.push("| action | count |", "|---|---:|");
  head.push(`| create | ${s.create} |`, `| update | ${s.update} |`, `| delete | ${s.delete} |`);
  head.push(
    `| ticket | ${s.ticket} |`,
    `| blocked | ${s.blocked} |`,
    `| not managed | ${s.unmanaged} |`,
    "",
  );
  head.push(
    `Read ${formatCount(plan.stats.objectsRead)} objects in ${formatCount(plan.stats.apiCalls)} API calls.`,
    "",
  );

  const destructive = plan.entries.filter((e) => e.destructive);
  if (destructive.length > 0) {
    head.push(`**Destructive changes (${destructive.length})** — removals of data or access:`, "");
    for (const e of destructive) head.push(bullet(e, e.reason || e.action));
    head.push("");
  }
  const tickets = plan.entries.filter((e) => e.action === "ticket");
  if (tickets.length > 0) {
    head.push(
      `**Support tickets needed (${tickets.length})** — not API operations; apply never sends them:`,
      "",
    );
    for (const e of tickets) head.push(bullet(e, e.ticket?.subject ?? e.reason));
    head.push("");
  }
  const blocked = plan.entries.filter((e) => e.action === "blocked");
  if (blocked.length > 0) {
    head.push(`**Blocked (${blocked.length})** — cannot be reached through the API:`, "");
    for (const e of blocked)
      head.push(bullet(e, e.blocked ? `${e.blocked.field}: ${e.blocked.reason}` : e.reason));
    head.push("");
  }
  if (plan.warnings.length > 0) {
    head.push(`**Warnings (${plan.warnings.length})**`, "");
    for (const w of plan.warnings)
      head.push(`- ${w.source ? `${formatSource(w.source)}: ` : ""}${w.message}`);
    head.push("");
  }

  // Details, one collapsible block per project (and one for everything else).
  const groups = new Map<string, PlanEntry[]>();
  for (const e of plan.entries) {
    const g = projectOf(e.key) ? `project ${projectOf(e.key)}` : "users, teams and organizations";
    const list = groups.get(g) ?? [];
    list.push(e);
    groups.set(g, list);
  }
  const blocks: string[] = [];
  for (const [name, entries] of groups) {
    const body = entries.flatMap(detailLines).join("\n").replace(/```/g, "'''");
    blocks.push(
      `<details><summary>${escapeCell(name)} (${entries.length} change${entries.length === 1 ? "" : "s"})</summary>\n\n\`\`\`diff\n${body}\n\`\`\`\n\n</details>\n`,
    );
  }

  let out = head.join("\n");
  const cutNotice = (n: number) =>
    `\n_${n} more detail block${n === 1 ? "" : "s"} cut to stay under ${formatCount(max)} characters; see ${artifact}._\n`;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i];
    const remaining = blocks.length - i;
    if (out.length + block.length + cutNotice(remaining).length > max) {
      out += cutNotice(remaining);
      break;
    }
    out += `\n${block}`;
  }
  if (out.length > max)
    out = `${out.slice(0, max - 200)}\n\n_Cut to stay under ${formatCount(max)} characters; see ${artifact}._\n`;
  return out;
}
