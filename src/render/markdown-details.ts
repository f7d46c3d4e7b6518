/**
 * The details of the pull-request comment: one collapsed block per group (project, or
 * users/teams/organizations) holding a `diff` code block of its entries (markdown-diff.ts),
 * summarised by its counts. A big plan shows the groups its summary names first and folds
 * the others into one block, so the comment stays a few screens long. Within a budget,
 * groups that fit are shown whole, the first that does not in part ("…and N more" naming
 * the rest), and the others listed by counts.
 */
import type { PlanEntry } from "../engine/plan.js";
import { fitList, fitListMin, type Item } from "./budget.js";
import { entryLines } from "./markdown-diff.js";
import { fenced, htmlText, keySpan, plural } from "./markdown-escape.js";
import {
  changeCounts,
  featuredGroups,
  groupLabel,
  groupLabelHtml,
  otherGroups,
  type Group,
} from "./markdown-groups.js";
import type { Part } from "./markdown-lists.js";
import { formatCount } from "./style.js";
import type { Origin } from "../engine/base-split.js";

/** Keys whose whole entry is not this change's: drift, or merged but not applied. */
export type WholeOrigins = ReadonlyMap<string, Exclude<Origin, "change">>;

/**
 * "4 changes: 3 to create, 1 to update (2 of them drift already present, 1 partly)"; changes
 * merged but not applied are counted the same way.
 */
function entriesCounts(entries: readonly PlanEntry[], drift: WholeOrigins): string {
  const n = (f: (e: PlanEntry) => boolean) => entries.filter(f).length;
  const whole = n((e) => drift.get(e.key) === "drift");
  const part = n((e) => !drift.has(e.key) && (e.driftFields?.length ?? 0) > 0);
  const unapplied = n((e) => drift.get(e.key) === "unapplied");
  const partUnapplied = n(
    (e) => drift.get(e.key) !== "unapplied" && (e.unappliedFields?.length ?? 0) > 0,
  );
  const notes: string[] = [];
  if (whole) notes.push(`${formatCount(whole)} of them drift already present`);
  if (part) notes.push(whole ? `${formatCount(part)} partly` : `${formatCount(part)} of them partly drift`); // prettier-ignore
  if (unapplied) notes.push(`${formatCount(unapplied)} of them merged but not applied`);
  if (partUnapplied) notes.push(`${formatCount(partUnapplied)} of them partly not applied`);
  return `${changeCounts(entries)}${notes.length ? ` (${notes.join(", ")})` : ""}`;
}

/**
 * A group's counts: how many changes, then per action, adding up to that; drift is among
 * them, not more of them.
 */
export function groupCounts(g: Group, drift: WholeOrigins): string {
  return entriesCounts(g.entries, drift);
}

/** `#### Details — 9 changes in 3 groups`. */
function headingOf(groups: readonly Group[]): string {
  const n = groups.reduce((a, g) => a + g.entries.length, 0);
  return `#### Details — ${plural(n, "change")} in ${plural(groups.length, "group")}`;
}

function opening(g: Group, drift: WholeOrigins, note = ""): string {
  return `<details><summary>${groupLabelHtml(g)} — ${groupCounts(g, drift)}${note}</summary>\n\n`;
}

const CLOSING = "\n\n</details>";

/** The block folding the groups a big plan's summary counts together. */
function foldOpening(rest: readonly Group[], drift: WholeOrigins): string {
  const counts = entriesCounts(
    rest.flatMap((g) => g.entries),
    drift,
  );
  return `<details><summary>${htmlText(otherGroups(rest))} — ${counts}</summary>\n\n`;
}

function fullBlock(g: Group, drift: WholeOrigins): string {
  const lines = g.entries.flatMap((e) => entryLines(e, drift.get(e.key)));
  return `${opening(g, drift)}${fenced("diff", lines)}${CLOSING}`;
}

/** The group with as many whole entries as fit, then "…and N more" naming the rest. */
function partialBlock(
  g: Group,
  whole: string,
  drift: WholeOrigins,
  budget: number,
  artifact: string,
): string | undefined {
  if (whole.length <= budget) return whole;
  const texts = g.entries.map((e) => entryLines(e, drift.get(e.key)).join("\n"));
  const fence = fenced("", texts).split("\n", 1)[0]; // the fence these lines need
  const open = `${opening(g, drift, " (part shown)")}${fence}diff\n`;
  const items: Item[] = g.entries.map((e, i) => ({ text: texts[i], name: keySpan(e.key) }));
  const tail = (left: number, names: string) =>
    `${fence}\n\n…and ${left.toLocaleString("en-US")} more${names ? `: ${names}` : ""} (see ${artifact})`;
  // Not all entries fit here (else the whole block would), so fitList ends with the tail.
  const room = budget - open.length - CLOSING.length - fence.length - 1;
  if (room < fitListMin(items, "\n", tail)) return undefined;
  const body = fitList(items, room, "\n", tail, 0.2);
  if (body.startsWith(fence)) return undefined; // not even one entry: the counts line says as much
  return `${open}${body}${CLOSING}`;
}

/** The groups in the order shown: those the summary names, then the folded rest. */
interface Layout {
  groups: Group[];
  /** Index of the first folded group (groups.length: nothing folded). */
  foldAt: number;
  heading: string;
  /** The fold's opening ("" when nothing is folded). */
  fold: string;
}

