/**
 * Reference server fuzz (issue 34, defects 5 and 8; not part of `npm test`, a small smoke of
 * it is test/bench/fuzz-smoke.test.ts): the built `phctl serve` in a child process takes N
 * requests of the fuzz plan (bench/fuzz-requests.ts: id lifecycles, deep JSON, malformed
 * bodies and paths, random operations), then N more. Its memory (VmRSS from
 * /proc/PID/status, and the heap after a full GC) is read at the start, after N and after
 * 2N; every 5xx other than the spec's fork-cleanup 500 is counted, and every id a create
 * answered twice.
 *
 *   npm run build
 *   node -e "import('vite').then((v) => v.runnerImport('./bench/fuzz.ts'))" -- --requests 12000
 *
 * Flags: --requests N (12000), --concurrency N (4), --seed N (1),
 * --configs control,default,file (all: `--control --request-log` in memory, plain
 * `phctl serve` in memory, and `--control --request-log --db FILE`), --main FILE (the
 * build that serves, e.g. an older tree's dist/cli/main.js, for a before/after),
 * --families lifecycle,deep,malformed,random (all; fewer to see which one costs memory). Prints a
 * markdown table; exits 1 when an unexplained 5xx or a reused id was seen.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadAverage } from "./block.js";
import { drive, fuzzPlan, startFuzzServer, type FuzzRun, type Memory } from "./fuzz-load.js";
import { FAMILIES, type Family } from "./fuzz-requests.js";
import { machine } from "./report.js";

const CONFIGS = ["control", "default", "file"] as const;
type Config = (typeof CONFIGS)[number];

function flags(argv: string[]) {
  const o = {
    requests: 12_000,
    concurrency: 4,
    seed: 1,
    configs: [...CONFIGS] as Config[],
    main: undefined as string | undefined,
    families: [...FAMILIES] as Family[],
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, v] = [argv[i], argv[i + 1]];
    const num = () => {
      const x = Number(v);
      if (!Number.isInteger(x) || x < 1) throw new Error(`${flag} needs a whole number ≥ 1`);
      i++;
      return x;
    };
    if (flag === "--requests") o.requests = num();
    else if (flag === "--concurrency") o.concurrency = num();
    else if (flag === "--seed") o.seed = num();
    else if (flag === "--main") {
      if (!v) throw new Error("--main needs the path of a built dist/cli/main.js");
      o.main = v;
      i++;
    } else if (flag === "--families") {
      o.families = (v ?? "").split(",") as Family[];
      if (o.families.some((f) => !FAMILIES.includes(f)))
        throw new Error(`--families takes ${FAMILIES.join(",")}`);
      i++;
    } else if (flag === "--configs") {
      o.configs = (v ?? "").split(",") as Config[];
      if (o.configs.some((c) => !CONFIGS.includes(c)))
        throw new Error(`--configs takes ${CONFIGS.join(",")}`);
      i++;
    } else throw new Error(`unknown flag ${flag}`);
  }
  return o;
}

interface Row {
  config: Config;
  start: Memory;
  afterN: Memory;
  after2N: Memory;
  runs: FuzzRun[];
  objects: number;
  reused: string[];
}

const opts = flags(process.argv.slice(1).filter((a) => a !== "--"));
const loadBefore = loadAverage();
const dir = mkdtempSync(join(tmpdir(), "phctl-fuzz-"));
const rows: Row[] = [];
try {
  for (const config of opts.configs) {
    const server = await startFuzzServer(dir, {
      control: config !== "default",
      ...(config !== "default" ? { requestLog: 10_000 } : {}),
      ...(config === "file" ? { db: join(dir, "fuzz.db") } : {}),
      ...(opts.main ? { main: opts.main } : {}),
    });
    try {
      const weights = { lifecycle: 3, deep: 1, malformed: 2, random: 4 };
      for (const f of FAMILIES) if (!opts.families.includes(f)) weights[f] = 0;
      const { plan, ledger } = fuzzPlan(server, opts.seed, weights);
      const start = await server.memory();
      const first = await drive(server, plan, opts);
      const afterN = await server.memory();
      const second = await drive(server, plan, opts);
      const after2N = await server.memory();
      const row: Row = {
        config,
        start,
        afterN,
        after2N,
        runs: [first, second],
        objects: ledger.objects,
        reused: ledger.reused,
      };
      rows.push(row);
      console.error(JSON.stringify(row));
    } finally {
      await server.stop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const mb = (x: number) => `${x.toFixed(0)} MB`;
const n = opts.requests.toLocaleString("en-US");
const n2 = (opts.requests * 2).toLocaleString("en-US");
const label: Record<Config, string> = {
  control: "`--control --request-log` (10,000), in memory",
  default: "`phctl serve` (in memory)",
  file: "`--control --request-log --db FILE`",
};
const sum = (row: Row, f: (r: FuzzRun) => number) => row.runs.reduce((a, r) => a + f(r), 0);
const deep = (row: Row) =>
  row.runs.reduce((a, r) => a + Object.values(r.statuses.deep).reduce((x, y) => x + y, 0), 0);
const deep400 = (row: Row) => row.runs.reduce((a, r) => a + (r.statuses.deep["400"] ?? 0), 0);
const lines = [
  "## Reference server fuzz",
  "",
  `bench/fuzz.ts${opts.main ? ` (serving: ${opts.main})` : ""}: the built \`phctl serve\` takes ${n} fuzz requests (${opts.families.length === FAMILIES.length ? "id lifecycles in two parent organizations, deep JSON, malformed bodies and paths, random operations" : `families ${opts.families.join(", ")}`}; ${opts.concurrency} keep-alive connections, seed ${opts.seed}), then ${n} more. RSS = VmRSS of the server process; heap = V8 heap in use after a full GC.`,
  "",
  `| server | RSS start | RSS after ${n} | RSS after ${n2} | peak RSS | heap start | heap after ${n2} (held) | req/s | deep JSON sent (400) | unexplained 5xx | no answer | ids created | ids reused |`,
  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ...rows.map(
    (r) =>
      `| ${label[r.config]} | ${mb(r.start.rssMB)} | ${mb(r.afterN.rssMB)} | ${mb(r.after2N.rssMB)} | ${mb(r.after2N.peakMB)} | ${mb(r.start.heapMB)} | ${mb(r.after2N.heapMB)} (${mb(r.after2N.heapTotalMB)}) | ${Math.round((opts.requests * 2) / (sum(r, (x) => x.wallMs) / 1000))} | ${deep(r)} (${deep400(r)}) | ${sum(r, (x) => x.unexpected)} | ${sum(r, (x) => x.noAnswer)} | ${r.objects} | ${r.reused.length} |`,
  ),
  "",
  `- ${new Date().toISOString().slice(0, 16)}Z on ${machine()}; load average ${loadBefore} → ${loadAverage()}`,
];
for (const r of rows) {
  for (const e of r.runs.flatMap((x) => x.unexpectedExamples)) lines.push(`- ${r.config}: ${e}`);
  for (const e of r.runs.flatMap((x) => x.noAnswerExamples))
    lines.push(`- ${r.config}: no answer: ${e}`);
  for (const e of r.reused.slice(0, 10)) lines.push(`- ${r.config}: id reused: ${e}`);
  if (r.reused.length > 10) lines.push(`- ${r.config}: … ${r.reused.length - 10} more ids reused`);
}
console.log(lines.join("\n"));
if (rows.some((r) => sum(r, (x) => x.unexpected) > 0 || r.reused.length > 0)) process.exitCode = 1;
