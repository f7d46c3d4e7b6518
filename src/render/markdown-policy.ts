/**
 * The organization's policies in the pull-request comment and the drift issue: the
 * violations (denials first) right under the destructive block, and, at the top, the
 * exceptions a pull request adds or extends — an exception is a decision reviewers must
 * see, not one hidden in a YAML diff. Both are cut between whole items within their budget.
 */
import type { Plan, PolicyExceptionRef, PolicyImpact, PolicyViolation } from "../engine/plan.js";
import { codeSpan, keySpan, mdText, shorten } from "./markdown-escape.js";
import { EMPTY_PART, listPart, message, moreTail, type Part } from "./markdown-lists.js";
import {
  debtWords,
  exceptionChangeWords,
  exceptionNote,
  policyCountWords,
  ratchetNote,
  sortViolations,
  subjectNote,
  verdictOf,
} from "./policy-words.js";
import { formatSource } from "./style.js";
import { groupedViolations } from "./violation-groups.js";
import { violationGroupItem } from "./markdown-change-groups.js";

/** `policy: 1 denied, 2 warnings` for the verdict line; "" without violations. */
export function verdictPolicy(plan: Plan): string {
  return plan.violations.length > 0 ? `policy: ${policyCountWords(plan.violations)}` : "";
}

function violationItem(v: PolicyViolation, artifact: string) {
  const src = formatSource(v.source);
  const note = subjectNote(v);
  const exception = exceptionNote(v);
  const ratchet = ratchetNote(v);
  const mark = { deny: "**deny**", warn: "warn", excepted: "excepted", debt: "debt" }[verdictOf(v)];
  const rule = `${codeSpan(shorten(v.policy, 80))}/${codeSpan(shorten(v.rule, 80))}`;
  return {
    text: [
      `- ${mark} ${keySpan(v.key)}${note ? ` (${mdText(note)})` : ""}`,
      ` — ${rule}: ${message(v.message, 400, artifact)}`,
      src ? ` · ${codeSpan(src)}` : "",
      exception ? ` · ${mdText(exception)}` : "",
      ratchet ? ` · ${mdText(shorten(ratchet, 400))}` : "",
    ].join(""),
    name: keySpan(v.key),
  };
}

/**
 * `#### Policy violations — 1 denied, 2 warnings` and one line per violation; the ratchet's
 * debt (violations already there) as one line of counts by policy, above the list.
 */
export function policyPart(plan: Plan, artifact: string): Part {
  if (plan.violations.length === 0) return EMPTY_PART;
  // A rule broken many times is one bullet naming its objects; debt is one line of counts.
  const judged = plan.violations.filter((v) => verdictOf(v) !== "debt");
  const { groups, rest } = groupedViolations(judged);
  const items = [
    ...groups.map((g) => violationGroupItem(g, artifact)),
    ...sortViolations(rest).map((v) => violationItem(v, artifact)),
  ];
  const debt = debtWords(plan.violations);
  return listPart(
    `#### Policy violations — ${policyCountWords(plan.violations)}\n\n${debt ? `${mdText(debt)}\n\n` : ""}`,
    items,
    "\n",
    moreTail(artifact, "- "),
    0.2,
  );
}

function exceptionItem(x: PolicyExceptionRef, previous?: string) {
  const src = formatSource(x.source);
  const until = previous ? `until ${x.expires} (was ${previous})` : `until ${x.expires}`;
  const who = `approved by ${mdText(shorten(x.approvedBy, 80))}`;
  const rules = x.rules ? ` (${x.rules.map((r) => codeSpan(shorten(r, 80))).join(", ")})` : "";
  return {
    text: `- ${codeSpan(shorten(x.policy, 80))}${rules} for ${keySpan(x.key)} ${mdText(until)}, ${who}: ${mdText(shorten(x.reason, 300))}${src ? ` · ${codeSpan(src)}` : ""}`,
    name: keySpan(x.key),
  };
}

/**
 * `> **This pull request adds 1 policy exception**` and the exceptions, for the top of the
 * comment; empty when the change adds or extends none.
 */
export function exceptionsPart(plan: Plan, artifact: string, request = "pull request"): Part {
  const c = plan.policyExceptions;
  const words = exceptionChangeWords(c);
  if (!c || !words) return EMPTY_PART;
  const items = [
    ...c.added.map((x) => exceptionItem(x)),
    ...c.extended.map((x) => exceptionItem(x, x.previousExpires)),
  ];
  return listPart(
    `**This ${request} ${words}** (an exception lets objects break a policy until it expires):\n\n`,
    items,
    "\n",
    moreTail(artifact, "- "),
    0.2,
  );
}

function policyChangeItem(p: PolicyImpact) {
  const src = formatSource(p.source);
  const reach =
    p.scope === "live"
      ? "judges live objects at drift"
      : `judges ${p.objects.toLocaleString("en-US")} object${p.objects === 1 ? "" : "s"}, planned here`;
  return {
    text: `- ${codeSpan(shorten(p.name, 80))} ${p.change} (${p.scope} rules; ${reach})${src ? ` · ${codeSpan(src)}` : ""}`,
    name: codeSpan(shorten(p.name, 80)),
  };
}

/**
 * `**This pull request changes 2 policies**` and each with what it judges, for the top of the
 * comment: the violations below on those objects are the policy change's doing.
 */
export function policyChangesPart(plan: Plan, artifact: string, request = "pull request"): Part {
  const c = plan.policyChanges ?? [];
  if (c.length === 0) return EMPTY_PART;
  const n = `${c.length} polic${c.length === 1 ? "y" : "ies"}`;
  return listPart(
    `**This ${request} changes ${n}**: its rules are judged on every object it selects, and the violations below include theirs:\n\n`,
    c.map(policyChangeItem),
    "\n",
    moreTail(artifact, "- "),
    0.2,
  );
}
