/**
 * The details of the pull-request comment: one collapsed block per group (project, or
 * users/teams/organizations) holding a `diff` code block of its entries (markdown-diff.ts),
 * summarised by its counts. Within a budget, groups that fit are shown whole, the first
 * that does not in part ("…and N more" naming the rest), and the others listed by counts.
 */
import { fitList, fitListMin, type Item } from "./budget.js";
import { entryLines } from "./markdown-diff.js";
import { codeSpan, fenced, plural } from "./markdown-escape.js";
import { actionCounts, groupLabel, groupLabelHtml, type Group } from "./markdown-groups.js";
import type { Part } from "./markdown-lists.js";
import type { Origin } from "../engine/base-split.js";

/** Keys whose whole entry is not this change's: drift, or merged but not applied. */
export type WholeOrigins = ReadonlyMap<string, Exclude<Origin, "change">>;

/** "3 to create, 1 to update, 1 drift, 1 not applied". */
export function groupCounts(g: Group, drift: WholeOrigins): string {
  const count = (f: (e: Group["entries"][number]) => boolean, what: string) => {
    const n = g.entries.filter(f).length;
    return n ? [`${n.toLocaleString("en-US")} ${what}`] : [];
  };
  return [
    actionCounts(g.entries),
    ...count((e) => drift.get(e.key) === "drift", "drift"),
    ...count((e) => drift.get(e.key) === "unapplied", "not applied"),
    ...count((e) => !drift.has(e.key) && (e.driftFields?.length ?? 0) > 0, "partly drift"),
    ...count(
      (e) => drift.get(e.key) !== "unapplied" && (e.unappliedFields?.length ?? 0) > 0,
      "partly not applied",
    ),
  ].join(", ");
}

const HEADING = "#### Details";

function opening(g: Group, drift: WholeOrigins, note = ""): string {
  return `<details><summary>${groupLabelHtml(g)} — ${groupCounts(g, drift)}${note}</summary>\n\n`;
}

const CLOSING = "\n\n</details>";

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
  const items: Item[] = g.entries.map((e, i) => ({ text: texts[i], name: codeSpan(e.key) }));
  const tail = (left: number, names: string) =>
    `${fence}\n\n…and ${left.toLocaleString("en-US")} more${names ? `: ${names}` : ""} (see ${artifact})`;
  // Not all entries fit here (else the whole block would), so fitList ends with the tail.
  const room = budget - open.length - CLOSING.length - fence.length - 1;
  if (room < fitListMin(items, "\n", tail)) return undefined;
  const body = fitList(items, room, "\n", tail, 0.2);
  if (body.startsWith(fence)) return undefined; // not even one entry: the counts line says as much
  return `${open}${body}${CLOSING}`;
}

/** The details as a budgeted part (blocks built once). */
export function detailsPart(groups: readonly Group[], drift: WholeOrigins, artifact: string): Part {
  const blocks = groups.map((g) => fullBlock(g, drift));
  const all = groups.length === 0 ? "" : [HEADING, ...blocks].join("\n\n");
  return {
    full: all.length,
    min: Math.min(all.length, detailsMin(groups, artifact)),
    render: (budget) =>
      all.length <= budget ? all : renderCut(groups, blocks, drift, budget, artifact),
  };
}

/**
 * The details within `budget` (at least `detailsMin`) when not all fit: whole groups in
 * order where they fit, the first that does not in part, and the rest listed with counts.
 */
function renderCut(
  groups: readonly Group[],
  blocks: readonly string[],
  drift: WholeOrigins,
  budget: number,
  artifact: string,
): string {
  // Room for the list of groups not shown: at least its shortest form, and up to 30 % of
  // the budget so that many groups are still listed with their counts.
  const listAll = notShown(groups, drift, Number.MAX_SAFE_INTEGER, artifact).length + 2;
  const reserve = Math.max(
    detailsMin(groups, artifact) - HEADING.length + 2,
    Math.min(listAll, Math.floor(budget * 0.3)),
  );
  const shown: (string | undefined)[] = groups.map(() => undefined);
  let used = HEADING.length;
  for (const [i, b] of blocks.entries()) {
    if (used + 2 + b.length + reserve <= budget) {
      shown[i] = b;
      used += 2 + b.length;
    }
  }
  const rest = () => groups.filter((_, i) => shown[i] === undefined);
  const first = shown.indexOf(undefined);
  if (first >= 0) {
    const full = notShown(rest().slice(1), drift, Number.MAX_SAFE_INTEGER, artifact).length;
    const keep = Math.max(reserve, Math.min(full, Math.floor((budget - used) / 2)));
    const part = partialBlock(
      groups[first],
      blocks[first],
      drift,
      budget - used - 2 - keep,
      artifact,
    );
    if (part !== undefined) {
      shown[first] = part;
      used += 2 + part.length;
    }
  }
  const out = [HEADING, ...shown.filter((s): s is string => s !== undefined)];
  if (rest().length > 0) out.push(notShown(rest(), drift, budget - used - 2, artifact));
  return out.join("\n\n");
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

/** The shortest details: the heading and one line counting every group. */
export function detailsMin(groups: readonly Group[], artifact: string): number {
  if (groups.length === 0) return 0;
  const intro = notShownIntro(artifact);
  const left = suffixEntries(groups);
  const tail = `- …and ${plural(groups.length, "more group")} (${plural(left[groups.length], "entry", "entries")})`;
  return HEADING.length + 2 + intro.length + tail.length;
}
