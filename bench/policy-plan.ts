/**
 * The cost of change rules on a no-change plan (issue 29: at most 10 % at size M), written
 * to the `policy-plan` block of bench/results.md:
 *
 *   npm run build && node -e "import('vite').then((v) => v.runnerImport('./bench/policy-plan.ts'))" -- --size M --runs 5
 *
 * Flags: --size (M), --rules (20), --runs (5; medians), --latency (0 ms: the CPU the rules
 * cost is not hidden behind waits for the network), --concurrency (16).
 */
import { loadAverage, sizeFlags, stampRow, writeBlock, type RunStamp } from "./block.js";
import { SIZES, type Size } from "./generate.js";
import { machine } from "./report.js";
import { policyPlanBench, type PolicyPlanResult } from "./policy-plan-run.js";

const pct = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)} %`;
const ms = (x: number) => `${Math.round(x).toLocaleString("en-US")} ms`;

function row(r: PolicyPlanResult & RunStamp): string {
  return `| ${r.size} | ${r.rules} | ${r.latency} ms | ${ms(r.without.planMs)} | ${ms(r.with.planMs)} | ${pct(r.overheadPlan)} | ${ms(r.without.wallMs)} | ${ms(r.with.wallMs)} | ${pct(r.overheadWall)} | ${ms(r.without.cpuMs)} → ${ms(r.with.cpuMs)} | ${r.when} |`;
}

const o = sizeFlags<{
  size: Size;
  rules: number;
  runs: number;
  latency: number;
  concurrency: number;
}>(
  process.argv.slice(1),
  { size: "M", rules: 20, runs: 5, latency: 0, concurrency: 16 },
  Object.keys(SIZES),
);
const before = loadAverage();
const result = await policyPlanBench({ ...o, log: (s) => console.log(s) });
if (result.without.entries + result.with.entries > 0)
  throw new Error("the no-change plan has entries: the generated seed and manifests differ");
const rows = stampRow("policy-plan", `${o.size}@${o.latency}`, result, before, machine());
const all = Object.values(rows);
writeBlock("policy-plan", rows, [
  "## Change rules on a no-change plan",
  "",
  "`bench/policy-plan.ts`: the same generated manifests planned without and with change rules (`kind: Policy`, `scope: change`, four policies, one per kind) by `bench/plan-child.js` (load, read live, diff, policies) against `phctl serve --latency N` in a child process; alternately, medians. Target (issue 29): at most +10 % at size M.",
  "",
  "| size | rules | latency | read+diff without | with | overhead | process wall without | with | overhead | process CPU | run |",
  "| ---- | ----: | ------: | ----------------: | ---: | -------: | -------------------: | ---: | -------: | ----------- | --- |",
  ...all.map(row),
  "",
  ...all.map(
    (r) => `- ${r.size}@${r.latency} ms: ${r.runs} runs each, load ${r.load}, ${r.machine}.`,
  ),
]);
console.log(row(rows[`${o.size}@${o.latency}`]));
