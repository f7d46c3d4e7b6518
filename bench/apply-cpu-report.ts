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
  "| build | actions | CPU / action | CPU in all | walk CPU / action | before the walk | after the walk | peak RSS | wall | load before → after |",
  "| ----- | ------: | -----------: | ---------: | ----------------: | --------------: | -------------: | -------: | ---: | ------------------- |",
];

export function rowLine(r: CpuRow): string {
  return `| ${r.build} | ${r.actions.toLocaleString("en-US")} | ${per(r.cpuMs, r.actions)} | ${s(r.cpuMs)} | ${per(r.walkMs, r.actions)} | ${s(r.beforeMs)} | ${s(r.afterMs)} | ${Math.round(r.rssMB)} MB | ${s(r.wallMs)} | ${r.load} |`;
}

/** Per build: the best CPU per action and the lowest peak RSS of its runs. */
export function bestLines(rows: readonly CpuRow[]): string[] {
  const builds = [...new Set(rows.map((r) => r.build))];
  return builds.map((b) => {
    const mine = rows.filter((r) => r.build === b);
    const cpu = Math.min(...mine.map((r) => r.cpuMs / r.actions));
    const rss = Math.min(...mine.map((r) => r.rssMB));
    return `${b}: best ${cpu.toFixed(3)} ms CPU per action, peak RSS ${Math.round(rss)} MB (${mine.length} run${mine.length > 1 ? "s" : ""})`;
  });
}

const BEGIN = "<!-- begin apply-cpu -->";
const END = "<!-- end apply-cpu -->";

function section(tables: readonly CpuTable[]): string {
  const out = [
    BEGIN,
    `<!-- data ${JSON.stringify(tables)} -->`,
    "",
    "## Apply CPU and memory",
    "",
    "Apply from empty: `phctl --json apply DIR --auto-approve --concurrency 16` against a fresh `phctl serve --queue-delay 200 --latency L` in its own process (`bench/apply-cpu.ts`). CPU is the phctl process's (user + system, `process.resourceUsage()`), split at `apply-started` and at the last `action-done`: before the walk = start, loading, the plan, the rails; after = the verification (a re-read of everything touched) and exit. Peak RSS = `maxRSS`. Targets at size M: ≤ 0.3 ms CPU per action, ≤ 300 MB peak RSS. Builds of one table ran interleaved in one run of the benchmark; compare them within a table (other work on the machine inflates every build's CPU alike). Builds: `before` = the commit the session started from (fab99e3), `after` = a2ddc6e (it with the apply work below but the last item), `now` = a2ddc6e with the last item (the answers read by a plain handler, the JSON lines written in batches) and nothing else.",
    "",
    "Where the CPU and the memory went (`node --cpu-prof`, heap snapshots, a sampling allocation profile of the apply process at M):",
    "",
    "- The verification re-planned the 18,050 touched keys as `--target`s: each was matched against every declared key (`targetScope`, keys²): 9–11 s of the 15 s. It now plans the touched keys' top-level objects as a scope (the same reads) — 1.0 s.",
    "- The journal dropped a done action's jobs by scanning every job in flight, allocating an entry per job: 1.6 GB of the 2.8 GB allocated. Jobs are indexed by action now; lines whose loss costs nothing (an action done or failed, a job ended) are written in batches every 50 ms instead of one `writeSync` each; a job's id and a welcome mail still go to disk before anything waits.",
    "- Peak RSS followed the actions started and not finished: every ready node started at once (9,000 suspended call chains of ~7 KB at M, promoted to the old generation). The walk now starts ready nodes while fewer than 4 × the concurrency are running (those waiting on a queued job not counted): the slots stay as busy (16 of 16 requests in flight on average either way) — 390 → 220 MB. With fewer requests queued, a queued job's first status poll no longer waited behind thousands of creates: polled at once it found the job open and was sent again, so the first poll now comes after 200 ms (1 status read per job, as before).",
    "- Per request: undici's own timers bound long timeouts (no AbortController and timer per request); latency is measured from send to answer.",
    "- Per answer and per event: undici's `request()` made a Readable stream and an async resource per answer, read back with `body.text()`; a plain `dispatch()` handler now gathers the chunks (exchange.ts: the same headers, text and errors). With `--json`, apply's lines were one redaction and one `write` each; they now go out in batches every 50 ms (before the confirmation and at exit at once). Together, measured in one run: 0.247 → 0.220 ms per action at latency 0, 0.408–0.426 → 0.351–0.352 ms at latency 20.",
    "- Left: at latency 20 the process wakes once per answer (41,000 context switches against 12,000 at latency 0), and each wake costs more (cold caches, one event-loop turn, a read and a write syscall per request: in the profile, the sockets' `writev`/`write` of the requests are over a quarter of the non-idle time, no function of phctl's stands out): 0.3 ms per action is met at latency 0, not yet at 20 (0.35 ms).",
  ];
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
  const body = section(tables);
  const next =
    at >= 0 && end > at
      ? text.slice(0, at) + body + text.slice(end + END.length)
      : `${text.trimEnd()}\n\n${body}\n`;
  writeFileSync(file, next);
}
