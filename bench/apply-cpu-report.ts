/**
 * The figures of bench/apply-cpu.ts: one markdown row per run, and the "Apply CPU and
 * memory" section of bench/results.md (`--write`): one table per size and latency, the runs
 * of every build compared within one run of the benchmark, with the machine's load. The
 * data of every table is kept in a comment, so that a run at one latency keeps the other's.
 */
import { readFileSync, writeFileSync } from "node:fs";

/** One apply from empty, measured. */
export interface CpuRow {
  build: string;
  actions: number;
  /** CPU (user + system) of the phctl process, ms: in all, before the walk, the walk, after it. */
  cpuMs: number;
  beforeMs: number;
  walkMs: number;
  afterMs: number;
  rssMB: number;
  wallMs: number;
  /** `uptime`'s load averages before → after the run. */
  load: string;
  /** CPU of the process's other threads (V8's compiler and GC helpers), ms: part of cpuMs. */
  threadsMs?: number;
  /** `--floor`: CPU of the bare HTTP exchange of as many calls (undici alone), ms. */
  floorMs?: number;
}

export interface CpuTable {
  /** `M@0`: size and latency. */
  key: string;
  setup: string;
  machine: string;
  when: string;
  rows: CpuRow[];
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const per = (ms: number, n: number) => `${(ms / n).toFixed(3)} ms`;

export const HEADER = [
  "| build | actions | CPU / action | CPU in all | walk CPU / action | before the walk | after the walk | V8 threads | bare HTTP / action | peak RSS | wall | load before → after |",
  "| ----- | ------: | -----------: | ---------: | ----------------: | --------------: | -------------: | ---------: | -----------------: | -------: | ---: | ------------------- |",
];

const opt = (ms: number | undefined, f: (ms: number) => string) => (ms === undefined ? "–" : f(ms));

export function rowLine(r: CpuRow): string {
  return `| ${r.build} | ${r.actions.toLocaleString("en-US")} | ${per(r.cpuMs, r.actions)} | ${s(r.cpuMs)} | ${per(r.walkMs, r.actions)} | ${s(r.beforeMs)} | ${s(r.afterMs)} | ${opt(r.threadsMs, s)} | ${opt(r.floorMs, (ms) => per(ms, r.actions))} | ${Math.round(r.rssMB)} MB | ${s(r.wallMs)} | ${r.load} |`;
}

/** Per build: the best CPU per action and the lowest peak RSS of its runs. */
export function bestLines(rows: readonly CpuRow[]): string[] {
  const builds = [...new Set(rows.map((r) => r.build))];
  return builds.map((b) => {
    const mine = rows.filter((r) => r.build === b);
    const cpu = Math.min(...mine.map((r) => r.cpuMs / r.actions));
    const rss = Math.min(...mine.map((r) => r.rssMB));
    // phctl's own: the run's CPU less the bare exchange of its calls measured right after it.
    const own = mine.flatMap((r) =>
      r.floorMs === undefined ? [] : [(r.cpuMs - r.floorMs) / r.actions],
    );
    const [lo, hi] = [Math.min(...own).toFixed(3), Math.max(...own).toFixed(3)];
    const above =
      own.length > 0
        ? ` (${lo === hi ? lo : `${lo}–${hi}`} ms above the bare HTTP exchange of its calls)`
        : "";
    return `${b}: best ${cpu.toFixed(3)} ms CPU per action${above}, peak RSS ${Math.round(rss)} MB (${mine.length} run${mine.length > 1 ? "s" : ""})`;
  });
}

const BEGIN = "<!-- begin apply-cpu -->";
const END = "<!-- end apply-cpu -->";

/** The section's opening words when the file has none yet; later runs keep the file's. */
const FIRST_PROSE = [
  "## Apply CPU and memory",
  "",
  "Apply from empty: `phctl --json apply DIR --auto-approve --concurrency 16` against a fresh `phctl serve --queue-delay 200 --latency L` in its own process (`bench/apply-cpu.ts`). CPU is the phctl process's (user + system, all threads), split at `apply-started` and at the last `action-done`. Targets at size M: ≤ 0.3 ms CPU per action, ≤ 300 MB peak RSS.",
];

function section(tables: readonly CpuTable[], prose: readonly string[]): string {
  const out = [BEGIN, `<!-- data ${JSON.stringify(tables)} -->`, "", ...prose];
  for (const t of [...tables].sort((a, b) => a.key.localeCompare(b.key))) {
    out.push("", `### ${t.setup}`, "", ...HEADER, ...t.rows.map(rowLine), "");
    for (const l of bestLines(t.rows)) out.push(`- ${l}`);
    out.push(`- Run ${t.when} on ${t.machine}.`);
  }
  out.push(END);
  return out.join("\n");
}

/** Put (or replace) this table in the section of `file`, keeping the other tables. */
export function writeSection(file: string, table: CpuTable): void {
  const text = readFileSync(file, "utf8");
  const at = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  let tables: CpuTable[] = [];
  if (at >= 0 && end > at) {
    const data = /<!-- data (.*) -->/.exec(text.slice(at, end))?.[1];
    if (data) tables = JSON.parse(data) as CpuTable[];
  }
  tables = [...tables.filter((t) => t.key !== table.key), table];
  // The words above the tables are the file's (edited by hand as findings come): kept.
  const old = at >= 0 && end > at ? text.slice(at, end) : "";
  const from = old.indexOf("## Apply CPU and memory");
  const to = old.indexOf("\n### ", from);
  const prose =
    from >= 0
      ? old
          .slice(from, to < 0 ? undefined : to)
          .trimEnd()
          .split("\n")
      : FIRST_PROSE;
  const body = section(tables, prose);
  const next =
    at >= 0 && end > at
      ? text.slice(0, at) + body + text.slice(end + END.length)
      : `${text.trimEnd()}\n\n${body}\n`;
  writeFileSync(file, next);
}
