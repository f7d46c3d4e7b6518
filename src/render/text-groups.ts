/**
 * The terminal's summary of an organization-wide change, above the entries: one line per
 * cluster of identical changes ("~ enableForking: true → false on 999 repositories in 100
 * projects (layer no-forks, defaults.yaml:4); 1 override (projects/p7.yaml:12)"), and the note
 * standing in for the objects whose every change such a line says (`--verbose` lists them one
 * by one); and a rule broken many times as one entry of the policy block. Pure.
 */
import type { GroupedSummary } from "./change-groups.js";
import { violationHead, type ViolationGroup } from "./violation-groups.js";
import { clusterWords, type Say } from "./group-words.js";
import { paintOf, textValue } from "./text-entry.js";
import { ACTION_SYMBOL, formatCount, formatSource, plural, type Style } from "./style.js";
import { shorten } from "./markdown-escape.js";
import { visibleText } from "../visible.js";
import { seg, wrap, wrapText } from "./wrap.js";

/** Values longer than this are cut in a summary line (the entries and the JSON have them whole). */
const VALUE_MAX = 60;

const SAY: Say = {
  value: (v) => shorten(textValue(v), VALUE_MAX),
  name: visibleText,
  where: visibleText,
  kind: visibleText,
};

/** `Summary (identical changes counted together):` and a line per cluster; a blank line after. */
export function groupsBlock(s: GroupedSummary, style: Style, width: number | undefined): string[] {
  const out = wrapText("Summary (identical changes counted together):", { width, hang: 2 });
  for (const c of s.clusters) {
    const w = clusterWords(c, SAY);
    out.push(
      ...wrap(
        [
          seg(ACTION_SYMBOL[c.action], paintOf(style, c.action)),
          seg(` ${w.change}`),
          ...(w.source ? [seg(` (${w.source})`, style.dim)] : []),
          ...(w.rest ? [seg(`; ${w.rest}`)] : []),
        ],
        { width, lead: "  ", hang: 4 },
      ),
    );
  }
  if (s.others > 0)
    out.push(
      ...wrapText(`and ${plural(s.others, "other change")}, each listed below`, {
        width,
        lead: "  ",
        hang: 2,
        paint: style.dim,
      }),
    );
  out.push("");
  return out;
}

/** The note standing in for `n` objects the summary says in full. */
export function foldedLines(n: number, style: Style, width: number | undefined): string[] {
  return wrapText(
    `${plural(n, "object")} changed only as the summary says ${n === 1 ? "is" : "are"} not listed one by one (--verbose lists every object).`,
    { width, lead: "  ", hang: 2, paint: style.dim },
  );
}

/** At most this many keys of a rule's violations are named in its line. */
const KEYS_NAMED = 6;

/**
 * One rule broken many times, as one entry of the policy block: `deny  policy naming, rule
 * title-prefix denies 40 projects  policies/naming.yaml:7`, its message (when all say the
 * same), then the first keys and how many more.
 */
export function violationGroupLines(
  g: ViolationGroup,
  style: Style,
  width: number | undefined,
): string[] {
  const paint =
    g.verdict === "deny"
      ? (s: string) => style.red(style.bold(s))
      : g.verdict === "warn"
        ? style.yellow
        : style.dim;
  const src = formatSource(g.ruleSource);
  const more = g.keys.length - KEYS_NAMED;
  const keys = `${g.keys.slice(0, KEYS_NAMED).map(visibleText).join(", ")}${more > 0 ? `, …and ${formatCount(more)} more (--verbose lists each)` : ""}`;
  return [
    ...wrap(
      [
        seg(g.verdict, paint),
        seg("  "),
        seg(violationHead(g, visibleText), style.bold),
        ...(src ? [seg(`  ${src}`, style.dim)] : []),
      ],
      { width, lead: "  ", hang: 6 },
    ),
    ...wrapText(g.message ?? "(their messages differ: --verbose lists each)", {
      width,
      lead: "        ",
    }),
    ...wrapText(keys, { width, lead: "        ", hang: 2, paint: style.dim }),
  ];
}
