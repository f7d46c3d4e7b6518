/**
 * The measurements of bench/layers.ts, apart so that test/bench/layers-smoke.test.ts runs them
 * at size S, each in a process of its own: `phctl validate` (wall, CPU, peak RSS), `phctl
 * explain` of one repository (the same), and the library's full load + trace of one project
 * (bench/layers-child.js). The scoped plan is bench/layers-plan.ts; the block layers-block.ts.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAIN, runNode } from "./serve.js";

const ROOT = join(import.meta.dirname, "..");

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
  const r = await runNode([MAIN, "validate", dir], { env: {}, hook, cwd });
  if (r.code !== 0) throw new Error(`validate ${dir} failed: ${r.stdout}${r.stderr}`);
  return { wallMs: r.wallMs, cpuMs: r.cpuMs, maxRssKB: r.maxRssKB };
}

/**
 * The object `phctl explain` is measured on, written as the README writes keys: a repository
 * of project p7 in subgroup docs, which 3 layers select (repository-baseline,
 * docs-repositories, lfs-repositories).
 */
export const EXPLAIN_KEY = "project/p7/repo/docs/repo1";

export interface ExplainCliRun extends ValidateRun {
  /** The first line it printed (the key and the object's document). */
  heading: string;
  /** Values it explained (`field = value` lines), and the layers it says select the object. */
  values: number;
  layers: number;
}

/** `phctl explain key dir` in its own process; throws unless it explains `key`. */
export async function explainCliRun(
  dir: string,
  key: string,
  hook: string,
  cwd: string,
): Promise<ExplainCliRun> {
  const r = await runNode([MAIN, "explain", key, dir], { env: { NO_COLOR: "1" }, hook, cwd });
  const heading = r.stdout.split("\n")[0];
  if (r.code !== 0 || !heading.startsWith(`${key} `))
    throw new Error(`explain ${key} ${dir} exited ${r.code}: ${r.stdout.slice(0, 500)}${r.stderr}`);
  const lines = r.stdout.split("\n");
  const values = lines.filter((l) => /^\S.* = /.test(l)).length;
  const selected = lines.slice(lines.indexOf("Selected by:") + 1);
  const layers = lines.includes("Selected by:") ? selected.indexOf("") : 0;
  return { wallMs: r.wallMs, cpuMs: r.cpuMs, maxRssKB: r.maxRssKB, heading, values, layers };
}

export interface LoadTraceRun {
  loadMs: number;
  traceMs: number;
  entries: number;
  maxRssKB: number;
}

/** The library's full load of `dir`, then a trace of `key`, in a child process (bench/layers-child.js). */
export function loadTraceRun(dir: string, key: string): LoadTraceRun {
  const r = spawnSync(
    process.execPath,
    [join(import.meta.dirname, "layers-child.js"), ROOT, dir, key],
    {
      encoding: "utf8",
      maxBuffer: 1 << 20,
    },
  );
  if (r.status !== 0) throw new Error(`load+trace child failed: ${r.stderr}`);
  const out = JSON.parse(r.stdout) as LoadTraceRun & { ok: boolean };
  if (!out.ok) throw new Error(`load+trace child: ${dir} did not load, or ${key} has no layers`);
  return out;
}

/** Issue 28: time, RSS, explain; issue 35: `cpu`, validate layered / flat at size M. */
export const TARGETS = { time: 1.5, rss: 1.3, explainMs: 500, cpu: 1.3 };
