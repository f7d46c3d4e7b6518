/**
 * The scoped pull-request plan of bench/layers.ts (issue 28: a plan of a change to one
 * Defaults document reads only the objects it selects). The layered config (bench/layered.ts)
 * is committed to a git repository, then a second commit turns LFS off in `lfs-repositories`
 * (the repositories of a tenth of the projects); the base commit is checked out beside the
 * head (`git worktree`, as the README's CI recipe does). One `phctl serve` in a child process
 * is seeded with the state the config describes. The built CLI runs, alternately, `runs`
 * times each: `phctl plan HEAD --base BASE` (scoped: exit 2, the layer's changes) and a
 * no-change `phctl plan BASE` (full: exit 0). Calls are the server's request log of each.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ApiClient } from "../src/api/client.js";
import type { Plan } from "../src/engine/plan.js";
import { median } from "./report.js";
import { DEFAULTS_FILE, lfsOff, SUBSET_LAYER, type LayeredConfigs } from "./layered.js";
import { writeFiles } from "./layers-measure.js";
import { clearLog, MAIN, readLog, runNode, serve } from "./serve.js";

const TOKEN = "bench-token-layers";

export interface PlanSample {
  calls: number;
  wallMs: number;
  cpuMs: number;
  maxRssKB: number;
}

export interface ScopedPlanResult {
  latency: number;
  concurrency: number;
  runs: number;
  scoped: PlanSample;
  full: PlanSample;
  /** What the changed layer selects, old ∪ new selector, as the scoped plan lists it. */
  selectedObjects: number;
  selectedProjects: number;
  /** The objects the scoped plan planned (`plan.scope`). */
  scope: string[];
  /** Entries of the scoped plan (the layer's changes). */
  entries: number;
  /** Calls of one scoped plan on each project, by slug; and those on projects outside its scope. */
  callsByProject: Record<string, number>;
  outsideCalls: number;
  /** The fewest calls that scoped plan made on one project of its scope. */
  fewestProjectCalls: number;
}

export interface ScopedPlanOptions {
  latency: number;
  concurrency: number;
  runs: number;
  log?: (s: string) => void;
}

/** The project a call is on (`/v1/projects/SLUG…`); undefined: an organization-wide list. */
const projectOf = (url: string) => /^\/v\d+\/projects\/([^/?]+)/.exec(url)?.[1];

const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    "git",
    ["-c", "user.name=bench", "-c", "user.email=bench@example.org", "-c", "commit.gpgsign=false", ...args], // prettier-ignore
    { cwd, stdio: ["ignore", "pipe", "pipe"] },
  );

/**
 * A repository under `root` holding `configs.layered` at HEAD~1 and the change of one layer at
 * HEAD; returns the head (the repository) and the base (a worktree of HEAD~1).
 */
export function layerChangeRepo(root: string, configs: LayeredConfigs) {
  const head = join(root, "config");
  const base = join(root, "base");
  writeFiles(head, configs.layered);
  git(head, "init", "-q");
  git(head, "add", "-A");
  git(head, "commit", "-q", "-m", "layered config");
  const defaults = join(head, DEFAULTS_FILE);
  writeFileSync(defaults, lfsOff(readFileSync(defaults, "utf8")));
  git(head, "commit", "-q", "-am", `Defaults ${SUBSET_LAYER}: LFS off`);
  git(head, "worktree", "add", "-q", "--detach", base, "HEAD~1");
  return { head, base };
}

const mid = (xs: PlanSample[]): PlanSample => ({
  calls: median(xs.map((x) => x.calls)),
  wallMs: median(xs.map((x) => x.wallMs)),
  cpuMs: median(xs.map((x) => x.cpuMs)),
  maxRssKB: median(xs.map((x) => x.maxRssKB)),
});

/** The scoped and the full plan, measured (see the module comment); `root` is a scratch dir. */
export async function scopedPlanBench(
  root: string,
  configs: LayeredConfigs,
  hook: string,
  o: ScopedPlanOptions,
): Promise<ScopedPlanResult> {
  const log = o.log ?? (() => {});
  const { head, base } = layerChangeRepo(root, configs);
  const seedFile = join(root, "seed.json");
  writeFileSync(seedFile, JSON.stringify(configs.seed));
  const { url, child } = await serve({ token: TOKEN, seedFile, latency: o.latency });
  const api = new ApiClient({ apiUrl: url, token: TOKEN, concurrency: 4 });
  const env = { PHCTL_TOKEN: TOKEN, PHCTL_API_URL: url, NO_COLOR: "1" };
  const flags = ["--format", "json", "--detailed-exitcode", "--concurrency", String(o.concurrency)];
  try {
    const plan = async (args: string[], exit: number) => {
      await clearLog(api);
      const r = await runNode([MAIN, "plan", ...args, ...flags], { env, hook, cwd: root });
      if (r.code !== exit)
        throw new Error(`plan ${args.join(" ")} exited ${r.code} (not ${exit}): ${r.stderr.slice(0, 2000)}`); // prettier-ignore
      const calls = await readLog(api);
      const sample = {
        calls: calls.length,
        wallMs: r.wallMs,
        cpuMs: r.cpuMs,
        maxRssKB: r.maxRssKB,
      };
      return { sample, plan: JSON.parse(r.stdout) as Plan, urls: calls.map((c) => c.url) };
    };
    const scoped = () => plan([head, "--base", base], 2);
    const full = () => plan([base], 0);
    // A first run of each warms the server's caches and the OS's; then alternately, so drift
    // in the machine's load falls on both alike.
    const first = await scoped();
    await full();
    const s: PlanSample[] = [];
    const f: PlanSample[] = [];
    for (let i = 0; i < o.runs; i++) {
      s.push((await scoped()).sample);
      f.push((await full()).sample);
      log(
        `run ${i + 1}: scoped plan ${s[i].calls} calls ${s[i].wallMs.toFixed(0)} ms; full plan ${f[i].calls} calls ${f[i].wallMs.toFixed(0)} ms`,
      );
    }
    const layer = first.plan.layers?.find((l) => l.name === SUBSET_LAYER);
    if (!layer) throw new Error(`the scoped plan does not list Defaults ${SUBSET_LAYER}`);
    const scope = first.plan.scope ?? [];
    const inScope = new Set(scope.map((k) => k.replace(/^project\//, "")));
    const callsByProject: Record<string, number> = {};
    let outsideCalls = 0;
    for (const u of first.urls) {
      const p = projectOf(u);
      if (p === undefined) continue;
      callsByProject[p] = (callsByProject[p] ?? 0) + 1;
      if (!inScope.has(p)) outsideCalls++;
    }
    return {
      latency: o.latency,
      concurrency: o.concurrency,
      runs: o.runs,
      scoped: mid(s),
      full: mid(f),
      selectedObjects: layer.objects,
      selectedProjects: layer.projects ?? 0,
      scope,
      entries: first.plan.entries.length,
      callsByProject,
      outsideCalls,
      fewestProjectCalls: Math.min(...[...inScope].map((p) => callsByProject[p] ?? 0)),
    };
  } finally {
    await api.close();
    child.kill();
  }
}
