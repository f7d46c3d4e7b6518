/**
 * `phctl report access --propose` at size M (issue 38: no more service calls than the access
 * review, plus the platform's calls per pull request it opens), written to the `propose`
 * block of bench/results.md:
 *
 *   npm run build && node -e "import('vite').then((v) => v.runnerImport('./bench/propose.ts'))" -- --size M
 *
 * Flags: --size (M), --grants (50 live-only grants), --latency (0 ms), --max-requests (10000).
 */
import { loadAverage, sizeFlags, stampRow, writeBlock, type RunStamp } from "./block.js";
import { SIZES, type Size } from "./generate.js";
import { proposeBench, type ProposeResult } from "./propose-run.js";
import { machine } from "./report.js";

type Row = ProposeResult & RunStamp;
const n = (x: number) => Math.round(x).toLocaleString("en-US");
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const perPull = (r: Row) => (r.opened > 0 ? (r.first.writes / r.opened).toFixed(2) : "–");

function row(r: Row): string {
  return `| ${r.size} | ${r.latency} ms | ${n(r.review)} | ${n(r.propose)} | ${n(r.again)} | ${n(r.opened)} | ${n(r.first.reads)} + ${n(r.first.writes)} (${perPull(r)} writes per pull request) | ${n(r.second.reads)} + ${n(r.second.writes)} | ${s(r.wallMs.review)} / ${s(r.wallMs.propose)} / ${s(r.wallMs.again)} | ${r.within ? "yes" : "NO"} | ${r.when} |`;
}

const o = sizeFlags<{ size: Size; grants: number; latency: number; "max-requests": number }>(
  process.argv.slice(1),
  { size: "M", grants: 50, latency: 0, "max-requests": 10_000 },
  Object.keys(SIZES),
);
const before = loadAverage();
const result = await proposeBench({
  size: o.size,
  grants: o.grants,
  latency: o.latency,
  maxRequests: o["max-requests"],
  log: (line) => console.log(line),
});
const rows = stampRow("propose", `${o.size}@${o.latency}`, result, before, machine());
const all = Object.values(rows);
writeBlock("propose", rows, [
  "## Findings as pull requests",
  "",
  "`bench/propose.ts`: the generated organization seeded with synthetic activity (some users inactive with write) into `phctl serve` in a child process, live-only grants added through the API, the fake GitHub in the bench's process holding the config's repository. The built CLI's `phctl report access DIR --format json`, then with `--propose` (it opens the pull requests, `--max-requests` high enough for all), then with `--propose` again. Service calls: the server's request log of each run; platform calls: the fake's (reads + writes). Target (issue 38): the service calls of `--propose` equal the review's, and a second run writes nothing.",
  "",
  "| size | latency | review calls | --propose calls | again | pull requests | platform calls, first | platform calls, again | wall: review / propose / again | within | run |",
  "| ---- | ------: | -----------: | --------------: | ----: | ------------: | --------------------- | --------------------- | ------------------------------ | ------ | --- |",
  ...all.map(row),
  "",
  ...all.map(
    (r) =>
      `- ${r.size}@${r.latency} ms: ${r.grants} live-only grants; first run's platform calls ${Object.entries(
        r.first.byRoute,
      )
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}; again: ${r.againLine}; load ${r.load}, ${r.machine}.`,
  ),
]);
console.log(row(rows[`${o.size}@${o.latency}`]));
if (!result.within) process.exitCode = 1;
