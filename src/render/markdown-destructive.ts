/**
 * The destructive block of the pull-request comment: every deletion, access removal and
 * archive, right under the verdict. It is never cut: when one line per entry does not fit
 * its budget it is grouped per project with every name; only when even that does not fit
 * (pathological) does it fall back to counts, pointing to the plan artifact.
 */
import type { Plan, PlanEntry } from "../engine/plan.js";
import { codeSpan, keySpan, mdText } from "./markdown-escape.js";
import { groupEntries, groupLabel, kindCount, sortEntries, type Group } from "./markdown-groups.js";
import { destruction, formatSource } from "./style.js";

/** The phrase every counted (not listed) form carries. */
export const TOO_MANY = "Too many to list here";

export function destructiveEntries(plan: Plan): PlanEntry[] {
  return sortEntries(plan.entries.filter((e) => destruction(e) !== undefined));
}

const heading = (n: number) => `#### Destructive changes (${n.toLocaleString("en-US")})`;

function fullForm(plan: Plan, entries: readonly PlanEntry[]): string {
  const drift = new Set(plan.drift ?? []);
  const lines = entries.map((e) => {
    const src = formatSource(e.source);
    return `- ${keySpan(e.key)} — ${mdText(e.kind)} ${destruction(e)!}${src ? ` · ${codeSpan(src)}` : ""}${drift.has(e.key) ? " · drift already present" : ""}`;
  });
  return [heading(entries.length), "", ...lines].join("\n");
}

/** Entries of one group by kind and how they go: `Repository deleted` → entries. */
function byKindAndWay(entries: readonly PlanEntry[]): Map<string, PlanEntry[]> {
  const out = new Map<string, PlanEntry[]>();
  for (const e of entries) {
    const k = `${e.kind}\u0000${destruction(e)!}`;
    const list = out.get(k);
    if (list) list.push(e);
    else out.set(k, [e]);
  }
  return out;
}

/** The longest common prefix of the keys ending with `/` (`project/x/repo/`). */
function commonFolder(keys: readonly string[]): string {
  let p = keys[0].slice(0, keys[0].lastIndexOf("/") + 1);
  for (const k of keys)
    while (p && !k.startsWith(p)) p = p.slice(0, p.slice(0, -1).lastIndexOf("/") + 1);
  return p;
}

function counted(way: string, kind: string, n: number): string {
  return `${kindCount(kind, n)} ${way}`;
}

function compactForm(groups: readonly Group[], total: number): string {
  const lines: string[] = [];
  for (const g of groups) {
    for (const [k, es] of byKindAndWay(g.entries)) {
      const [kind, way] = k.split("\u0000") as [string, string];
      const folder = commonFolder(es.map((e) => e.key));
      const names = es.map((e) => keySpan(e.key.slice(folder.length) || e.key));
      const under = folder ? ` under ${keySpan(folder)}` : "";
      lines.push(
        `- ${groupLabel(g)}: ${counted(way, kind, es.length)}${under} — ${names.join(", ")}`,
      );
    }
  }
  return [heading(total), "", ...lines].join("\n");
}

function perProjectForm(groups: readonly Group[], total: number, artifact: string): string {
  const lines = groups.map((g) => {
    const parts = [...byKindAndWay(g.entries)].map(([k, es]) => {
      const [kind, way] = k.split("\u0000") as [string, string];
      return counted(way, kind, es.length);
    });
    return `- ${groupLabel(g)}: ${parts.join(", ")}`;
  });
  return [heading(total), "", `${TOO_MANY}; every key is in ${artifact}.`, "", ...lines].join("\n");
}

function totalsForm(entries: readonly PlanEntry[], artifact: string): string {
  const lines = [...byKindAndWay(entries)].map(([k, es]) => {
    const [kind, way] = k.split("\u0000") as [string, string];
    return `- ${counted(way, kind, es.length)}`;
  });
  return [
    heading(entries.length),
    "",
    `${TOO_MANY}; every key is in ${artifact}.`,
    "",
    ...lines,
  ].join("\n");
}

function bareForm(n: number, artifact: string): string {
  return `${heading(n)}\n\n${TOO_MANY}; every key is in ${artifact}.`;
}

/** The shortest form (what the block is always granted). */
export function destructiveMin(plan: Plan, artifact: string): number {
  const n = plan.entries.filter((e) => destruction(e) !== undefined).length;
  return n === 0 ? 0 : bareForm(n, artifact).length;
}

/**
 * The block in the most detailed form that fits `budget` (one line per entry only when it
 * takes at most `preferCompactAbove` characters); "" when nothing is destructive.
 */
export function renderDestructive(
  plan: Plan,
  budget: number,
  artifact: string,
  preferCompactAbove = budget,
): string {
  const entries = destructiveEntries(plan);
  if (entries.length === 0) return "";
  const full = fullForm(plan, entries);
  if (full.length <= Math.min(budget, preferCompactAbove)) return full;
  const groups = groupEntries(entries);
  const forms = [
    () => compactForm(groups, entries.length),
    () => full,
    () => perProjectForm(groups, entries.length, artifact),
    () => totalsForm(entries, artifact),
  ];
  for (const form of forms) {
    const text = form();
    if (text.length <= budget) return text;
  }
  return bareForm(entries.length, artifact);
}
