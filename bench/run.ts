/**
 * Plan/apply benchmark (not part of `npm test`; see bench/README.md):
 *
 *   npm run bench                      # sizes S and M, latency 20 ms
 *   npm run bench -- --size M          # one size (S, M or L; repeatable)
 *   npm run bench -- --size L --runs 1 --scenarios nochange
 *
 * Flags: --size, --latency (20), --concurrency (16), --runs (3, median),
 * --scenarios (nochange,drift,baseline).
 *
 * The reference server runs in a child process (`phctl serve --seed FILE --latency N`), so
 * its CPU is not in the measured process; so does phctl: a plan is `bench/plan-child.js`
 * (load + read live + diff, the built engine), an apply is the CLI `phctl apply
 * --auto-approve`. API calls are counted by the server (GET /_control/requests). The
 * per-resource baseline (one GET per managed object, concurrency 10) runs here, against
 * the same server. Results go to bench/results.md (one section per size, others kept).
 */
import { execFileSync, spawn } from "node:child_process";
import { MAIN, readLog, serve } from "./serve.js";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { ApiClient } from "../src/api/client.js";
import {
  generate,
  ORG,
  SIZES,
  slugOf,
  writeOrganization,
  type Organization,
  type Size,
} from "./generate.js";

const ROOT = join(import.meta.dirname, "..");
const PLAN_CHILD = join(import.meta.dirname, "plan-child.js");
const RESULTS = join(import.meta.dirname, "results.md");
const TOKEN = "bench-token-7c2d";
const BASELINE_CONCURRENCY = 10;

// ---------------------------------------------------------------- flags
function flags(argv: string[]) {
  const o = {
    sizes: [] as Size[],
    latency: 20,
    concurrency: 16,
    runs: 3,
    scenarios: ["nochange", "drift", "baseline"],
  };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i + 1];
    switch (argv[i]) {
      case "--size":
        for (const s of v.toUpperCase().split(",")) {
          if (!(s in SIZES)) throw new Error(`--size must be S, M or L (got ${s})`);
          o.sizes.push(s as Size);
        }
        i++;
        break;
      case "--latency":
        o.latency = Number(v);
        i++;
        break;
      case "--concurrency":
        o.concurrency = Number(v);
        i++;
        break;
      case "--runs":
        o.runs = Number(v);
        i++;
        break;
      case "--scenarios":
        o.scenarios = v.split(",");
        i++;
        break;
      default:
        throw new Error(`unknown flag ${argv[i]}`);
    }
  }
  if (o.sizes.length === 0) o.sizes = ["S", "M"];
  return o;
}
const opts = flags(process.argv.slice(1).filter((a) => a !== "--"));

// ---------------------------------------------------------------- processes
interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
  wallMs: number;
  maxRssKB: number;
}

