/**
 * The pull-request comment's summary of an organization-wide change, right under the counts
 * table: one bullet per cluster of identical changes ("`enableForking`: `true` → `false` on 999
 * repositories in 100 projects (layer `no-forks`, `defaults.yaml:4`); 1 override (…)"), given
 * its share of the budget before the per-object details (collapsed below it); and a rule broken
 * many times as one bullet of the policy violations, naming as many of its objects as fit.
 */
import type { Plan } from "../engine/plan.js";
import { groupedSummary } from "./change-groups.js";
import { clusterWords, type Say } from "./group-words.js";
import { codeSpan, keySpan, mdText, shorten } from "./markdown-escape.js";
import { EMPTY_PART, listPart, message, moreTail, type Part } from "./markdown-lists.js";
import { formatCount, formatSource, plural } from "./style.js";
import { visibleJson, visibleText } from "../visible.js";
import { violationHead, type ViolationGroup } from "./violation-groups.js";

/** Values longer than this are cut in a summary bullet (the details have them whole). */
const VALUE_MAX = 60;

const SAY: Say = {
  value: (v) =>
    codeSpan(shorten(v === undefined || v === null ? "(none)" : visibleJson(v), VALUE_MAX)),
  name: (s) => codeSpan(visibleText(shorten(s, 80))),
  where: (s) => codeSpan(visibleText(shorten(s, 120))),
  kind: (s) => mdText(shorten(s, 40)),
};

/** `#### Summary — identical changes counted together` and a bullet per cluster; "" for small plans. */
export function groupsPart(plan: Plan, artifact: string): Part {
  const s = groupedSummary(plan.entries);
  if (!s) return EMPTY_PART;
  const items = s.clusters.map((c) => {
    const w = clusterWords(c, SAY);
    const text = `- ${w.change}${w.source ? ` (${w.source})` : ""}${w.rest ? `; ${w.rest}` : ""}`;
    return { text, name: c.field !== undefined ? SAY.name(c.field) : mdText(c.kind) };
  });
  if (s.others > 0)
    items.push({
      text: `- and ${plural(s.others, "other change")} (the details below list them)`,
      name: "other changes",
    });
  return listPart(
    "#### Summary — identical changes counted together\n\n",
    items,
    "\n",
    moreTail(artifact, "- "),
    0.2,
  );
}

/** At most this many characters of a grouped violation's bullet name its objects. */
const KEYS_MAX = 400;

/**
 * `- **deny** policy `naming`, rule `title-prefix` denies 40 projects — message ·
 * `policies/naming.yaml:7`: `a`, `b`, … 37 more (see the plan)`.
 */
export function violationGroupItem(
  g: ViolationGroup,
  artifact: string,
): { text: string; name: string } {
  const mark = { deny: "**deny**", warn: "warn", excepted: "excepted", debt: "debt" }[g.verdict];
  const src = formatSource(g.ruleSource);
  const said =
    g.message !== undefined ? message(g.message, 400, artifact) : "their messages differ";
  const named: string[] = [];
  let used = 0;
  for (const k of g.keys) {
    const span = keySpan(k);
    if (used + span.length + 2 > KEYS_MAX) break;
    named.push(span);
    used += span.length + 2;
  }
  const more = g.keys.length - named.length;
  const keys = `${named.join(", ")}${more > 0 ? `, …and ${formatCount(more)} more (see ${artifact})` : ""}`;
  const head = violationHead(g, (s) => codeSpan(shorten(s, 80)));
  return {
    text: `- ${mark} ${head} — ${said}${src ? ` · ${codeSpan(src)}` : ""}: ${keys}`,
    name: `${codeSpan(shorten(g.policy, 80))}/${codeSpan(shorten(g.rule, 80))}`,
  };
}
