/**
 * The "layers" block of bench/results.md (bench/layers.ts): one row of figures at one size and
 * the text that shows them against issue 28's targets.
 */
import { SIZES, type Size } from "./generate.js";
import { TARGETS } from "./layers-measure.js";
import type { PlanSample, ScopedPlanResult } from "./layers-plan.js";

/** The scoped plan's figures (bench/layers-plan.ts), medians but for the first plan's counts. */
export interface PlanFigures {
  latency: number;
  concurrency: number;
  scoped: PlanSample;
  full: PlanSample;
  /** What the changed layer selects, old ∪ new selector. */
  selectedObjects: number;
  selectedProjects: number;
  /** Objects the scoped plan planned (`plan.scope`), and the changes it showed. */
  planned: number;
  entries: number;
  /** The fewest calls the scoped plan made on one planned project; its calls on any other. */
  fewestProjectCalls: number;
  outsideCalls: number;
}

/** The block's figures of a scoped-plan run. */
export function planFigures(plan: ScopedPlanResult): PlanFigures {
  return {
    latency: plan.latency,
    concurrency: plan.concurrency,
    scoped: plan.scoped,
    full: plan.full,
    selectedObjects: plan.selectedObjects,
    selectedProjects: plan.selectedProjects,
    planned: plan.scope.length,
    entries: plan.entries,
    fewestProjectCalls: plan.fewestProjectCalls,
    outsideCalls: plan.outsideCalls,
  };
}

/** One row of the block: medians of a run at one size. */
export interface LayersRow {
  size: string;
  runs: number;
  /** Defaults documents of the layered config. */
  layers: number;
  flatMs: number;
  flatCpuMs: number;
  flatRssKB: number;
  layeredMs: number;
  layeredCpuMs: number;
  layeredRssKB: number;
  explainKey: string;
  explainMs: number;
  explainCpuMs: number;
  explainRssKB: number;
  explainValues: number;
  explainLayers: number;
  loadMs: number;
  traceMs: number;
  traceEntries: number;
  plan: PlanFigures;
  when: string;
  machine: string;
  load: string;
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
const n = (x: number) => x.toLocaleString("en-US");
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

function planSection(p: PlanFigures, runs: number): string[] {
  const row = (what: string, x: PlanSample) =>
    `| ${what} | ${n(x.calls)} | ${s(x.wallMs)} | ${s(x.cpuMs)} | ${mb(x.maxRssKB)} |`;
  return [
    "### A pull request that changes one Defaults document",
    "",
    `The layered config committed to a git repository, then one commit that turns LFS off in Defaults lfs-repositories (its selector, \`names: ["p*7"]\`, unchanged: old ∪ new select ${n(p.selectedObjects)} repositories in ${n(p.selectedProjects)} projects); the base commit checked out beside it (BASE) with \`git worktree\`. \`phctl serve --latency ${p.latency}\` in a child process, seeded with the state the config describes; the built CLI with \`--concurrency ${p.concurrency} --format json --detailed-exitcode\`, the two plans alternately, medians of ${runs}; calls are the server's request log of each.`,
    "",
    "| plan | calls | wall | CPU (user + system) | peak RSS |",
    "| --- | ---: | ---: | ---: | ---: |",
    row(`\`phctl plan HEAD --base BASE\`: scoped (exit 2, ${n(p.entries)} changes)`, p.scoped),
    row("`phctl plan BASE`: full, no change (exit 0)", p.full),
    "",
    `The scoped plan planned ${n(p.planned)} projects (${p.planned === p.selectedProjects ? "exactly those" : `**not** the ${n(p.selectedProjects)}`} the layer selects), with at least ${n(p.fewestProjectCalls)} calls on each and ${p.outsideCalls === 0 ? "none" : `**${n(p.outsideCalls)}**`} on any other project: ${pct(p.scoped.calls / p.full.calls)} of the full plan's calls, ${pct(p.scoped.wallMs / p.full.wallMs)} of its wall.`,
  ];
}

/** The block's text. */
export function layersSection(r: LayersRow): string[] {
  const shape = SIZES[r.size as Size];
  const meets = r.explainMs <= TARGETS.explainMs;
  return [
    "## Layered defaults",
    "",
    `bench/layers.ts: the size-${r.size} organization (${n(shape.projects)} projects, ${n(shape.repos)} repositories, ${n(shape.users)} users) written flat and with ${r.layers} Defaults documents covering every project, repository and user, one of them the repositories of a tenth of the projects (bench/layered.ts); the two load to the same desired state. Each figure is a process of its own, median of ${r.runs}. Run ${r.when} on ${r.machine}; load average ${r.load}.`,
    "",
    "| measure | flat | layered | layered / flat | target |",
    "| --- | ---: | ---: | ---: | ---: |",
    `| \`phctl validate\` wall | ${s(r.flatMs)} | ${s(r.layeredMs)} | ${(r.layeredMs / r.flatMs).toFixed(2)}× | ≤ ${TARGETS.time}× |`,
    `| \`phctl validate\` CPU (user + system) | ${s(r.flatCpuMs)} | ${s(r.layeredCpuMs)} | ${(r.layeredCpuMs / r.flatCpuMs).toFixed(2)}× | ≤ ${TARGETS.time}× |`,
    `| \`phctl validate\` peak RSS | ${mb(r.flatRssKB)} | ${mb(r.layeredRssKB)} | ${(r.layeredRssKB / r.flatRssKB).toFixed(2)}× | ≤ ${TARGETS.rss}× |`,
    "",
    "### Explain",
    "",
    `\`phctl explain ${r.explainKey} DIR\` (the built CLI on the layered config; ${r.explainValues} values, ${r.explainLayers} layers select the repository): wall **${s(r.explainMs)}**, CPU ${s(r.explainCpuMs)}, peak RSS ${mb(r.explainRssKB)} — ${meets ? "meets" : "**does not meet**"} the ${s(TARGETS.explainMs)} target (issue 28), at load average ${r.load}. It reads only phctl.yaml, the Defaults documents and the object's own document. For comparison, the library's full load of the config (what \`validate\` does) takes ${s(r.loadMs)} in-process, and \`trace()\` of project p7 then ${r.traceMs.toFixed(1)} ms (${r.traceEntries} traced values).`,
    "",
    ...planSection(r.plan, r.runs),
  ];
}
