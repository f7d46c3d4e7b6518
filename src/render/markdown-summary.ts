/**
 * The parts of the pull-request comment that are always shown whole: the verdict line
 * (changes, destructive, tickets, blocked, plan hash, organization), the counts per kind
 * and action, and the footer (base and head commits, when live state was read, the phctl
 * version, the CI run).
 */
import type { Action, Plan } from "../engine/plan.js";
import { changesDigest, shortDigest } from "../engine/reviewed.js";
import { kinds } from "../kinds/index.js";
import { codeSpan, linkTarget, mdText, plural, shorten } from "./markdown-escape.js";
import { destruction } from "./style.js";

/** `### phctl plan: 12 changes — 3 destructive, 1 ticket, 0 blocked · acme · plan `abc…``. */
export function verdictLine(plan: Plan): string {
  const hash = codeSpan(shortDigest(changesDigest(plan.entries)));
  const org = mdText(shorten(plan.organization, 80));
  const n = plan.entries.length;
  if (n === 0) return `### phctl plan: no changes · ${org} · plan ${hash}`;
  const count = (a: Action) => plan.entries.filter((e) => e.action === a).length;
  const destructive = plan.entries.filter((e) => destruction(e) !== undefined).length;
  return `### phctl plan: ${plural(n, "change")} — ${destructive.toLocaleString("en-US")} destructive, ${plural(count("ticket"), "ticket")}, ${count("blocked").toLocaleString("en-US")} blocked · ${org} · plan ${hash}`;
}

const COLUMNS = ["create", "update", "delete", "ticket", "blocked"] as const;
const KIND_ORDER = new Map(kinds.map((k, i) => [k.kind, i]));
/** Beyond this many kinds (never with phctl's own), per-action totals replace the table. */
const MAX_ROWS = 40;

/** Counts per kind × action, without all-zero rows or columns; and what is not managed. */
export function countsTable(plan: Plan): string {
  const rows = new Map<string, Record<Action, number>>();
  for (const e of plan.entries) {
    const row = rows.get(e.kind) ?? { create: 0, update: 0, delete: 0, ticket: 0, blocked: 0 };
    row[e.action]++;
    rows.set(e.kind, row);
  }
  const out: string[] = [];
  if (rows.size > MAX_ROWS) {
    const s = plan.summary;
    out.push(
      `${s.create} to create, ${s.update} to update, ${s.delete} to delete, ${plural(s.ticket, "ticket")}, ${s.blocked} blocked, in ${rows.size} kinds.`,
    );
  } else if (rows.size > 0) {
    const cols = COLUMNS.filter((c) => [...rows.values()].some((r) => r[c] > 0));
    const rank = (k: string) => KIND_ORDER.get(k) ?? kinds.length;
    const sorted = [...rows].sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
    out.push(`| kind | ${cols.join(" | ")} |`, `|:--|${cols.map(() => "--:|").join("")}`);
    for (const [kind, r] of sorted)
      out.push(
        `| ${mdText(shorten(kind, 60))} | ${cols.map((c) => (r[c] ? r[c].toLocaleString("en-US") : "")).join(" | ")} |`,
      );
  }
  const unmanaged = plan.unmanaged.length;
  if (unmanaged > 0) {
    if (out.length > 0) out.push("");
    out.push(
      `${plural(unmanaged, "live object")} ${unmanaged === 1 ? "is" : "are"} not managed by any manifest (never touched).`,
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
      `scoped to the ${plural(plan.scope.length, "object")} the change touches${plan.applied?.known ? " or merged earlier and not applied" : ""}`,
    );
  if (plan.phctlVersion) parts.push(`phctl ${mdText(shorten(plan.phctlVersion, 40))}`);
  if (f.runUrl) parts.push(`[CI run](${linkTarget(shorten(f.runUrl, 500))})`);
  return parts.join(" · ");
}
