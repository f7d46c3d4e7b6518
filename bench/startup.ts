/**
 * Startup benchmark (not part of `npm test`): how long a phctl command takes from process
 * start to exit, against a bare `node -e 0` in the same run (ratios, so a busy machine
 * shifts both). Commands: `--version`, `--help`, `validate examples`, and `plan examples` on
 * the embedded server (a temp copy of the examples; `.phctl` removed before every run, so
 * each plan creates its SQLite database). Rounds are interleaved (one run of each command
 * per round) and the table shows medians of the wall time and, beside it, of the process's
 * CPU time (user + system, from a preloaded exit hook: steadier than the wall on a busy
 * machine). Writes the "Startup" block of bench/results.md, one row per label (`--label
 * before` with `--main` pointing at an older build).
 *
 *   npm run build
 *   node -e "import('vite').then((v) => v.runnerImport('./bench/startup.ts'))" -- [--runs 15] [--label after] [--main dist/cli/main.cjs]
 */
import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadAverage, readRows, writeBlock } from "./block.js";
import { machine, median } from "./report.js";

const ROOT = join(import.meta.dirname, "..");
const args = parseArgs({
  args: process.argv.slice(1).filter((a) => a !== "--"),
  options: {
    runs: { type: "string", default: "15" },
    label: { type: "string", default: "after" },
    // package.json's bin (dist/cli/main.cjs), what `phctl` runs.
    main: {
      type: "string",
      default: join(
        ROOT,
        (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { bin: { phctl: string } })
          .bin.phctl,
      ),
    },
    "no-write": { type: "boolean" },
  },
});
const RUNS = Number(args.values.runs);
const MAIN = resolve(args.values.main);

interface Command {
  name: string;
  args: string[];
  /** Run before each timed run (not timed). */
  before?: () => void;
  /** What a good run prints (a check that the command did its work). */
  expect: RegExp;
}

const work = mkdtempSync(join(tmpdir(), "phctl-bench-startup-"));
const config = join(work, "examples");
mkdirSync(config);
for (const f of readdirSync(join(ROOT, "examples")))
  if (f.endsWith(".yaml") || f === "projects" || f === "users")
    cpSync(join(ROOT, "examples", f), join(config, f), { recursive: true });

const hook = join(work, "cpu-hook.cjs");
writeFileSync(
  hook,
  `process.on("exit", () => { const u = process.resourceUsage(); require("node:fs").writeFileSync(${JSON.stringify(join(work, "cpu"))}, String((u.userCPUTime + u.systemCPUTime) / 1000)); });\n`,
);

const COMMANDS: Command[] = [
  { name: "node -e 0", args: ["-e", "0"], expect: /^$/ },
  { name: "phctl --version", args: [MAIN, "--version"], expect: /^\d+\.\d+\.\d+/ },
  { name: "phctl --help", args: [MAIN, "--help"], expect: /Usage: phctl/ },
  {
    name: "phctl validate examples",
    args: [MAIN, "validate", "examples"],
    expect: /0 errors, 0 warnings/,
  },
  {
    name: "phctl plan examples (embedded server)",
    args: [MAIN, "plan", "examples"],
    // Beside phctl.yaml; an older build (--main) keeps it in the working directory.
    before: () => {
      for (const d of [".phctl", "examples/.phctl"])
        rmSync(join(work, d), { recursive: true, force: true });
    },
    expect: /to create/,
  },
];

const env: Record<string, string> = { NO_COLOR: "1" };
for (const k of ["PATH", "HOME"]) if (process.env[k]) env[k] = process.env[k]!;

/** One run: wall and CPU time, ms. */
function once(c: Command): [number, number] {
  c.before?.();
  const t = performance.now();
  const r = spawnSync(process.execPath, ["--require", hook, ...c.args], {
    cwd: work,
    env,
    encoding: "utf8",
  });
  const ms = performance.now() - t;
  if (r.status !== 0 || !c.expect.test(r.stdout))
    throw new Error(`${c.name}: exit ${r.status}\n${r.stdout}\n${r.stderr}`);
  return [ms, Number(readFileSync(join(work, "cpu"), "utf8"))];
}

