/**
 * `phctl report access` against a no-change `phctl plan` of the same config (issue 30: calls
 * ≤ 1.2× the plan's + one per organization, wall ≤ 1.5× the plan's, at size M), written to
 * the `report-access` block of bench/results.md:
 *
 *   npm run build && node -e "import('vite').then((v) => v.runnerImport('./bench/report-access.ts'))" -- --size M --runs 3
 *
 * Flags: --size (M), --runs (3; medians), --latency (20 ms, each call's), --concurrency (16).
 */
import { loadAverage, sizeFlags, stampRow, writeBlock, type RunStamp } from "./block.js";
import { SIZES, type Size } from "./generate.js";
import { machine } from "./report.js";
import {
  CALLS_FACTOR,
  reportAccessBench,
  WALL_FACTOR,
  type ReportAccessResult,
} from "./report-access-run.js";

type Row = ReportAccessResult & RunStamp;
const n = (x: number) => Math.round(x).toLocaleString("en-US");
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function row(r: Row): string {
  return `| ${r.size} | ${r.latency} ms | ${n(r.plan.calls)} (min ${n(r.planCallsMin)}) | ${n(r.report.calls)} (${r.callsRatio.toFixed(2)}×; min ${n(r.reportCallsMin)}) | ${n(r.callsBound)} | ${s(r.plan.wallMs)} | ${s(r.report.wallMs)} (${r.wallRatio.toFixed(2)}×) | ${s(r.plan.cpuMs)} → ${s(r.report.cpuMs)} | ${n(r.plan.maxRssKB / 1024)} → ${n(r.report.maxRssKB / 1024)} MB | ${r.within ? "yes" : "NO"} | ${r.when} |`;
}

const o = sizeFlags<{ size: Size; runs: number; latency: number; concurrency: number }>(
  process.argv.slice(1),
  { size: "M", runs: 3, latency: 20, concurrency: 16 },
  Object.keys(SIZES),
);
const before = loadAverage();
const result = await reportAccessBench({ ...o, log: (line) => console.log(line) });
const rows = stampRow("report-access", `${o.size}@${o.latency}`, result, before, machine());
const all = Object.values(rows);
writeBlock("report-access", rows, [
  "## Access review against a no-change plan",
  "",
  `\`bench/report-access.ts\`: the generated organization seeded with synthetic activity (last logins, pipelines) into \`phctl serve --latency N\` in a child process; the built CLI's \`phctl plan DIR --detailed-exitcode\` (in sync: exit 0) and \`phctl report access DIR --format json --out FILE\`, alternately, medians. Calls: the server's request log of each process. Target (issue 30): the report's calls ≤ ${CALLS_FACTOR}× the plan's + one per organization, its wall time ≤ ${WALL_FACTOR}× the plan's.`,
  "",
  "| size | latency | plan calls | report calls | bound | plan wall | report wall | process CPU | peak RSS | within | run |",
  "| ---- | ------: | ---------: | -----------: | ----: | --------: | ----------: | ----------- | -------- | ------ | --- |",
  ...all.map(row),
  "",
  ...all.map(
    (r) =>
      `- ${r.size}@${r.latency} ms: ${r.runs} runs each, --concurrency ${r.concurrency}; ${n(r.rows)} principal × project rows, ${n(r.lastLogins)} users with a last login, ${r.organizations} organization(s); sections ${Object.entries(
        r.sections,
      )
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}; load ${r.load}, ${r.machine}.`,
  ),
]);
console.log(row(rows[`${o.size}@${o.latency}`]));
if (!result.within) process.exitCode = 1;
