/**
 * The parts of the pull-request comment that are always shown whole: the verdict line
 * (changes: to apply, tickets, blocked; plan hash, organization), the summary table of
 * counts per project, kind and action, and the footer (base and head commits, when live state was read, the phctl
 * version, the CI run).
 */
import type { Action, Plan, PlanEntry } from "../engine/plan.js";
import { changesDigest, shortDigest } from "../engine/reviewed.js";
import { kinds } from "../kinds/index.js";
import { codeSpan, linkTarget, mdText, plural, shorten } from "./markdown-escape.js";
import { featuredGroups, groupEntries, otherGroups, type Group } from "./markdown-groups.js";
import { destruction, formatCount } from "./style.js";
import { visibleText } from "../visible.js";
import { verdictPolicy } from "./markdown-policy.js";
import { exceptionChangeWords } from "./policy-words.js";

/** What the comment is about: a plan (pull request, `plan --format markdown`) or drift. */
export type MarkdownMode = "plan" | "drift";

/**
 * `### phctl plan: 12 changes — 10 to apply (3 destructive), 1 ticket, 1 blocked · acme ·
 * plan `abc…``: the parts after the dash add up to the total (destructive ones are among
 * those to apply); `policy: 1 denied, 2 warnings` and `adds 1 policy exception` before the
 * organization when there are any. Drift: `### phctl drift: 12 differences — …`, or in sync.
 */
export function verdictLine(plan: Plan, mode: MarkdownMode = "plan"): string {
  const hash = codeSpan(shortDigest(changesDigest(plan.entries)));
  // The policy's verdict and the exceptions a change adds sit before the organization.
  const org = [
    verdictPolicy(plan),
    exceptionChangeWords(plan.policyExceptions),
    mdText(shorten(plan.organization, 80)),
  ]
    .filter((s) => s !== "")
    .join(" · ");
  const n = plan.entries.length;
  if (n === 0)
    return mode === "drift"
      ? `### phctl drift: in sync — live state matches the manifests · ${org}`
      : `### phctl plan: no changes · ${org} · plan ${hash}`;
  const count = (a: Action) => plan.entries.filter((e) => e.action === a).length;
  const destructive = plan.entries.filter((e) => destruction(e) !== undefined).length;
  const apply = n - count("ticket") - count("blocked");
  const loud = destructive > 0 ? ` (${formatCount(destructive)} destructive)` : "";
  const noun = mode === "drift" ? "difference" : "change";
  return `### phctl ${mode}: ${plural(n, noun)} — ${formatCount(apply)} to apply${loud}, ${plural(count("ticket"), "ticket")}, ${formatCount(count("blocked"))} blocked · ${org} · plan ${hash}`;
}

const COLUMNS = ["create", "update", "delete", "ticket", "blocked"] as const;
const KIND_ORDER = new Map(kinds.map((k, i) => [k.kind, i]));
const byKind = (a: string, b: string) =>
  (KIND_ORDER.get(a) ?? kinds.length) - (KIND_ORDER.get(b) ?? kinds.length) ||
  (a < b ? -1 : a > b ? 1 : 0);

type Row = Record<Action, number>;
const zero = (): Row => ({ create: 0, update: 0, delete: 0, ticket: 0, blocked: 0 });

/** Counts per kind × action of some entries, kinds in phctl's order. */
function perKind(entries: readonly PlanEntry[]): [string, Row][] {
  const rows = new Map<string, Row>();
  for (const e of entries) {
    const row = rows.get(e.kind) ?? zero();
    row[e.action]++;
    rows.set(e.kind, row);
  }
  return [...rows].sort(([a], [b]) => byKind(a, b));
}

/** A group as the table names it: the project's slug (the column says project), or "users and teams". */
function tableLabel(g: Group): string {
  return g.slug === undefined ? mdText(g.name) : codeSpan(visibleText(shorten(g.slug, 36)), true);
}

/** How many unmanaged objects the summary names (it is always shown whole). */
const UNMANAGED_NAMED = 10;

/**
 * The summary: a table of counts per project and kind (the largest projects by name, the
 * others counted together), each row with its total and a total row that adds up to the
 * verdict; then what is not managed.
 */
export function countsTable(plan: Plan): string {
  const groups = groupEntries(plan.entries);
  const out: string[] = [];
  if (groups.length > 0) {
    const cols = COLUMNS.filter((c) => plan.entries.some((e) => e.action === c));
    const cells = (r: Row, strong = false) => {
      const total = cols.reduce((a, c) => a + r[c], 0);
      const fmt = (n: number) => (strong ? `**${formatCount(n)}**` : formatCount(n));
      return [...cols.map((c) => (r[c] ? fmt(r[c]) : "")), fmt(total)].join(" | ");
    };
    out.push(
      `| project | kind | ${cols.join(" | ")} | total |`,
      `|:--|:--|${cols.map(() => "--:|").join("")}--:|`,
    );
    const { shown, rest } = featuredGroups(groups);
    const rows = (label: string, entries: readonly PlanEntry[]) =>
      perKind(entries).forEach(([kind, r], i) =>
        out.push(`| ${i === 0 ? label : ""} | ${mdText(shorten(kind, 40))} | ${cells(r)} |`),
      );
    for (const g of shown) rows(tableLabel(g), g.entries);
    if (rest.length > 0)
      rows(
        otherGroups(rest),
        rest.flatMap((g) => g.entries),
      );
    const all = zero();
    for (const e of plan.entries) all[e.action]++;
    out.push(`| **total** | | ${cells(all, true)} |`);
  }
  const unmanaged = plan.unmanaged.length;
  if (unmanaged > 0) {
    if (out.length > 0) out.push("");
    // Named (the first few): a removed Team manifest leaves its team here, never deleted.
    const named = plan.unmanaged
      .slice(0, UNMANAGED_NAMED)
      .map((u) => codeSpan(visibleText(shorten(u.key, 80)), true));
    const more = unmanaged - named.length;
    out.push(
      `${plural(unmanaged, "live object")} ${unmanaged === 1 ? "is" : "are"} not managed by any manifest (never touched): ${named.join(", ")}${more > 0 ? `, …and ${formatCount(more)} more` : ""}.`,
    );
  }
  return out.join("\n");
}

/** "2026-11-23T10:02:31.000Z" → "2026-11-23 10:02 UTC". */
function readAt(iso: string): string {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return mdText(shorten(iso, 40));
  return `${t.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export interface Footer {
  baseCommit?: string;
  headCommit?: string;
  runUrl?: string;
}

/**
 * `base abc1234 · head def5678 · live state read … · last applied 0123abc · phctl 0.1.0 ·
 * [CI run](url)`.
 */
export function footerLine(plan: Plan, f: Footer = {}): string {
  const sha = (s: string) => mdText(shorten(s, 40).slice(0, 7));
  const parts: string[] = [];
  if (f.baseCommit) parts.push(`base ${sha(f.baseCommit)}`);
  if (f.headCommit) parts.push(`head ${sha(f.headCommit)}`);
  parts.push(`live state read ${readAt(plan.createdAt)}`);
  if (plan.applied?.commit) parts.push(`last applied ${sha(plan.applied.commit)}`);
  if (plan.scope)
    parts.push(
      `scoped to ${plural(plan.scope.length, "object")}: what the change touches${plan.applied?.known ? " or merged earlier and not applied" : ""}, and what those need`,
    );
  if (plan.phctlVersion) parts.push(`phctl ${mdText(shorten(plan.phctlVersion, 40))}`);
  if (f.runUrl) parts.push(`[CI run](${linkTarget(shorten(f.runUrl, 500))})`);
  return parts.join(" · ");
}
