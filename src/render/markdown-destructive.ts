/**
 * The destructive block of the pull-request comment: every deletion, archive and access
 * removal (data loss first), right under the verdict; drift says what happened live and
 * what apply will do about it. It is never cut: when one line per entry does not fit
 * its budget it is grouped per project with every name; only when even that does not fit
 * (pathological) does it fall back to counts, pointing to the plan artifact.
 */
import type { Plan, PlanEntry } from "../engine/plan.js";
import { codeSpan, keySpan, mdText } from "./markdown-escape.js";
import { groupEntries, groupLabel, kindCount, sortEntries, type Group } from "./markdown-groups.js";
import { destruction, formatSource, type Destruction } from "./style.js";
import { visibleText } from "../visible.js";

/** The phrase every counted (not listed) form carries. */
export const TOO_MANY = "Too many to list here";

/** Data lost first (deletions, then archives), then access removed. */
const RANK: Record<Destruction, number> = { deleted: 0, archived: 1, destructive: 2, removed: 3 };
const rankOf = (e: PlanEntry) => RANK[destruction(e)!];

/** The destructive entries: data loss first, then access removals; by key within each. */
export function destructiveEntries(plan: Plan): PlanEntry[] {
  const all = sortEntries(plan.entries.filter((e) => destruction(e) !== undefined));
  return all.sort((a, b) => rankOf(a) - rankOf(b));
}

const ACCESS = /\/access\/([^/]+)\/(user|team)\/(.+)$/;
const MEMBER = /^team\/(.+)\/member\/([^/]+)$/;

/**
 * What an entry that is drift did live, and what apply will do about it: "granted live to
 * asmith (developers) · apply will remove it".
 */
function driftWords(e: PlanEntry): string {
  const kind = mdText(e.kind);
  const name = (s: string) => mdText(visibleText(s));
  switch (destruction(e)!) {
    case "removed": {
      const a = ACCESS.exec(e.key);
      const m = MEMBER.exec(e.key);
      const who = a
        ? `granted live to ${a[2] === "team" ? "team " : ""}${name(a[3])} (${name(a[1])})`
        : m
          ? `${name(m[2])} added live to team ${name(m[1])}`
          : `${kind} granted live`;
      return `${who} · apply will remove it`;
    }
    case "deleted":
      return `${kind} created live, not in the manifests · apply will delete it`;
    case "archived":
      return `${kind} not archived live · apply will archive it`;
    case "destructive":
      return `${kind} changed live · apply will change it back, which destroys data`;
  }
}

const heading = (n: number) => `#### Destructive changes (${n.toLocaleString("en-US")})`;

/**
 * One line per entry. Drift (all of it with `allDrift`, else what `plan --base` found
 * already present) says what happened live and what apply will do.
 */
function fullForm(plan: Plan, entries: readonly PlanEntry[], allDrift: boolean): string {
  const drift = new Set(plan.drift ?? []);
  const lines = entries.map((e) => {
    const src = formatSource(e.source);
    const live = allDrift || drift.has(e.key);
    const what = live ? driftWords(e) : `${mdText(e.kind)} ${destruction(e)!}`;
    const mark = !allDrift && live ? " · drift already present" : "";
    const layer = src && e.layer ? `, Defaults ${mdText(e.layer)}` : "";
    return `- ${keySpan(e.key)} — ${what}${src ? ` · ${codeSpan(src)}${layer}` : ""}${mark}`;
  });
  return [heading(entries.length), "", ...lines].join("\n");
}

/** Entries of one group by kind and how they go: `Repository deleted` → entries; data loss first. */
function byKindAndWay(entries: readonly PlanEntry[]): Map<string, PlanEntry[]> {
  const out = new Map<string, PlanEntry[]>();
  for (const e of [...entries].sort((a, b) => rankOf(a) - rankOf(b))) {
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
  const lines: [number, string][] = [];
  for (const g of groups) {
    for (const [k, es] of byKindAndWay(g.entries)) {
      const [kind, way] = k.split("\u0000") as [string, string];
      const folder = commonFolder(es.map((e) => e.key));
      const names = es.map((e) => keySpan(e.key.slice(folder.length) || e.key));
      const under = folder ? ` under ${keySpan(folder)}` : "";
      lines.push([
        rankOf(es[0]),
        `- ${groupLabel(g)}: ${counted(way, kind, es.length)}${under} — ${names.join(", ")}`,
      ]);
    }
  }
  // Data loss in every project first, then access removals (a stable sort keeps the groups' order).
  const sorted = lines.sort(([a], [b]) => a - b).map(([, l]) => l);
  return [heading(total), "", ...sorted].join("\n");
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
  allDrift = false,
): string {
  const entries = destructiveEntries(plan);
  if (entries.length === 0) return "";
  const full = fullForm(plan, entries, allDrift);
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
