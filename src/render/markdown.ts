/**
 * The plan as a pull-request comment (GitHub, GitLab, `plan --format markdown`) or as the
 * drift issue's body. In order: the hidden marker, the verdict line, the policy exceptions
 * the change adds or extends, the apply outcome, the destructive block, the policy
 * violations, the summary table (counts per project, kind and action), the summary of
 * identical changes (an organization-wide change in a line), the Defaults layers
 * involved with what each selects (the blast radius), the owners to approve (`plan --base`),
 * warnings, the
 * changes to apply (split into this pull request and drift already present with
 * `plan --base`), tickets and blocked entries, details collapsed per project, and a footer.
 * Every count says what it includes and adds up. It never exceeds `maxChars`: the verdict, counts and destructive block always
 * fit (the latter in a compact form when needed); the other parts share what is left and
 * are cut only between whole items, naming what was left out and where the full plan is.
 * A pure function of the plan.
 */
import type { Plan } from "../engine/plan.js";
import { share } from "./budget.js";
import { destructiveMin, renderDestructive } from "./markdown-destructive.js";
import { detailsPart, type WholeOrigins } from "./markdown-details.js";
import { shorten } from "./markdown-escape.js";
import { groupEntries } from "./markdown-groups.js";
import { groupsPart } from "./markdown-change-groups.js";
import { layersPart } from "./markdown-layers.js";
import { ownersPart } from "./markdown-owners.js";
import { sectionsPart, ticketsPart, warningsPart, type Part } from "./markdown-lists.js";
import { exceptionsPart, policyChangesPart, policyPart } from "./markdown-policy.js";
import { countsTable, footerLine, verdictLine, type MarkdownMode } from "./markdown-summary.js";

export interface MarkdownOptions {
  /** The platform's limit on a comment; default 65,536 (GitHub). GitLab: 1,000,000. */
  maxChars?: number;
  /** Where the full plan is (named by every cut), as markdown. */
  artifactHint?: string;
  /** Hidden HTML comment(s) placed first (finds the comment again); counted in the budget. */
  marker?: string;
  /**
   * Markdown shown right under the verdict (the apply result): a line, then (after a blank
   * line) the failed objects as a list; spaces around its line breaks are collapsed.
   */
  outcome?: string;
  footer?: { baseCommit?: string; headCommit?: string; runUrl?: string };
  /**
   * `drift`: every entry is drift (the drift issue, `drift --format markdown`): the verdict
   * counts differences or says in sync, and destructive entries say what happened live.
   */
  mode?: MarkdownMode;
  /** What the platform calls a change under review; GitLab: "merge request". */
  request?: "pull request" | "merge request";
}

export const GITHUB_COMMENT_LIMIT = 65_536;
const DEFAULT_ARTIFACT = "the JSON plan (`phctl plan --out plan.json`)";
const GAP = "\n\n";

/** Without `plan.drift` (no --base) there is no split: stray field marks are ignored. */
function withoutSplit(plan: Plan): Plan {
  if (plan.drift !== undefined || !plan.entries.some((e) => e.driftFields || e.unappliedFields))
    return plan;
  return {
    ...plan,
    entries: plan.entries.map(({ driftFields: _d, unappliedFields: _u, ...e }) => e),
  };
}

export function renderMarkdown(input: Plan, opts: MarkdownOptions = {}): string {
  const plan = withoutSplit(input);
  const max = opts.maxChars ?? GITHUB_COMMENT_LIMIT;
  const artifact = opts.artifactHint ?? DEFAULT_ARTIFACT;
  const drift: WholeOrigins = new Map([
    ...(plan.drift ?? []).map((k) => [k, "drift"] as const),
    ...(plan.unapplied ?? []).map((k) => [k, "unapplied"] as const),
  ]);
  const groups = groupEntries(plan.entries);
  // [weight] of each part that shares the budget. The exceptions a change adds go at the
  // top and the policy violations right under the destructive block; the others in order.
  const shared: [Part, number][] = [
    [exceptionsPart(plan, artifact, opts.request), 2],
    [policyPart(plan, artifact), 3],
    [policyChangesPart(plan, artifact, opts.request), 1],
    [groupsPart(plan, artifact), 6],
    [layersPart(plan, artifact), 1],
    [ownersPart(plan, artifact), 1],
    [warningsPart(plan, artifact), 1],
    [sectionsPart(plan, artifact, opts.request), 1],
    [ticketsPart(plan, artifact), 2],
    [detailsPart(groups, drift, artifact), 4],
  ];
  const marker = opts.marker ?? "";
  const mode = opts.mode ?? "plan";
  const verdict = verdictLine(plan, mode);
  const counts = countsTable(plan);
  const footer = footerLine(plan, opts.footer);
  // Every part may cost a gap; the final newline is one more character.
  const gaps = GAP.length * 15 + 1;
  const mins = shared.reduce((a, [p]) => a + p.min, 0) + destructiveMin(plan, artifact);
  const fixed = marker.length + verdict.length + counts.length + footer.length + gaps;
  const outcome = opts.outcome
    ? shorten(outcomeBlock(opts.outcome), Math.max(0, max - fixed - mins))
    : "";
  let left = max - fixed - outcome.length;
  const destructive = renderDestructive(
    plan,
    left - mins + destructiveMin(plan, artifact),
    artifact,
    Math.floor(left / 2),
    mode === "drift",
  );
  left -= destructive.length;
  const budgets = share(
    shared.map(([p, weight]) => ({ full: p.full, min: p.min, weight })),
    left,
  );
  const [exceptions, policy, policies, ...body] = shared.map(([p], i) => p.render(budgets[i]));
  const out = [
    marker,
    verdict,
    exceptions,
    policies,
    outcome,
    destructive,
    policy,
    counts,
    ...body,
    footer,
  ]
    .filter((s) => s !== "")
    .join(GAP);
  // The budget arithmetic above keeps within `max`; this only guards absurd inputs (a
  // marker alone longer than the limit).
  return `${out.length < max ? out : out.slice(0, max - 1)}\n`;
}

/** Paragraphs and list items kept; any other line break joins its lines with a space. */
function outcomeBlock(s: string): string {
  return s
    .trim()
    .split(/\n\s*\n/)
    .map((p) =>
      p
        .split("\n")
        .map((l) => l.trim())
        .reduce(
          (acc, l) => (acc === "" ? l : l.startsWith("- ") ? `${acc}\n${l}` : `${acc} ${l}`),
          "",
        ),
    )
    .join("\n\n");
}