/** Run a node script to completion; its peak RSS comes from a preloaded exit hook. */
function runNode(args: string[], env: Record<string, string>, hookDir: string): Promise<Exit> {
  const rssFile = join(hookDir, `rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const started = performance.now();
  const child = spawn(process.execPath, ["--require", join(hookDir, "rss.cjs"), ...args], {
    env: { ...process.env, ...env, BENCH_RSS_FILE: rssFile },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => {
      const wallMs = performance.now() - started;
      const maxRssKB = existsSync(rssFile) ? Number(readFileSync(rssFile, "utf8")) : NaN;
      rmSync(rssFile, { force: true });
      resolve({ code, stdout, stderr, wallMs, maxRssKB });
    });
  });
}

// ---------------------------------------------------------------- helpers
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor((s.length - 1) / 2)];
};

async function clearLog(api: ApiClient) {
  await api.raw("DELETE", "/_control/requests");
}

interface Sample {
  wallMs: number;
  /** Read + diff (plan) as timed inside the phctl process; apply: = wallMs. */
  phaseMs: number;
  calls: number;
  maxRssKB: number;
  cpuMs?: number;
  loadMs?: number;
  entries?: number;
}

interface Row {
  scenario: string;
  samples: Sample[];
  callsMin: number;
  depth: number;
  concurrency: number;
}

// ---------------------------------------------------------------- scenarios
async function planOnce(dir: string, url: string, api: ApiClient, hookDir: string) {
  await clearLog(api);
  const r = await runNode(
    [PLAN_CHILD, dir, url, String(opts.concurrency)],
    { PHCTL_TOKEN: TOKEN },
    hookDir,
  );
  if (r.code !== 0) throw new Error(`plan failed (${r.code}): ${r.stderr}`);
  const out = JSON.parse(r.stdout.trim().split("\n").pop()!) as {
    loadMs: number;
    planMs: number;
    entries: number;
    cpuMs: number;
    maxRssKB: number;
  };
  const calls = (await readLog(api)).length;
  return {
    wallMs: r.wallMs,
    phaseMs: out.planMs,
    calls,
    maxRssKB: out.maxRssKB,
    cpuMs: out.cpuMs,
    loadMs: out.loadMs,
    entries: out.entries,
  } satisfies Sample;
}

async function applyOnce(dir: string, url: string, api: ApiClient, hookDir: string) {
  await clearLog(api);
  const r = await runNode(
    [MAIN, "apply", dir, "--auto-approve", "--concurrency", String(opts.concurrency)],
    { PHCTL_TOKEN: TOKEN, PHCTL_API_URL: url, NO_COLOR: "1" },
    hookDir,
  );
  if (r.code !== 0) throw new Error(`apply failed (${r.code}): ${r.stderr}\n${r.stdout}`);
  const calls = (await readLog(api)).length;
  return { wallMs: r.wallMs, phaseMs: r.wallMs, calls, maxRssKB: r.maxRssKB } satisfies Sample;
}

/** Ids a per-resource tool would keep in its state (read once, not measured). */
async function baselinePaths(org: Organization, api: ApiClient): Promise<string[]> {
  const paths: string[] = [];
  for (const u of org.seed.users ?? []) paths.push(`/v1/users/${u.username}`);
  for (const t of org.seed.teams ?? []) paths.push(`/v1/teams/${t.name}?parentOrganization=${ORG}`);
  const perProject = await Promise.all(
    (org.seed.projects ?? []).map(async (p) => {
      const P = `/v1/projects/${p.slug}`;
      const [repos, mirrors, arts] = (await Promise.all([
        api.rawAll(`${P}/git/repo`),
        api.rawAll(`${P}/git/mirrors`),
        api.rawAll(`${P}/artifactservice/repos`),
      ])) as [{ gitRepoID: number }[], { mirrorID: string }[], { id: number }[]];
      return [
        P,
        `${P}/git/groups`,
        // No GET of one subgroup exists: one list per subgroup.
        ...(p.git?.subgroups ?? []).map(() => `${P}/git/subgroups`),
        ...repos.map((r) => `${P}/git/repo/${r.gitRepoID}`),
        ...mirrors.map((m) => `${P}/git/mirrors/${m.mirrorID}`),
        ...arts.map((a) => `${P}/artifactservice/repo/${a.id}`),
      ];
    }),
  );
  for (const ps of perProject) paths.push(...ps);
  return paths;
}

async function baselineOnce(paths: string[], url: string, api: ApiClient): Promise<Sample> {
  await clearLog(api);
  const client = new ApiClient({ apiUrl: url, token: TOKEN, concurrency: BASELINE_CONCURRENCY });
  const rss0 = process.memoryUsage().rss;
  const started = performance.now();
  await Promise.all(
    paths.map(async (p) => {
      const r = await client.raw("GET", p);
      if (r.status !== 200) throw new Error(`baseline GET ${p}: ${r.status}`);
    }),
  );
  const wallMs = performance.now() - started;
  await client.close();
  const calls = (await readLog(api)).length;
  return { wallMs, phaseMs: wallMs, calls, maxRssKB: rss0 / 1024 };
}

/** 1 % of the managed objects changed live: project descriptions and `main` repositories. */
async function drift(
  org: Organization,
  api: ApiClient,
  round: number,
  mainIds: Map<string, number>,
) {
  const n = Math.max(2, Math.round(org.managedObjects / 100));
  const projects = org.shape.projects;
  const half = Math.ceil(n / 2);
  const stride = Math.max(1, Math.floor(projects / half));
  const writes: Promise<unknown>[] = [];
  for (let k = 0; k < n; k++) {
    const slug = slugOf((Math.floor(k / 2) * stride) % projects);
    if (k % 2 === 0) {
      writes.push(
        api.raw("PATCH", `/v1/projects/${slug}`, { body: { description: `drifted ${round}` } }),
      );
    } else {
      writes.push(
        api.raw("PATCH", `/v1/projects/${slug}/git/repo/${mainIds.get(slug)}`, {
          body: { issueTracking: "disabled" },
        }),
      );
    }
  }
  const answers = (await Promise.all(writes)) as { status: number }[];
  const bad = answers.filter((a) => a.status >= 300);
  if (bad.length) throw new Error(`drift: ${bad.length} writes failed (${bad[0].status})`);
  return n;
}

// ---------------------------------------------------------------- one size
async function runSize(size: Size): Promise<string> {
  const org = generate(SIZES[size]);
  const { dir, seed } = writeOrganization(org);
  const hookDir = join(dir, "..");
  writeFileSync(
    join(hookDir, "rss.cjs"),
    `process.on("exit", () => require("node:fs").writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));\n`,
  );
  const { url, child } = await serve({ token: TOKEN, seedFile: seed, latency: opts.latency });
  const api = new ApiClient({ apiUrl: url, token: TOKEN, concurrency: 16 });
  const rows: Row[] = [];
  const notes: string[] = [];
  const log = (s: string) => console.log(`[${size}] ${s}`);
  try {
    log(`${org.managedObjects} managed objects, calls_min ${org.callsMin}; server ${url}`);
    if (opts.scenarios.includes("nochange")) {
      const samples: Sample[] = [];
      for (let i = 0; i < opts.runs; i++) {
        const s = await planOnce(dir, url, api, hookDir);
        if (s.entries) throw new Error(`no-change plan has ${s.entries} entries: not in sync`);
        samples.push(s);
        log(`no-change plan: ${fmtS(s.wallMs)} (read+diff ${fmtS(s.phaseMs)}), ${s.calls} calls`);
      }
      rows.push({
        scenario: "plan, no change",
        samples,
        callsMin: org.callsMin,
        depth: 1,
        concurrency: opts.concurrency,
      });
    }
    if (opts.scenarios.includes("drift")) {
      const mainIds = new Map<string, number>();
      await Promise.all(
        (org.seed.projects ?? []).map(async (p) => {
          const repos = (await api.rawAll(`/v1/projects/${p.slug}/git/repo`)) as {
            name: string;
            gitRepoID: number;
          }[];
          mainIds.set(p.slug, repos.find((r) => r.name === "main")!.gitRepoID);
        }),
      );
      const plans: Sample[] = [];
      const applies: Sample[] = [];
      let n = 0;
      for (let i = 0; i < opts.runs; i++) {
        n = await drift(org, api, i, mainIds);
        const p = await planOnce(dir, url, api, hookDir);
        plans.push(p);
        const a = await applyOnce(dir, url, api, hookDir);
        applies.push(a);
        log(
          `drift ${n}: plan ${fmtS(p.wallMs)} ${p.calls} calls ${p.entries} entries; apply ${fmtS(a.wallMs)} ${a.calls} calls`,
        );
        const after = await planOnce(dir, url, api, hookDir);
        if (after.entries)
          notes.push(`${size}: after apply ${i + 1}, ${after.entries} entries remain`);
      }
      notes.push(
        `${size}: drift = ${n} objects changed live (${((n / org.managedObjects) * 100).toFixed(1)} %): project descriptions and repository issueTracking`,
      );
      rows.push({
        scenario: "plan, 1 % drift",
        samples: plans,
        callsMin: org.callsMin,
        depth: 1,
        concurrency: opts.concurrency,
      });
      rows.push({
        scenario: "apply 1 % drift",
        samples: applies,
        callsMin: org.callsMin + n,
        depth: 2,
        concurrency: opts.concurrency,
      });
    }
    if (opts.scenarios.includes("baseline")) {
      const paths = await baselinePaths(org, api);
      const samples: Sample[] = [];
      for (let i = 0; i < opts.runs; i++) {
        const s = await baselineOnce(paths, url, api);
        samples.push(s);
        log(`baseline: ${fmtS(s.wallMs)}, ${s.calls} calls`);
      }
      rows.push({
        scenario: "baseline: GET per object",
        samples,
        callsMin: org.managedObjects,
        depth: 1,
        concurrency: BASELINE_CONCURRENCY,
      });
    }
  } finally {
    await api.close();
    child.kill();
    rmSync(hookDir, { recursive: true, force: true });
  }
  return section(size, org, rows, notes);
}

// ---------------------------------------------------------------- report
const fmtS = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function section(size: Size, org: Organization, rows: Row[], notes: string[]): string {
  const c = org.counts;
  const lines = [
    `<!-- begin ${size} -->`,
    `## Size ${size}`,
    "",
    `${c.users} users, ${c.teams} teams, ${c.projects} projects (git groups), ${c.subgroups} subgroups, ${c.repositories} repositories, ${c.mirrors} mirrors, ${c.artifactRepositories} artifact repositories = **${org.managedObjects} managed objects**; calls_min (no-change plan) = ${org.callsMin}. Latency ${opts.latency} ms (±25 %), phctl concurrency ${opts.concurrency}, median of ${opts.runs}.`,
    "",
    "| scenario | wall (process) | read+diff | API calls | calls_min | calls / calls_min | calls / object | peak RSS | lower bound | time / bound |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const medians = new Map<string, { calls: number; phase: number }>();
  for (const r of rows) {
    const wall = median(r.samples.map((s) => s.wallMs));
    const phase = median(r.samples.map((s) => s.phaseMs));
    const calls = median(r.samples.map((s) => s.calls));
    const rss = Math.max(...r.samples.map((s) => s.maxRssKB));
    const bound = Math.max(r.depth * opts.latency, (r.callsMin * opts.latency) / r.concurrency);
    medians.set(r.scenario, { calls, phase });
    const baseline = r.scenario.startsWith("baseline");
    lines.push(
      `| ${r.scenario} | ${fmtS(wall)} | ${baseline ? "—" : fmtS(phase)} | ${calls} | ${r.callsMin} | ${(calls / r.callsMin).toFixed(2)} | ${(calls / org.managedObjects).toFixed(2)} | ${baseline ? "(in bench process)" : `${Math.round(rss / 1024)} MB`} | ${fmtS(bound)} | ${(phase / bound).toFixed(2)} |`,
    );
  }
  lines.push("");
  const b = medians.get("baseline: GET per object");
  const p = medians.get("plan, no change");
  if (b && p) {
    lines.push(
      `phctl no-change plan / per-resource baseline: calls ${(p.calls / b.calls).toFixed(2)} (${(b.calls / p.calls).toFixed(1)}× fewer), time ${(p.phase / b.phase).toFixed(2)} (read+diff vs baseline wall).`,
      "",
    );
  }
  const nc = rows.find((r) => r.scenario === "plan, no change");
  if (nc) {
    lines.push(
      `No-change plan inside phctl: manifest load ${fmtS(median(nc.samples.map((s) => s.loadMs ?? 0)))}, process CPU ${fmtS(median(nc.samples.map((s) => s.cpuMs ?? 0)))} (load + client + diff, network waits excluded).`,
      "",
    );
  }
  for (const n of notes) lines.push(`- ${n}`);
  lines.push(`<!-- end ${size} -->`);
  return lines.join("\n");
}

