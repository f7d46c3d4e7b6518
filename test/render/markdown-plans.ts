/**
 * Plans for the markdown renderer's tests: small builders, and readers that take a
 * rendered comment apart again (the destructive keys it shows, how many entries its
 * details account for, the lines of its code blocks) using `marked` in GFM mode.
 */
import { marked, type Token, type Tokens } from "marked";
import {
  PLAN_FORMAT_VERSION,
  summarize,
  type Plan,
  type PlanEntry,
} from "../../src/engine/plan.js";

export function entry(
  key: string,
  action: PlanEntry["action"],
  over: Partial<PlanEntry> = {},
): PlanEntry {
  return {
    key,
    kind: "Repository",
    action,
    before: action === "create" ? null : { name: "x" },
    after: action === "delete" ? null : { name: "x" },
    changes: [],
    reason: `${action} ${key}`,
    source: { file: "projects/p.yaml", line: 1 },
    dependsOn: [],
    destructive: action === "delete",
    ...over,
  };
}

export function plan(entries: PlanEntry[], over: Partial<Plan> = {}): Plan {
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    createdAt: "2026-11-23T10:02:31.000Z",
    apiUrl: "http://127.0.0.1:8470",
    organization: "acme",
    entries,
    unmanaged: [],
    warnings: [],
    violations: [],
    summary: summarize(entries, 0),
    stats: { objectsRead: 1, apiCalls: 1, durationMs: 1 },
    fingerprints: {},
    phctlVersion: "0.1.0",
    ...over,
  };
}

/** GitHub-flavoured HTML of a comment. */
export function html(md: string): string {
  return marked.parse(md, { gfm: true, async: false });
}

/** The lines of every code block (fenced or indented). */
export function codeBlockLines(md: string): string[] {
  const out: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type === "code") out.push(...(t as Tokens.Code).text.split("\n"));
      const nested = (t as { tokens?: Token[] }).tokens;
      if (nested) walk(nested);
      const items = (t as { items?: { tokens: Token[] }[] }).items;
      if (items) for (const i of items) walk(i.tokens);
    }
  };
  walk(marked.lexer(md, { gfm: true }));
  return out;
}

/** The destructive block: from its heading to the first paragraph that is not its own. */
export function destructiveBlock(md: string): string {
  const start = md.indexOf("#### Destructive changes (");
  if (start < 0) return "";
  const paras = md.slice(start).split("\n\n");
  const own = [paras[0]];
  for (const p of paras.slice(1)) {
    if (p.startsWith("- ") || p.startsWith("Too many to list here")) own.push(p);
    else break;
  }
  return own.join("\n\n");
}

/** Text of a code span as rendered (the delimiters and one padding space removed). */
function spans(s: string): string[] {
  const out: string[] = [];
  const re = /(`+)( ?)([\s\S]*?)\2\1(?!`)/g;
  for (const m of s.matchAll(re)) out.push(m[3]);
  return out;
}

/**
 * The keys the destructive block names: one per line in the full form; `under folder —
 * names` in the compact form. The number shown in the heading, and whether it only counts.
 */
export function destructiveShown(md: string): {
  keys: string[];
  total: number;
  countedOnly: boolean;
} {
  const block = destructiveBlock(md);
  const total = Number(
    /^#### Destructive changes \(([\d,]+)\)/.exec(block)?.[1]?.replace(/,/g, "") ?? 0,
  );
  const keys: string[] = [];
  for (const line of block.split("\n").filter((l) => l.startsWith("- "))) {
    if (line.startsWith("- `")) {
      keys.push(spans(line)[0]); // one entry per line
      continue;
    }
    const names = line.indexOf(" — ");
    if (names < 0) continue; // counts only
    const folder = / under (`+) ?(.*?) ?\1 — /.exec(line)?.[2] ?? "";
    for (const name of spans(line.slice(names + 3))) keys.push(folder + name);
  }
  return { keys, total, countedOnly: block.includes("Too many to list here") };
}

/**
 * How many entries the details account for: entry lines in the diff blocks, "…and N more"
 * of a block shown in part, counts of the groups not shown, "(M entries)" of the tail.
 */
export function detailsAccountFor(md: string): number {
  const start = md.indexOf("\n#### Details");
  if (start < 0) return 0;
  const details = md.slice(start, md.lastIndexOf("\n\n"));
  let n = 0;
  for (const line of codeBlockLines(details)) if (/^[+\- ] [^ ]/.test(line)) n++;
  for (const m of details.matchAll(/^…and ([\d,]+) more/gm)) n += Number(m[1].replace(/,/g, ""));
  let inCode = false;
  for (const line of details.split("\n")) {
    if (/^`{3,}/.test(line)) inCode = !inCode;
    if (inCode) continue;
    if (line.startsWith("- …and ")) {
      n += Number(/\(([\d,]+) entr(?:y|ies)\)/.exec(line)![1].replace(/,/g, ""));
    } else if (line.startsWith("- ") && line.includes(" — ")) {
      const counts = line.slice(line.lastIndexOf(" — ") + 3);
      for (const m of counts.matchAll(
        /([\d,]+) (?:to create|to update|to delete|tickets?|blocked)/g,
      ))
        n += Number(m[1].replace(/,/g, ""));
    }
  }
  return n;
}
