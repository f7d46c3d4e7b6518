/**
 * `phctl report delivery` against a no-change `phctl plan` of the same config (issue 37,
 * item 10: wall ≤ 1.5× the plan's at size M), side by side on one seeded server: calls (by
 * kind), wall, CPU of phctl and of the server, peak RSS. Prints one row per run; the figures
 * go into bench/results.md by hand.
 *
 *   npm run build && node -e "import('vite').then((v) => v.runnerImport('./bench/report-delivery.ts'))" -- --size M --runs 3
 *
 * Flags: --size (M), --runs (3; medians), --latency (20 ms, each call's), --concurrency (16),
 * --main FILE (another build's dist/cli/main.js, say a copy made before a change).
 */
import { loadAverage, sizeFlags } from "./block.js";
import { SIZES, type Size } from "./generate.js";
import { machine } from "./report.js";
import { reportDeliveryBench, WALL_FACTOR } from "./report-delivery-run.js";

const n = (x: number) => Math.round(x).toLocaleString("en-US");
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const argv = process.argv.slice(1);
const at = argv.indexOf("--main");
const main = at >= 0 ? argv.splice(at, 2)[1] : undefined;
const o = sizeFlags<{ size: Size; runs: number; latency: number; concurrency: number }>(
  argv,
  { size: "M", runs: 3, latency: 20, concurrency: 16 },
  Object.keys(SIZES),
);
const before = loadAverage();
const r = await reportDeliveryBench({
  ...o,
  ...(main ? { main } : {}),
  log: (line) => console.log(line),
});
const after = loadAverage();
console.log(
  "| size | latency | plan calls | report calls | plan wall | report wall | phctl CPU | server CPU | peak RSS | within |",
);
console.log(
  `| ${r.size} | ${r.latency} ms | ${n(r.plan.calls)} | ${n(r.report.calls)} (${r.callsRatio.toFixed(2)}×) | ${s(r.plan.wallMs)} | ${s(r.report.wallMs)} (${r.wallRatio.toFixed(2)}×) | ${s(r.plan.cpuMs)} → ${s(r.report.cpuMs)} | ${s(r.plan.serverCpuMs)} → ${s(r.report.serverCpuMs)} | ${n(r.plan.maxRssKB / 1024)} → ${n(r.report.maxRssKB / 1024)} MB | ${r.within ? "yes" : "NO"} (≤ ${WALL_FACTOR}×) |`,
);
console.log(
  `report calls by kind: ${Object.entries(r.report.byKind)
    .map(([k, v]) => `${k} ${n(v)}`)
    .join(", ")}`,
);
console.log(
  `${r.runs} runs each, --concurrency ${r.concurrency}; ${n(r.projects)} projects with DORA, ${n(r.deployments)} deployments, ${n(r.pipelines)} pipelines; sections ${Object.entries(
    r.sections,
  )
    .map(([k, v]) => `${k} ${v}`)
    .join(", ")}; load ${before} → ${after}, ${machine()}.`,
);
if (!r.within) process.exitCode = 1;