function writeResults(sections: Map<Size, string>) {
  const old = existsSync(RESULTS) ? readFileSync(RESULTS, "utf8") : "";
  for (const s of ["S", "M", "L"] as Size[]) {
    if (sections.has(s)) continue;
    const m = new RegExp(`<!-- begin ${s} -->[\\s\\S]*?<!-- end ${s} -->`).exec(old);
    if (m) sections.set(s, m[0]);
  }
  const cpu = cpus();
  const machine = `${cpu[0]?.model ?? "unknown CPU"}, ${cpu.length} cores, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}, ${process.platform}/${process.arch}`;
  const body = [
    "# Benchmark results",
    "",
    "Generated by `npm run bench` (bench/run.ts; definitions in bench/README.md).",
    `Last run: ${new Date().toISOString().slice(0, 16)}Z on ${machine}.`,
    "",
    ...(["S", "M", "L"] as Size[])
      .filter((s) => sections.has(s))
      .map((s) => `${sections.get(s)}\n`),
  ].join("\n");
  writeFileSync(RESULTS, body);
  try {
    // Tables as prettier would lay them out, so `npm run lint` stays clean.
    execFileSync(join(ROOT, "node_modules/.bin/prettier"), ["--write", RESULTS], {
      stdio: "ignore",
    });
  } catch {
    console.error("prettier not available: results.md left unformatted");
  }
}

const done = new Map<Size, string>();
for (const size of opts.sizes) {
  done.set(size, await runSize(size));
  writeResults(new Map(done));
}
console.log(`results written to ${RESULTS}`);
