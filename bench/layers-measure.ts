/**
 * The measurements of bench/layers.ts, apart so that test/bench/layers-smoke.test.ts runs them
 * at size S: `phctl validate` in its own process (wall, peak RSS) and a load + trace of one
 * object in its own process (bench/layers-child.js), and the results.md block.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SIZES, type Size } from "./generate.js";
import { runNode } from "./serve.js";

const ROOT = join(import.meta.dirname, "..");
const CLI = join(ROOT, "dist/cli/main.js");

/** Write `files` under `dir`. */
export function writeFiles(dir: string, files: readonly { file: string; content: string }[]) {
  for (const f of files) {
    const path = join(dir, f.file);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, f.content);
  }
}

export interface ValidateRun {
  wallMs: number;
  /** CPU of the process (user + system): steadier than the wall on a busy machine. */
  cpuMs: number;
  maxRssKB: number;
}

/** `phctl validate dir` in its own process: wall and peak RSS; throws unless it passes. */
export async function validateRun(dir: string, hook: string, cwd: string): Promise<ValidateRun> {
  const r = await runNode([CLI, "validate", dir], { env: {}, hook, cwd });
  if (r.code !== 0) throw new Error(`validate ${dir} failed: ${r.stdout}${r.stderr}`);
  return { wallMs: r.wallMs, cpuMs: r.cpuMs, maxRssKB: r.maxRssKB };
}

export interface ExplainRun {
  loadMs: number;
  traceMs: number;
  entries: number;
  maxRssKB: number;
}

/** Load `dir` and trace `key` in a child process (bench/layers-child.js). */
export function explainRun(dir: string, key: string): ExplainRun {
  const r = spawnSync(
    process.execPath,
    [join(import.meta.dirname, "layers-child.js"), ROOT, dir, key],
    {
      encoding: "utf8",
      maxBuffer: 1 << 20,
    },
  );
  if (r.status !== 0) throw new Error(`explain child failed: ${r.stderr}`);
  const out = JSON.parse(r.stdout) as ExplainRun & { ok: boolean };
  if (!out.ok) throw new Error(`explain child: ${dir} did not load, or ${key} has no layers`);
  return out;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export const TARGETS = { time: 1.5, rss: 1.3, explainMs: 500 };

/** One row of the block: medians of a run at one size. */
export interface LayersRow {
  size: string;
  runs: number;
  flatMs: number;
  flatCpuMs: number;
  flatRssKB: number;
  layeredMs: number;
  layeredCpuMs: number;
  layeredRssKB: number;
  loadMs: number;
  traceMs: number;
  traceEntries: number;
  when: string;
  machine: string;
  load: string;
}

/** The block's text. */
export function layersSection(r: LayersRow): string[] {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
  const shape = SIZES[r.size as Size];
  const n = (x: number) => x.toLocaleString("en-US");
  return [
    "## Layered defaults",
    "",
    `bench/layers.ts: the size-${r.size} organization (${n(shape.projects)} projects, ${n(shape.repos)} repositories, ${n(shape.users)} users) written flat and with 5 Defaults documents covering every project, repository and user (bench/layered.ts); the two load to the same desired state. Each figure is a process of its own, median of ${r.runs}. Run ${r.when} on ${r.machine}; load average ${r.load}.`,
    "",
    "| measure | flat | layered | layered / flat | target |",
    "| --- | ---: | ---: | ---: | ---: |",
    `| \`phctl validate\` wall | ${s(r.flatMs)} | ${s(r.layeredMs)} | ${(r.layeredMs / r.flatMs).toFixed(2)}× | ≤ ${TARGETS.time}× |`,
    `| \`phctl validate\` CPU (user + system) | ${s(r.flatCpuMs)} | ${s(r.layeredCpuMs)} | ${(r.layeredCpuMs / r.flatCpuMs).toFixed(2)}× | ≤ ${TARGETS.time}× |`,
    `| \`phctl validate\` peak RSS | ${mb(r.flatRssKB)} | ${mb(r.layeredRssKB)} | ${(r.layeredRssKB / r.flatRssKB).toFixed(2)}× | ≤ ${TARGETS.rss}× |`,
    "",
    `Explain of one repository (project p7's, ${r.traceEntries} traced values): \`phctl explain\` was not in this build, so the library did what it will do — load the config (${s(r.loadMs)}), then \`trace()\` the object (${r.traceMs.toFixed(1)} ms). The trace meets the 0.5 s target; load + trace (${s(r.loadMs + r.traceMs)}) ${r.loadMs + r.traceMs <= TARGETS.explainMs ? "meets it too" : "does not: a command that loads the whole config first cannot, at this size"}.`,
    "",
    "TODO (wt-layers-plan): a scoped PR plan that changes one Defaults document reads only the objects it selects — to be measured here once the scoped plan of Defaults is merged.",
  ];
}
