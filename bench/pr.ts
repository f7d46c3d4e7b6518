/**
 * The pull-request scenario (`pr`): the organization in sync, a base config (the generated
 * manifests) and a head config changing one project (a field, one repository more), and
 * `phctl plan HEAD --base BASE` — the CLI, scoped to the change — against the same command
 * with `--full`. API calls are the server's request log; wall is the CLI process's. Its
 * results.md section ("Pull-request plan, scoped") keeps one row per size and latency.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ApiClient } from "../src/api/client.js";
import type { Plan } from "../src/engine/plan.js";
import { slugOf, type Organization, type Size } from "./generate.js";
import { fmtS, median } from "./report.js";
import { clearLog, MAIN, readLog, runNode } from "./serve.js";
import type { Children } from "./scenarios.js";

/** The scoped plan must stay within this many calls (the target, at any size). */
export const PR_CALLS_TARGET = 50;

/** One run of one of the two plans. */
export interface PrSample {
  calls: number;
  wallMs: number;
  /** Read + diff of both configs, as the plan's stats say (after the load). */
  planMs: number;
  entries: string[];
  scope?: string[];
}

/** A row of the section: one size and latency. */
export interface PrRow {
  size: Size;
  latency: number;
  resources: number;
  projects: number;
  scoped: { calls: number; wallMs: number; planMs: number };
  full: { calls: number; wallMs: number; planMs: number };
  when: string;
  machine: string;
}

/** Write the head config: the base with project `slug` changed (description, a repository). */
export function writeHead(baseDir: string, headDir: string, slug: string): void {
  cpSync(baseDir, headDir, { recursive: true });
  const file = join(headDir, "projects", `${slug}.yaml`);
  const text = readFileSync(file, "utf8");
  const changed = text
    .replace(/description: .*/, "description: Changed by a pull request")
    .replace("    repositories:\n", "    repositories:\n      - { name: pr-added }\n");
  if (changed === text) throw new Error(`pr: cannot change ${file}`);
  writeFileSync(file, changed);
}

/** The project a pull request changes. */
export const prSlug = (org: Organization) => slugOf(7 % org.shape.projects);

/** `phctl plan HEAD --base BASE [--full] --format json`, the log cleared before. */
export async function prPlan(
  ch: Children,
  api: ApiClient,
  dirs: { head: string; base: string },
  o: { full: boolean; concurrency: number },
): Promise<PrSample> {
  await clearLog(api);
  const args = [MAIN, "plan", dirs.head, "--base", dirs.base, "--format", "json"];
  if (o.full) args.push("--full");
  args.push("--concurrency", String(o.concurrency));
  const r = await runNode(args, {
    env: { PHCTL_TOKEN: ch.token, PHCTL_API_URL: ch.url, NO_COLOR: "1" },
    hook: ch.hook,
    cwd: ch.work,
  });
  if (r.code !== 0) throw new Error(`pr plan failed (${r.code}): ${r.stderr.slice(0, 2000)}`);
  const plan = JSON.parse(r.stdout) as Plan;
  return {
    calls: (await readLog(api)).length,
    wallMs: r.wallMs,
    planMs: plan.stats.durationMs,
    entries: plan.entries.map((e) => `${e.action} ${e.key}`).sort(),
    ...(plan.scope ? { scope: plan.scope } : {}),
  };
}

/** What the scoped plan must hold: the changed project's update and its new repository. */
export function checkScoped(s: PrSample, slug: string): void {
  const want = [`create project/${slug}/repo/pr-added`, `update project/${slug}`];
  if (JSON.stringify(s.entries) !== JSON.stringify(want))
    throw new Error(`pr: the scoped plan holds ${s.entries.join(", ")}; expected ${want}`);
  if (JSON.stringify(s.scope) !== JSON.stringify([`project/${slug}`]))
    throw new Error(`pr: scope ${JSON.stringify(s.scope)}`);
}

export const prSummary = (samples: PrSample[]) => ({
  calls: median(samples.map((s) => s.calls)),
  wallMs: Math.round(median(samples.map((s) => s.wallMs))),
  planMs: Math.round(median(samples.map((s) => s.planMs))),
});

