/**
 * Reference server soak (not part of `npm test`; a small smoke of it is
 * test/server/contract-soak.test.ts): the built `phctl serve` in a child process takes N
 * requests (default 500,000) of a fixed mix — reads, a bounded write, 400/404/405 answers
 * — over keep-alive connections, once per configuration:
 *
 *   bounded    --control --request-log (the default size, 10,000)
 *   off        neither (the default)
 *   unbounded  --control --request-log N (a log as large as the run: what the server did
 *              before the log was bounded, for comparison)
 *
 * The server's heap (after a full GC) and RSS are sampled at even intervals over IPC;
 * flat memory = the mean of the last 10 % of the samples against the first 10 %.
 *
 *   npm run build
 *   node -e "import('vite').then((v) => v.runnerImport('./bench/soak.ts'))" -- --requests 500000
 *
 * Flags: --requests N (500000), --concurrency N (16), --samples N (100),
 * --configs bounded,off,unbounded (all), --no-write (print only). Results go to the
 * "Reference server soak" block of bench/results.md.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_REQUEST_LOG_SIZE } from "../src/server/request-log.js";
import { loadAverage, writeBlock } from "./block.js";
import { machine } from "./report.js";
import { drive, flatness, readSoakLog, startSoakServer, type Flatness } from "./soak-load.js";

const CONFIGS = ["bounded", "off", "unbounded"] as const;
type Config = (typeof CONFIGS)[number];

function flags(argv: string[]) {
  const o = {
    requests: 500_000,
    concurrency: 16,
    samples: 100,
    configs: [...CONFIGS] as Config[],
    write: true,
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
    else if (flag === "--samples") o.samples = num();
    else if (flag === "--no-write") o.write = false;
    else if (flag === "--configs") {
      o.configs = (v ?? "").split(",") as Config[];
      if (o.configs.some((c) => !CONFIGS.includes(c)))
        throw new Error(`--configs takes ${CONFIGS.join(",")}`);
      i++;
    } else throw new Error(`unknown flag ${flag}`);
  }
  return o;
}

interface Row extends Flatness {
  config: Config;
  logSize: number | null;
  requests: number;
  rps: number;
  logKept: number | null;
  unexpected: number;
}

const opts = flags(process.argv.slice(1).filter((a) => a !== "--"));
const loadBefore = loadAverage();
const dir = mkdtempSync(join(tmpdir(), "phctl-soak-"));
const rows: Row[] = [];
try {
  for (const config of opts.configs) {
    const logSize =
      config === "off" ? null : config === "bounded" ? DEFAULT_REQUEST_LOG_SIZE : opts.requests;
    const server = await startSoakServer(dir, logSize ?? undefined);
    try {
      const r = await drive(server, opts);
      const logKept = logSize === null ? null : (await readSoakLog(server.url)).length;
      const row: Row = {
        config,
        logSize,
        requests: opts.requests,
        rps: Math.round(opts.requests / (r.wallMs / 1000)),
        logKept,
        unexpected: r.unexpected,
        ...flatness(r.samples),
      };
      rows.push(row);
      console.log(JSON.stringify(row));
    } finally {
      await server.stop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const mb = (x: number) => `${x.toFixed(1)} MB`;
const pct = (r: number) => `${r >= 1 ? "+" : ""}${((r - 1) * 100).toFixed(1)} %`;
const when = new Date().toISOString().slice(0, 16) + "Z";
const lines = [
  "## Reference server soak",
  "",
  "bench/soak.ts: the built `phctl serve` in a child process takes a fixed mix of requests (reads, a bounded write, 400/404/405 answers; 16 keep-alive connections); its heap after a full GC and its RSS are sampled 100 times; flat = mean of the last 10 % of the samples against the first 10 %. `unbounded` keeps every request in the log, as the server did before the log was bounded.",
  "",
  "```sh",
  "npm run build",
  `node -e "import('vite').then((v) => v.runnerImport('./bench/soak.ts'))" -- --requests ${opts.requests}`,
  "```",
  "",
  "| server | requests | req/s | log kept | heap first 10 % | heap last 10 % | heap change | RSS first 10 % | RSS last 10 % | RSS change |",
  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ...rows.map(
    (r) =>
      `| ${r.config === "off" ? "control and log off (default)" : `--control --request-log ${r.logSize!.toLocaleString("en-US")}${r.config === "unbounded" ? " (unbounded)" : ""}`} | ${r.requests.toLocaleString("en-US")} | ${r.rps.toLocaleString("en-US")} | ${r.logKept === null ? "—" : r.logKept.toLocaleString("en-US")} | ${mb(r.firstHeapMB)} | ${mb(r.lastHeapMB)} | ${pct(r.heapRatio)} | ${mb(r.firstRssMB)} | ${mb(r.lastRssMB)} | ${pct(r.rssRatio)} |`,
  ),
  "",
  `- ${when} on ${machine()}; load average ${loadBefore} → ${loadAverage()}; answers other than the mix expects: ${rows.map((r) => r.unexpected).reduce((a, b) => a + b, 0)}`,
];
console.log(lines.join("\n"));
if (opts.write) writeBlock("soak", { rows, when }, lines);
