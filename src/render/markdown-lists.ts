/**
 * The lists of the pull-request comment: warnings; "Changes to apply", or "Changes in this
 * pull request", "Merged but not applied" (with `plan --base --applied`) and "Drift already
 * present" (with `plan --base`; the split is per field: an update that holds several is named
 * in each with its own fields), or the note that changes merged and not applied cannot be
 * known; support tickets and blocked entries.
 * Each list renders within a budget, cut between whole items with "…and N more" naming
 * what was left out; its heading always carries the count.
 */
import { entryOrigin, fieldsByOrigin, type Origin } from "../engine/base-split.js";
import type { Plan, PlanEntry } from "../engine/plan.js";
import { fitList, fitListMin, share, type Item, type Tail } from "./budget.js";
import { clipWords, codeSpan, keySpan, mdText, shorten } from "./markdown-escape.js";
import { sortEntries } from "./markdown-groups.js";
import { blockedText, destruction, formatSource } from "./style.js";

/** A budgeted part: its full length, its shortest length, and its rendering within a budget. */
export interface Part {
  full: number;
  min: number;
  render(budget: number): string;
}

export const EMPTY_PART: Part = { full: 0, min: 0, render: () => "" };

/** A heading and lines (fixed), then items cut to the budget (and to `cap` characters). */
export function listPart(
  lead: string,
  items: readonly Item[],
  sep: string,
  tail: Tail,
  nameShare = 0,
  cap = Number.MAX_SAFE_INTEGER,
): Part {
  const render = (budget: number) =>
    items.length === 0
      ? lead
      : `${lead}${fitList(items, Math.min(budget - lead.length, cap), sep, tail, nameShare)}`;
  const min = lead.length + (items.length === 0 ? 0 : fitListMin(items, sep, tail));
  return { full: render(Number.MAX_SAFE_INTEGER).length, min, render };
}

/** Text shown whole. */
const fixedPart = (text: string): Part => ({
  full: text.length,
  min: text.length,
  render: () => text,
});

/** Parts one after another (joined by a blank line), sharing their budget. */
function joinParts(parts: readonly Part[], sep = "\n\n"): Part {
  const live = parts.filter((p) => p.full > 0);
  if (live.length === 0) return EMPTY_PART;
  const gaps = sep.length * (live.length - 1);
  const sum = (f: (p: Part) => number) => live.reduce((a, p) => a + f(p), 0);
  return {
    full: sum((p) => p.full) + gaps,
    min: sum((p) => p.min) + gaps,
    render: (budget) => {
      const got = share(
        live.map((p) => ({ full: p.full, min: p.min, weight: 1 })),
        budget - gaps,
      );
      return live.map((p, i) => p.render(got[i])).join(sep);
    },
  };
}

/** "…and 3 more: `a`, `b` (see the plan)": what a cut list says it left out. */
export const moreTail =
  (artifact: string, bullet: string): Tail =>
  (left, names) =>
    `${bullet}…and ${left.toLocaleString("en-US")} more${names ? `: ${names}` : ""} (see ${artifact})`;

/**
 * A message of a list item, whole up to `max` characters; longer, cut after a sentence or
 * between words, saying so and where the full text is.
 */
export function message(text: string, max: number, artifact: string): string {
  const c = clipWords(text, max);
  return c.cut ? `${mdText(c.text)}… (cut; the full text is in ${artifact})` : mdText(text);
}

export function warningsPart(plan: Plan, artifact: string): Part {
  if (plan.warnings.length === 0) return EMPTY_PART;
  const items = plan.warnings.map((w) => {
    const src = formatSource(w.source);
    return {
      text: `- ${src ? `${codeSpan(src)}: ` : ""}${message(w.message, 400, artifact)}`,
      name: src ? codeSpan(src) : codeSpan(shorten(w.message, 40)),
    };
  });
  return listPart(
    `#### Warnings — ${plan.warnings.length.toLocaleString("en-US")}\n\n`,
    items,
    "\n",
    moreTail(artifact, "- "),
    0.2,
  );
}

/** `key` (field, field): an entry as a section names it. */
function named(e: PlanEntry, fields: readonly string[]): Item {
  const key = keySpan(e.key);
  if (e.action !== "update") return { text: key, name: key };
  return { text: `${key} (${mdText(shorten(fields.join(", "), 120))})`, name: key };
}

const CUD = ["create", "update", "delete"] as const;
/** A bullet of names stays a few lines; the rest are counted (the details list them). */
const BULLET_CAP = 480;

/**
 * One section: per action a bullet naming its entries (destructive ones only counted);
 * `count` is what the heading says the section holds.
 */
function sectionPart(
  title: string,
  picked: readonly [PlanEntry, string[]][],
  artifact: string,
  none = "Nothing to create, update or delete.",
  count = picked.length.toLocaleString("en-US"),
): Part {
  const lead = `#### ${title} — ${count}\n\n`;
  if (picked.length === 0) return fixedPart(`${lead}${none}`);
  const bullets = CUD.map((action) => {
    const all = picked.filter(([e]) => e.action === action);
    if (all.length === 0) return EMPTY_PART;
    const loud = all.filter(([e]) => destruction(e) !== undefined).length;
    const quiet = all.filter(([e]) => destruction(e) === undefined);
    const n = all.length.toLocaleString("en-US");
    const above = loud ? ` (${loud.toLocaleString("en-US")} destructive, listed above)` : "";
    const head = `- **${action}** ${n}${above}${quiet.length ? ": " : ""}`;
    const items = quiet.map(([e, fields]) => named(e, fields));
    return listPart(head, items, ", ", moreTail(artifact, ""), 0, BULLET_CAP);
  });
  return joinParts([fixedPart(lead.trimEnd()), joinParts(bullets, "\n")]);
}