function layoutOf(groups: readonly Group[], drift: WholeOrigins): Layout {
  const { shown, rest } = featuredGroups(groups);
  return {
    groups: [...shown, ...rest],
    foldAt: shown.length,
    heading: headingOf(groups),
    fold: rest.length > 0 ? foldOpening(rest, drift) : "",
  };
}

/** Heading, shown blocks, then (inside the fold when there is one) the rest and `tail`. */
function assemble(l: Layout, shown: readonly (string | undefined)[], tail = ""): string {
  const pick = (from: number, to: number) =>
    shown.slice(from, to).filter((s): s is string => s !== undefined);
  const top = [l.heading, ...pick(0, l.foldAt)];
  const inner = [...pick(l.foldAt, shown.length), ...(tail ? [tail] : [])];
  if (l.fold === "") return [...top, ...inner].join("\n\n");
  return [...top, `${l.fold}${inner.join("\n\n")}${CLOSING}`].join("\n\n");
}

/** The details as a budgeted part (blocks built once). */
export function detailsPart(groups: readonly Group[], drift: WholeOrigins, artifact: string): Part {
  if (groups.length === 0) return { full: 0, min: 0, render: () => "" };
  const l = layoutOf(groups, drift);
  const blocks = l.groups.map((g) => fullBlock(g, drift));
  const all = assemble(l, blocks);
  return {
    full: all.length,
    min: Math.min(all.length, detailsMin(groups, artifact, drift)),
    render: (budget) =>
      all.length <= budget ? all : renderCut(l, blocks, drift, budget, artifact),
  };
}

/**
 * The details within `budget` (at least `detailsMin`) when not all fit: whole groups in
 * order where they fit, the first that does not in part, and the rest listed with counts.
 */
function renderCut(
  l: Layout,
  blocks: readonly string[],
  drift: WholeOrigins,
  total: number,
  artifact: string,
): string {
  const { groups } = l;
  // What the heading and the fold cost whatever is shown; "\n\n" before the list.
  const fixed = l.heading.length + (l.fold ? 2 + l.fold.length + CLOSING.length : 0) + 2;
  const budget = total - fixed;
  // Room for the list of groups not shown: at least its shortest form, and up to 30 % of
  // the budget so that many groups are still listed with their counts.
  const listAll = notShown(groups, drift, Number.MAX_SAFE_INTEGER, artifact).length;
  const reserve = Math.max(notShownMin(groups, artifact), Math.min(listAll, Math.floor(budget * 0.3))); // prettier-ignore
  const shown: (string | undefined)[] = groups.map(() => undefined);
  let used = 0;
  for (const [i, b] of blocks.entries()) {
    if (used + b.length + 2 + reserve <= budget) {
      shown[i] = b;
      used += b.length + 2;
    }
  }
  const rest = () => groups.filter((_, i) => shown[i] === undefined);
  const first = shown.indexOf(undefined);
  if (first >= 0) {
    const full = notShown(rest().slice(1), drift, Number.MAX_SAFE_INTEGER, artifact).length;
    const keep = Math.max(reserve, Math.min(full, Math.floor((budget - used) / 2)));
    const part = partialBlock(groups[first], blocks[first], drift, budget - used - 2 - keep, artifact); // prettier-ignore
    if (part !== undefined) {
      shown[first] = part;
      used += part.length + 2;
    }
  }
  const tail = rest().length > 0 ? notShown(rest(), drift, budget - used, artifact) : "";
  return assemble(l, shown, tail);
}

const notShownIntro = (artifact: string) =>
  `Not shown here for length (every entry is in ${artifact}):\n\n`;

function notShown(
  groups: readonly Group[],
  drift: WholeOrigins,
  budget: number,
  artifact: string,
): string {
  if (groups.length === 0) return "";
  const intro = notShownIntro(artifact);
  const items: Item[] = groups.map((g) => ({
    text: `- ${groupLabel(g)} — ${groupCounts(g, drift)}`,
    name: groupLabel(g),
  }));
  const left = suffixEntries(groups);
  const tail = (n: number, names: string) =>
    `- …and ${plural(n, "more group")} (${plural(left[n], "entry", "entries")})${names ? `: ${names}` : ""}`;
  return intro + fitList(items, budget - intro.length, "\n", tail, 0.2);
}

/** `left[n]`: how many entries the last n groups hold. */
function suffixEntries(groups: readonly Group[]): number[] {
  const left = [0];
  for (let i = groups.length - 1; i >= 0; i--) left.push(left.at(-1)! + groups[i].entries.length);
  return left;
}

/** The shortest list of groups not shown: one line counting them all. */
function notShownMin(groups: readonly Group[], artifact: string): number {
  const left = suffixEntries(groups);
  const tail = `- …and ${plural(groups.length, "more group")} (${plural(left[groups.length], "entry", "entries")})`;
  return notShownIntro(artifact).length + tail.length;
}

/** The shortest details: the heading (and fold) and one line counting every group. */
export function detailsMin(
  groups: readonly Group[],
  artifact: string,
  drift: WholeOrigins = new Map(),
): number {
  if (groups.length === 0) return 0;
  const l = layoutOf(groups, drift);
  const fold = l.fold ? 2 + l.fold.length + CLOSING.length : 0;
  return l.heading.length + fold + 2 + notShownMin(groups, artifact);
}
