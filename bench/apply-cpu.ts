/**
 * Apply from empty, phctl's own cost: CPU per action and peak RSS of the `phctl apply`
 * process (not the server's), by phase. Not part of `npm test`:
 *
 *   npm run build && node -e "import('vite').then((v) => v.runnerImport('./bench/apply-cpu.ts'))" -- --size M
 *   … -- --size M --main before=/tmp/old/dist/cli/main.js --main after=dist/cli/main.js --runs 2
 *   … -- --size M --cpu-prof /tmp/prof     # node --cpu-prof of the apply process, per run
 *
 * Flags: --size S|M|L (M), --latency MS (0), --queue-delay MS (200), --concurrency N (16),
 * --floor (after each build's run, the bare HTTP exchange of as many calls at the same
 * latency and concurrency: undici alone, bench/http-floor-child.js — what phctl adds is
 * the rest),
 * --runs N (1; builds interleaved A B A B so that machine load falls on both alike),
 * --main [LABEL=]FILE (repeatable; default dist/cli/main.js), --server FILE (the build that
 * serves; default the first --main), --cpu-prof DIR, --write (the size and latency's table
 * in the "Apply CPU and memory" section of bench/results.md: apply-cpu-report.ts).
 *
 * Per run: a fresh `phctl serve --latency L --queue-delay Q` in its own process with nothing
 * but the token's organization, then `phctl --json apply DIR --auto-approve --concurrency N`
 * with a preloaded hook that reads `process.cpuUsage()` at `apply-started`, at the last
 * `action-done` and at exit, and `resourceUsage().maxRSS`. CPU per action = process CPU /
 * actions (the issue's figure); the walk's share is printed beside it, and under each row
 * the user and system split, the context switches and the calls the server logged (a line
 * says so when two builds' calls by operation differ). The load average
 * (`uptime`) before and after each run is printed: other work on the machine inflates every
 * build's figures, compare them within one run.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { generate, SIZES, writeOrganization, type Size } from "./generate.js";
import { bestLines, HEADER, rowLine, writeSection, type CpuRow } from "./apply-cpu-report.js";
import { machine } from "./report.js";
import { serve } from "./serve.js";

const TOKEN = "bench-cpu-token-5e1a";
const RESULTS = join(import.meta.dirname, "results.md");

function flags(argv: string[]) {
  const o = {
    size: "M" as Size,
    latency: 0,
    queueDelay: 200,
    concurrency: 16,
    runs: 1,
    mains: [] as { label: string; file: string }[],
    server: undefined as string | undefined,
    cpuProf: undefined as string | undefined,
    write: false,
    floor: false,
  };
  const num = (flag: string, v: string | undefined) => {
    const x = Number(v);
    if (v === undefined || !Number.isFinite(x) || x < 0)
      throw new Error(`${flag} needs a number ≥ 0`);
    return x;
  };
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i];
    if (flag === "--write" || flag === "--floor") {
      o[flag === "--write" ? "write" : "floor"] = true;
      i--;
      continue;
    }
    const v = argv[i + 1];
    if (v === undefined) throw new Error(`${flag} needs a value`);
    switch (flag) {
      case "--size":
        if (!(v in SIZES)) throw new Error(`--size must be S, M or L (got ${v})`);
        o.size = v as Size;
        break;
      case "--latency":
        o.latency = num("--latency", v);
        break;
      case "--queue-delay":
        o.queueDelay = num("--queue-delay", v);
        break;
      case "--concurrency":
        o.concurrency = num("--concurrency", v);
        break;
      case "--runs":
        o.runs = Math.max(1, num("--runs", v));
        break;
      case "--main": {
        const eq = v.indexOf("=");
        const label = eq > 0 ? v.slice(0, eq) : `build${o.mains.length}`;
        o.mains.push({ label, file: resolve(v.slice(eq + 1)) });
        break;
      }
      case "--server":
        o.server = resolve(v);
        break;
      case "--cpu-prof":
        o.cpuProf = resolve(v);
        break;
      default:
        throw new Error(`unknown flag ${flag}`);
    }
  }
  if (o.mains.length === 0)
    o.mains.push({ label: "current", file: join(import.meta.dirname, "../dist/cli/main.js") });
  return o;
}

/** The calls the server logged, in all and by method and operation. */
async function calls(url: string): Promise<{ total: number; by: Map<string, number> }> {
  const res = await fetch(`${url}/_control/requests`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  const { data } = (await res.json()) as { data: { method: string; operation: string | null }[] };
  const by = new Map<string, number>();
  for (const e of data)
    by.set(`${e.method} ${e.operation}`, (by.get(`${e.method} ${e.operation}`) ?? 0) + 1);
  return { total: data.length, by };
}

/** Preloaded into the apply process: CPU at the phase marks, peak RSS at exit. */
const HOOK = `
const { writeFileSync } = require("node:fs");
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const marks = { started: NaN, lastDone: NaN };
let total = Infinity;
let done = 0;
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  // Lines may come one per write or in batches.
  const s = typeof chunk === "string" ? chunk : "";
  const at = s.indexOf('"event":"apply-started"');
  if (at >= 0) {
    marks.started = cpu();
    const end = s.indexOf("\\n", at);
    total = JSON.parse(s.slice(s.lastIndexOf("\\n", at) + 1, end < 0 ? s.length : end)).total;
  }
  const DONE = '"event":"action-done"';
  for (let i = s.indexOf(DONE); i >= 0; i = s.indexOf(DONE, i + 1))
    if (++done === total) marks.lastDone = cpu();
  return write(chunk, ...rest);
};
/** CPU of the threads other than the main one (V8's compiler and GC helpers), ms; Linux. */
const otherThreads = () => {
  try {
    const fs = require("node:fs");
    let ticks = 0;
    for (const t of fs.readdirSync("/proc/self/task")) {
      if (Number(t) === process.pid) continue;
      const stat = fs.readFileSync("/proc/self/task/" + t + "/stat", "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(f[11]) + Number(f[12]); // utime, stime
    }
    return (ticks * 1000) / 100; // USER_HZ
  } catch {
    return undefined;
  }
};
process.on("exit", () => {
  const u = process.resourceUsage();
  const threadsMs = otherThreads();
  writeFileSync(process.env.BENCH_EXIT_FILE, JSON.stringify({
    maxRssKB: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, ...marks,
    userMs: u.userCPUTime / 1000, systemMs: u.systemCPUTime / 1000,
    switches: u.voluntaryContextSwitches, forced: u.involuntaryContextSwitches, threadsMs,
  }));
});
`;

interface Usage {
  maxRssKB: number;
  cpuMs: number;
  /** Process CPU at apply-started and at the last action-done, ms. */
  started: number;
  lastDone: number;
  userMs: number;
  systemMs: number;
  /** Voluntary and involuntary context switches. */
  switches: number;
  forced: number;
  /** CPU of the other threads, ms (undefined where /proc is not there). */
  threadsMs?: number;
}

function run(args: string[], env: Record<string, string>, cwd: string) {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (b: Buffer) => (out += b.toString()));
  child.stderr.on("data", (b: Buffer) => (err += b.toString()));
  return new Promise<{ code: number | null; out: string; err: string; wallMs: number }>((ok) =>
    child.on("close", (code) => ok({ code, out, err, wallMs: performance.now() - started })),
  );
}

