/**
 * Layered defaults at scale (issue 28, "Performance"): the benchmark organization written
 * flat and with 5 Defaults documents covering every project, repository and user
 * (bench/layered.ts), at size L unless told. Measured, each in its own process, median of
 * `--runs`:
 *
 * - `phctl validate DIR` (the built CLI): wall and peak RSS, flat vs layered. Targets:
 *   layered ≤ 1.5× the time and ≤ 1.3× the peak RSS of flat.
 * - explain of one repository: `phctl explain` is not in this build, so the library does what
 *   it will do (bench/layers-child.js): load the config, then `trace()` the project that holds
 *   the repository. Target ≤ 0.5 s; the load and the trace are shown apart.
 * - TODO(issue 28, wt-layers-plan): a scoped PR plan that changes one Defaults document must
 *   read only the objects it selects; measure it here (calls of `plan HEAD --base BASE` when
 *   defaults.yaml's docs-repositories changes) once that plan is merged.
 *
 * Writes the "layers" block of bench/results.md.
 *
 *   npm run build
 *   node -e "import('vite').then((v) => v.runnerImport('./bench/layers.ts'))" -- [--size L] [--runs 3] [--no-write]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadAverage, writeBlock } from "./block.js";
import { SIZES, type Size } from "./generate.js";
import { layeredConfigs } from "./layered.js";
import { machine } from "./report.js";
import { writeExitHook } from "./serve.js";
import {
  explainRun,
  median,
  layersSection,
  TARGETS,
  validateRun,
  writeFiles,
  type ExplainRun,
  type LayersRow,
  type ValidateRun,
} from "./layers-measure.js";

async function main(): Promise<void> {
  const args = parseArgs({
    args: process.argv.slice(1).filter((a) => a !== "--"),
    options: {
      size: { type: "string", default: "L" },
      runs: { type: "string", default: "3" },
      "no-write": { type: "boolean" },
    },
  });
  const size = args.values.size as Size;
  const runs = Number(args.values.runs);
  const shape = SIZES[size];
  const configs = layeredConfigs(shape);
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
    const e: ExplainRun[] = [];
    for (let i = 0; i < runs; i++) {
      f.push(await validateRun(flat, hook, root));
      l.push(await validateRun(layered, hook, root));
      e.push(explainRun(layered, "Project/p7"));
      console.log(
        `run ${i + 1}: flat ${f[i].wallMs.toFixed(0)} ms ${(f[i].maxRssKB / 1024).toFixed(0)} MB; layered ${l[i].wallMs.toFixed(0)} ms ${(l[i].maxRssKB / 1024).toFixed(0)} MB; load+trace ${e[i].loadMs.toFixed(0)}+${e[i].traceMs.toFixed(1)} ms`,
      );
    }
    const row: LayersRow = {
      size,
      runs,
      flatMs: median(f.map((x) => x.wallMs)),
      flatCpuMs: median(f.map((x) => x.cpuMs)),
      flatRssKB: median(f.map((x) => x.maxRssKB)),
      layeredMs: median(l.map((x) => x.wallMs)),
      layeredCpuMs: median(l.map((x) => x.cpuMs)),
      layeredRssKB: median(l.map((x) => x.maxRssKB)),
      loadMs: median(e.map((x) => x.loadMs)),
      traceMs: median(e.map((x) => x.traceMs)),
      traceEntries: e[0].entries,
      when: `${new Date().toISOString().slice(0, 16)}Z`,
      machine: machine(),
      load: `${loadBefore} → ${loadAverage()}`,
    };
    const time = row.layeredMs / row.flatMs;
    const cpu = row.layeredCpuMs / row.flatCpuMs;
    const rss = row.layeredRssKB / row.flatRssKB;
    console.log(
      `validate layered/flat: time ${time.toFixed(2)}×, CPU ${cpu.toFixed(2)}× (target ≤ ${TARGETS.time}), peak RSS ${rss.toFixed(2)}× (target ≤ ${TARGETS.rss})`,
    );
    if (!args.values["no-write"]) writeBlock("layers", { [size]: row }, layersSection(row));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
