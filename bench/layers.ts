/**
 * Layered defaults at scale (issue 28, "Performance"): the benchmark organization written
 * flat and with 6 Defaults documents (bench/layered.ts), at size L unless told. Measured, each
 * in its own process, median of `--runs`:
 *
 * - `phctl validate DIR` (the built CLI): wall, CPU and peak RSS, flat vs layered. Targets:
 *   layered ≤ 1.5× the time and ≤ 1.3× the peak RSS of flat.
 * - `phctl explain project/p7/repo/docs/repo1 DIR` (the built CLI): wall, CPU, peak RSS.
 *   Target ≤ 0.5 s. Beside it, the library's full load of the config and a `trace()` of
 *   project p7 (bench/layers-child.js): what a command that loads everything first would pay.
 * - A pull request that changes one Defaults document, lfs-repositories (the repositories of
 *   a tenth of the projects), in a git repository, against `phctl serve` seeded with the
 *   config's state (bench/layers-plan.ts): the calls and wall of `phctl plan HEAD --base BASE`
 *   (it must read only the projects the layer selects) beside a full no-change `phctl plan`.
 *
 * Writes the "layers" block of bench/results.md (bench/layers-block.ts) unless --no-write.
 * `--validate-only` measures only `validate`, flat vs layered, and prints its CPU ratio (the
 * least of the runs each) against issue 35's target, ≤ 1.3× at size M.
 *
 *   npm run build
 *   node -e "import('vite').then((v) => v.runnerImport('./bench/layers.ts'))" -- [--size L] [--runs 3] [--latency 20] [--concurrency 16] [--no-write] [--validate-only]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadAverage, writeBlock } from "./block.js";
import { SIZES, type Size } from "./generate.js";
import { layeredConfigs, LAYERS } from "./layered.js";
import { layersSection, planFigures, type LayersRow } from "./layers-block.js";
import {
  EXPLAIN_KEY,
  explainCliRun,
  loadTraceRun,
  TARGETS,
  validateRun,
  writeFiles,
  type ExplainCliRun,
  type LoadTraceRun,
  type ValidateRun,
} from "./layers-measure.js";
import { scopedPlanBench } from "./layers-plan.js";
import { machine, median } from "./report.js";
import { writeExitHook } from "./serve.js";

async function main(): Promise<void> {
  const args = parseArgs({
    args: process.argv.slice(1).filter((a) => a !== "--"),
    options: {
      size: { type: "string", default: "L" },
      runs: { type: "string", default: "3" },
      latency: { type: "string", default: "20" },
      concurrency: { type: "string", default: "16" },
      "no-write": { type: "boolean" },
      /** Only `validate` flat vs layered, CPU against issue 35's target; writes nothing. */
      "validate-only": { type: "boolean" },
    },
  });
  const size = args.values.size.toUpperCase() as Size;
  if (!(size in SIZES)) throw new Error(`--size must be ${Object.keys(SIZES).join(", ")}`);
  const runs = Number(args.values.runs);
  const configs = layeredConfigs(SIZES[size]);
  const root = mkdtempSync(join(tmpdir(), "phctl-bench-layers-"));
  try {
    const hook = writeExitHook(root);
    const flat = join(root, "flat");
    const layered = join(root, "layered");
    writeFiles(flat, configs.flat);
    writeFiles(layered, configs.layered);
    const loadBefore = loadAverage();
    const f: ValidateRun[] = [];
    const l: ValidateRun[] = [];
    const x: ExplainCliRun[] = [];
    const e: LoadTraceRun[] = [];
    for (let i = 0; i < runs; i++) {
      f.push(await validateRun(flat, hook, root));
      l.push(await validateRun(layered, hook, root));
      if (args.values["validate-only"]) {
        console.log(
          `run ${i + 1}: validate CPU flat ${f[i].cpuMs.toFixed(0)} ms, layered ${l[i].cpuMs.toFixed(0)} ms`,
        );
        continue;
      }
      x.push(await explainCliRun(layered, EXPLAIN_KEY, hook, root));
      e.push(loadTraceRun(layered, "Project/p7"));
      console.log(
        `run ${i + 1}: validate flat ${f[i].wallMs.toFixed(0)} ms ${(f[i].maxRssKB / 1024).toFixed(0)} MB; layered ${l[i].wallMs.toFixed(0)} ms ${(l[i].maxRssKB / 1024).toFixed(0)} MB; explain ${x[i].wallMs.toFixed(0)} ms; library load+trace ${e[i].loadMs.toFixed(0)}+${e[i].traceMs.toFixed(1)} ms`,
      );
    }
    if (args.values["validate-only"]) {
      const cpu = Math.min(...l.map((v) => v.cpuMs)) / Math.min(...f.map((v) => v.cpuMs));
      console.log(
        `validate layered/flat at ${size}: CPU ${cpu.toFixed(2)}× (the least of ${runs} runs each; target ≤ ${TARGETS.cpu}×: ${cpu <= TARGETS.cpu ? "met" : "NOT met"}), load average ${loadBefore} → ${loadAverage()}`,
      );
      return;
    }
    const plan = await scopedPlanBench(root, configs, hook, {
      runs,
      latency: Number(args.values.latency),
      concurrency: Number(args.values.concurrency),
      log: (line) => console.log(line),
    });
    const row: LayersRow = {
      size,
      runs,
      layers: LAYERS.split(/^kind: Defaults$/m).length - 1,
      flatMs: median(f.map((v) => v.wallMs)),
      flatCpuMs: median(f.map((v) => v.cpuMs)),
      flatRssKB: median(f.map((v) => v.maxRssKB)),
      layeredMs: median(l.map((v) => v.wallMs)),
      layeredCpuMs: median(l.map((v) => v.cpuMs)),
      layeredRssKB: median(l.map((v) => v.maxRssKB)),
      explainKey: EXPLAIN_KEY,
      explainMs: median(x.map((v) => v.wallMs)),
      explainCpuMs: median(x.map((v) => v.cpuMs)),
      explainRssKB: median(x.map((v) => v.maxRssKB)),
      explainValues: x[0].values,
      explainLayers: x[0].layers,
      loadMs: median(e.map((v) => v.loadMs)),
      traceMs: median(e.map((v) => v.traceMs)),
      traceEntries: e[0].entries,
      plan: planFigures(plan),
      when: `${new Date().toISOString().slice(0, 16)}Z`,
      machine: machine(),
      load: `${loadBefore} → ${loadAverage()}`,
    };
    const ratio = (a: number, b: number) => (a / b).toFixed(2);
    console.log(
      `validate layered/flat: time ${ratio(row.layeredMs, row.flatMs)}×, CPU ${ratio(row.layeredCpuMs, row.flatCpuMs)}× (target ≤ ${TARGETS.time}), peak RSS ${ratio(row.layeredRssKB, row.flatRssKB)}× (target ≤ ${TARGETS.rss})`,
    );
    console.log(
      `explain ${EXPLAIN_KEY}: ${row.explainMs.toFixed(0)} ms (target ≤ ${TARGETS.explainMs} ms: ${row.explainMs <= TARGETS.explainMs ? "met" : "NOT met"})`,
    );
    console.log(
      `plan: scoped ${plan.scoped.calls} calls (${plan.scope.length} projects planned, ${plan.selectedProjects} selected, ${plan.outsideCalls} calls outside), full ${plan.full.calls} calls`,
    );
    if (args.values["no-write"]) console.log(layersSection(row).join("\n"));
    else writeBlock("layers", { [size]: row }, layersSection(row));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