/** The bare HTTP exchange of `calls` requests at this run's latency and concurrency: CPU, ms. */
async function floor(main: string, o: { latency: number; concurrency: number }, calls: number) {
  const { url, child } = await serve({ main, token: TOKEN, latency: o.latency });
  try {
    const script = join(import.meta.dirname, "http-floor-child.js");
    const args = [script, url, TOKEN, String(calls), String(o.concurrency)];
    const res = await run(args, {}, import.meta.dirname);
    if (res.code !== 0)
      throw new Error(`http-floor-child exited ${res.code}: ${res.err.slice(0, 2000)}`);
    return (JSON.parse(res.out) as { cpuMs: number }).cpuMs;
  } finally {
    child.kill();
  }
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

async function main() {
  const o = flags(process.argv.slice(1).filter((a) => a !== "--"));
  const org = generate(SIZES[o.size]);
  const work = mkdtempSync(join(tmpdir(), "phctl-apply-cpu-"));
  const { dir } = writeOrganization(org, join(work, "org"));
  const hook = join(work, "hook.cjs");
  writeFileSync(hook, HOOK);
  const server = o.server ?? o.mains[0].file;
  const setup = `Size ${o.size} (${org.resources.toLocaleString("en-US")} resources), latency ${o.latency} ms, queue delay ${o.queueDelay} ms, concurrency ${o.concurrency}`;
  console.log(`# apply from empty: ${setup}; ${machine()}`);
  console.log(HEADER.join("\n"));
  const rows: CpuRow[] = [];
  /** Per build, its calls by method and operation (compared across builds and runs). */
  const callShapes = new Map<string, string>();
  for (let r = 0; r < o.runs; r++) {
    for (const m of o.mains) {
      const { url, child } = await serve({
        main: server,
        token: TOKEN,
        latency: o.latency,
        queueDelay: o.queueDelay,
      });
      const cwd = join(work, `run-${m.label}-${r}`);
      const exitFile = join(work, "exit.json");
      rmSync(exitFile, { force: true });
      mkdirSync(cwd, { recursive: true });
      const loadBefore = load();
      const prof = o.cpuProf
        ? ["--cpu-prof", "--cpu-prof-dir", join(o.cpuProf, `${m.label}-${r}`)]
        : [];
      const args = [...prof, "--require", hook, m.file, "--json", "apply", dir];
      args.push("--auto-approve", "--concurrency", String(o.concurrency));
      const env = { PHCTL_API_URL: url, PHCTL_TOKEN: TOKEN, BENCH_EXIT_FILE: exitFile };
      const res = await run(args, { ...env, NO_COLOR: "1" }, cwd);
      const made = await calls(url).finally(() => child.kill());
      if (res.code !== 0 || !existsSync(exitFile))
        throw new Error(`apply (${m.label}) exited ${res.code}: ${res.err.slice(0, 2000)}`);
      const u = JSON.parse(readFileSync(exitFile, "utf8")) as Usage;
      const startedLine = res.out.split("\n").find((l) => l.includes('"apply-started"'));
      const actions = (JSON.parse(startedLine ?? "{}") as { total?: number }).total ?? NaN;
      const failed = res.out.split("\n").filter((l) => l.includes('"action-failed"')).length;
      if (failed > 0) throw new Error(`apply (${m.label}): ${failed} actions failed`);
      const row: CpuRow = {
        build: m.label,
        actions,
        cpuMs: u.cpuMs,
        beforeMs: u.started,
        walkMs: u.lastDone - u.started,
        afterMs: u.cpuMs - u.lastDone,
        rssMB: u.maxRssKB / 1024,
        wallMs: res.wallMs,
        load: `${loadBefore} → ${load()}`,
        ...(u.threadsMs !== undefined ? { threadsMs: u.threadsMs } : {}),
      };
      if (o.floor) row.floorMs = await floor(server, o, made.total);
      rows.push(row);
      console.log(rowLine(row));
      const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
      console.log(
        `#   ${m.label}: ${made.total.toLocaleString("en-US")} calls; user ${s(u.userMs)}, system ${s(u.systemMs)}, context switches ${u.switches.toLocaleString("en-US")} + ${u.forced.toLocaleString("en-US")} forced`,
      );
      const shape = [...made.by]
        .sort()
        .map(([k, n]) => `${k} ×${n}`)
        .join(", ");
      callShapes.set(m.label, shape);
      if (new Set(callShapes.values()).size > 1)
        console.log(`#   calls by operation differ between builds: ${m.label}: ${shape}`);
    }
  }
  for (const l of bestLines(rows)) console.log(`# ${l}`);
  if (o.write)
    writeSection(RESULTS, {
      key: `${o.size}@${o.latency}`,
      setup,
      machine: machine(),
      when: new Date().toISOString().slice(0, 16) + "Z",
      rows,
    });
  rmSync(work, { recursive: true, force: true });
}

await main();