/** What the comment says when the last applied commit is unknown (`plan --base` alone). */
function unknownAppliedPart(plan: Plan): Part {
  if (plan.applied?.known !== false) return EMPTY_PART;
  const why = plan.applied.note ?? "no record of the last applied commit";
  return fixedPart(`> [!NOTE]\n> ${mdText(shorten(why, 400))}`);
}

/**
 * "Changes to apply" (without --base), or "Changes in this pull request", "Merged but not
 * applied" (with --applied, when there are any) and "Drift already present (apply will also
 * revert it)" (with --base), each saying how many of those to apply it holds and how they
 * overlap (an update can hold several). `request` is the platform's word ("merge request"
 * on GitLab).
 */
export function sectionsPart(plan: Plan, artifact: string, request = "pull request"): Part {
  const cud = sortEntries(
    plan.entries.filter((e) => e.action !== "ticket" && e.action !== "blocked"),
  );
  const fieldsOf = (e: PlanEntry) => e.changes.map((c) => c.field);
  const unknown = unknownAppliedPart(plan);
  if (cud.length === 0) return unknown;
  if (plan.drift === undefined) {
    return sectionPart(
      "Changes to apply",
      cud.map((e) => [e, fieldsOf(e)]),
      artifact,
    );
  }
  const by: Record<Origin, [PlanEntry, string[]][]> = { change: [], unapplied: [], drift: [] };
  for (const e of cud) {
    if (e.changes.length === 0) {
      by[entryOrigin(plan, e)].push([e, []]);
      continue;
    }
    const fields = fieldsByOrigin(plan, e);
    for (const o of ["change", "unapplied", "drift"] as const)
      if (fields[o].length > 0) by[o].push([e, fields[o]]);
  }
  const n = (k: number) => k.toLocaleString("en-US");
  const of = ` of the ${n(cud.length)} to apply`;
  // An update can hold fields of several origins: each section after the first says how
  // many of its entries a section above lists too, so the counts add up to those to apply.
  const mine = new Set(by.change.map(([e]) => e.key));
  const earlier = new Set([...mine, ...by.unapplied.map(([e]) => e.key)]);
  const also = (list: [PlanEntry, string[]][], seen: ReadonlySet<string>) =>
    list.filter(([e]) => seen.has(e.key)).length;
  const mergedAlso = also(by.unapplied, mine);
  const driftAlso = also(by.drift, earlier);
  // Drift over entries of this change only is said as before; else "listed above".
  const driftAbove =
    driftAlso === 0
      ? ""
      : driftAlso === also(by.drift, mine)
        ? ` (${n(driftAlso)} also changed in this ${request})`
        : ` (${n(driftAlso)} also listed above)`;
  return joinParts([
    sectionPart(
      `Changes in this ${request}`,
      by.change,
      artifact,
      by.unapplied.length > 0
        ? "None: everything below was already there before this change."
        : "None: everything below was already drifting before this change.",
      `${n(by.change.length)}${of}`,
    ),
    by.unapplied.length === 0
      ? EMPTY_PART
      : sectionPart(
          "Merged but not applied (earlier merges whose apply did not carry them out; this apply will)",
          by.unapplied,
          artifact,
          undefined,
          `${n(by.unapplied.length)}${of}${mergedAlso > 0 ? ` (${n(mergedAlso)} also changed in this ${request})` : ""}`,
        ),
    sectionPart(
      "Drift already present (apply will also revert it)",
      by.drift,
      artifact,
      plan.scope ? "None in what this change touches." : "None.",
      `${n(by.drift.length)}${of}${driftAbove}`,
    ),
    unknown,
  ]);
}

/** Support tickets and blocked entries: never sent, each with what to do about it. */
export function ticketsPart(plan: Plan, artifact: string): Part {
  const marks: Record<Origin, string> = {
    change: "",
    drift: " · drift already present",
    unapplied: " · merged but not applied",
  };
  const bullet = (e: PlanEntry, text: string): Item => {
    const src = formatSource(e.source);
    const mark = marks[entryOrigin(plan, e)];
    const layer = src && e.layer ? `, Defaults ${mdText(e.layer)}` : "";
    return {
      text: `- ${keySpan(e.key)}${src ? ` (${codeSpan(src)}${layer})` : ""}: ${message(text, 300, artifact)}${mark}`,
      name: keySpan(e.key),
    };
  };
  const tickets = sortEntries(plan.entries.filter((e) => e.action === "ticket"));
  const blocked = sortEntries(plan.entries.filter((e) => e.action === "blocked"));
  const tail = moreTail(artifact, "- ");
  return joinParts([
    tickets.length === 0
      ? EMPTY_PART
      : listPart(
          `#### Support tickets — ${tickets.length.toLocaleString("en-US")} (apply never sends them; open them by hand)\n\n`,
          tickets.map((e) => bullet(e, e.ticket?.subject ?? e.reason)),
          "\n",
          tail,
          0.2,
        ),
    blocked.length === 0
      ? EMPTY_PART
      : listPart(
          `#### Blocked — ${blocked.length.toLocaleString("en-US")} (cannot be reached through the API; never sent)\n\n`,
          blocked.map((e) => bullet(e, e.blocked ? blockedText(e.blocked) : e.reason)),
          "\n",
          tail,
          0.2,
        ),
  ]);
}