const loadBefore = loadAverage();
const times = new Map<string, number[]>(COMMANDS.map((c) => [c.name, []]));
const cpus = new Map<string, number[]>(COMMANDS.map((c) => [c.name, []]));
try {
  for (const c of COMMANDS) once(c); // warm the file cache
  for (let r = 0; r < RUNS; r++)
    for (const c of COMMANDS) {
      const [wall, cpu] = once(c);
      times.get(c.name)!.push(wall);
      cpus.get(c.name)!.push(cpu);
    }
} finally {
  rmSync(work, { recursive: true, force: true });
}
const loadAfter = loadAverage();

interface RowData {
  medians: Record<string, number>;
  cpu?: Record<string, number>;
  runs: number;
  when: string;
  load: string;
  machine: string;
}

const medians = Object.fromEntries([...times].map(([k, v]) => [k, median(v)]));
const cpu = Object.fromEntries([...cpus].map(([k, v]) => [k, median(v)]));
const base = medians["node -e 0"];
for (const [k, v] of Object.entries(medians))
  console.log(
    `${k.padEnd(40)} ${(v / 1000).toFixed(3)} s  ${(v / base).toFixed(2)}×   CPU ${(cpu[k] / 1000).toFixed(3)} s  ${(cpu[k] / cpu["node -e 0"]).toFixed(2)}×`,
  );
// Issue 35: `validate examples` at most 2× a bare `node -e 0` (the examples hold layers and
// policies).
const VALIDATE_TARGET = 2;
for (const [what, r] of [
  ["wall", medians["phctl validate examples"] / base],
  ["CPU", cpu["phctl validate examples"] / cpu["node -e 0"]],
] as const)
  console.log(
    `validate examples / node -e 0, ${what}: ${r.toFixed(2)}× (target ≤ ${VALIDATE_TARGET}×: ${r <= VALIDATE_TARGET ? "met" : "NOT met"})`,
  );

if (!args.values["no-write"]) {
  const rows = readRows<RowData>("startup");
  rows[args.values.label] = {
    medians,
    cpu,
    runs: RUNS,
    when: `${new Date().toISOString().slice(0, 16)}Z`,
    load: `${loadBefore} → ${loadAfter}`,
    machine: machine(),
  };
  const names = COMMANDS.map((c) => c.name);
  const lines = [
    "## Startup",
    "",
    "bench/startup.ts: each command from process start to exit, median of the runs (rounds interleaved), and its ratio to a bare `node -e 0` measured in the same run; below it the median CPU time (user + system) and its ratio, steadier on a busy machine. `plan examples` runs on the embedded server from a temp copy of the examples, `.phctl` removed before every run. Targets: `--version` ≤ 2×, `validate examples` ≤ 2× (issue 35; ≤ 3× before), `plan examples` ≤ 0.6 s. Builds: `before` = fab99e3 (the issue's start), `64ba3cb, no code cache` = the end of session 7 (one bundle per command), `after` = the current build: each bundle loads through the V8 code cache `npm run build` makes (src/cli/bundle-load.ts; trained on `validate` and `plan` of these examples and each command's `--help` — a plan of another configuration, the size-S organization of bench/generate.ts on the embedded server, went 0.49–0.52 → 0.37–0.39 s in five runs each).",
    "",
    `| build | ${names.join(" | ")} |`,
    `|---|${names.map(() => "---:").join("|")}|`,
  ];
  for (const [label, row] of Object.entries(rows)) {
    const b = row.medians["node -e 0"];
    const cell = (k: string) =>
      k === "node -e 0"
        ? `${(b / 1000).toFixed(3)} s`
        : `${(row.medians[k] / 1000).toFixed(3)} s (${(row.medians[k] / b).toFixed(2)}×)`;
    lines.push(`| ${label} | ${names.map(cell).join(" | ")} |`);
    const c = row.cpu;
    if (c)
      lines.push(
        `| ${label}, CPU | ${names.map((k) => (k === "node -e 0" ? `${(c[k] / 1000).toFixed(3)} s` : `${(c[k] / 1000).toFixed(3)} s (${(c[k] / c["node -e 0"]).toFixed(2)}×)`)).join(" | ")} |`,
      );
  }
  lines.push("");
  for (const [label, row] of Object.entries(rows))
    lines.push(
      `- ${label}: ${row.runs} runs each, ${row.when} on ${row.machine}; load average ${row.load}`,
    );
  writeBlock("startup", rows, lines);
}