// ---------------------------------------------------------------- results.md section
const BLOCK = /<!-- begin pr -->[\s\S]*?<!-- end pr -->\n?/;
const n = (x: number) => x.toLocaleString("en-US");

/** The rows recorded in a results file. */
export function prRows(text: string): PrRow[] {
  const m = /<!-- pr-data (\[.*?\]) -->/.exec(BLOCK.exec(text)?.[0] ?? "");
  return m ? (JSON.parse(m[1]) as PrRow[]) : [];
}

/** The section, rows merged by size and latency (new ones win), sorted. */
export function prSection(old: PrRow[], fresh: PrRow[]): string {
  const key = (r: PrRow) => `${r.size}@${r.latency}`;
  const rows = new Map(old.map((r) => [key(r), r]));
  for (const r of fresh) rows.set(key(r), r);
  const sorted = [...rows.values()].sort(
    (a, b) => "SML".indexOf(a.size) - "SML".indexOf(b.size) || a.latency - b.latency,
  );
  return [
    "<!-- begin pr -->",
    `<!-- pr-data ${JSON.stringify(sorted)} -->`,
    "## Pull-request plan, scoped",
    "",
    `The organization in sync; a pull request changes one project (a field, one repository more). \`phctl plan HEAD --base BASE --format json\` (the CLI, in its own process) plans what the change touches; the same with \`--full\` plans everything (both configs, one read). Calls: the server's request log; wall: the CLI process (Node's start, both configs loaded, read, diff, JSON written); read+diff: the plan's own \`stats.durationMs\`. Target: ≤ ${PR_CALLS_TARGET} calls and ≤ 2 s wall at L.`,
    "",
    "| size | latency | resources | scoped: calls | scoped: wall | scoped: read+diff | --full: calls | --full: wall | calls × fewer |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...sorted.map(
      (r) =>
        `| ${r.size} (${n(r.projects)} projects) | ${r.latency} ms | ${n(r.resources)} | ${n(r.scoped.calls)} | ${fmtS(r.scoped.wallMs)} | ${fmtS(r.scoped.planMs)} | ${n(r.full.calls)} | ${fmtS(r.full.wallMs)} | ${(r.full.calls / r.scoped.calls).toFixed(0)}× |`,
    ),
    "",
    ...sorted.map((r) => `- ${r.size}@${r.latency}: run ${r.when} on ${r.machine}`),
    "<!-- end pr -->",
    "",
  ].join("\n");
}

/** The sample a log line shows. */
export const showPr = (what: string, s: PrSample) =>
  `${what}: ${s.calls} calls, wall ${fmtS(s.wallMs)} (read+diff ${fmtS(s.planMs)}), ${s.entries.length} entries`;

/** The scenario at one size: head written, `runs` scoped plans and one `--full`. */
export async function prScenario(o: {
  ch: Children;
  api: ApiClient;
  org: Organization;
  size: Size;
  latency: number;
  dir: string;
  runs: number;
  concurrency: number;
  machine: string;
  log: (s: string) => void;
}): Promise<PrRow> {
  const slug = prSlug(o.org);
  const dirs = { head: join(o.ch.work, "pr-head"), base: o.dir };
  writeHead(o.dir, dirs.head, slug);
  const scoped: PrSample[] = [];
  for (let i = 0; i < o.runs; i++) {
    const s = await prPlan(o.ch, o.api, dirs, { full: false, concurrency: o.concurrency });
    checkScoped(s, slug);
    o.log(showPr("pull-request plan, scoped", s));
    scoped.push(s);
  }
  const full = await prPlan(o.ch, o.api, dirs, { full: true, concurrency: o.concurrency });
  o.log(showPr("pull-request plan, --full", full));
  return {
    size: o.size,
    latency: o.latency,
    resources: o.org.resources,
    projects: o.org.shape.projects,
    scoped: prSummary(scoped),
    full: prSummary([full]),
    when: `${new Date().toISOString().slice(0, 16)}Z`,
    machine: o.machine,
  };
}
