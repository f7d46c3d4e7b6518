/**
 * The benchmark (not part of `npm test`; see bench/README.md):
 *
 *   npm run bench                      # sizes S and M, latency 20 ms, every scenario
 *   npm run bench -- --size M          # one size (S, M or L; repeatable)
 *   npm run bench -- --size S --latency 0
 *   npm run bench -- --size L --runs 1 --scenarios nochange
 *   npm run bench -- --size M --runs 1 --scenarios empty
 *   npm run bench -- --size L --runs 1 --scenarios pr
 *
 * Flags: --size, --latency (20), --concurrency (16), --runs (3, median), --queue-delay (200,
 * apply from empty), --scenarios (nochange,drift,empty,export,baseline,pr; empty runs at S
 * and M unless named explicitly).
 *
 * The reference server runs in a child process (`phctl serve --seed FILE --latency N`), so
 * its CPU is not in the measured process; so does phctl: a plan is `bench/plan-child.js`
 * (load + read live + diff, the built engine), an apply and an export are the CLI. API
 * calls are counted by the server (GET /_control/requests). The per-resource baseline (one
 * GET per resource, concurrency 10) runs here, against the same server. Results go to
 * bench/results.md (one section per size and latency, others kept).
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ApiClient } from "../src/api/client.js";
import { runPlanWithLive } from "../src/engine/run-plan.js";
import { kinds } from "../src/kinds/index.js";
import type { DesiredState } from "../src/manifest/types.js";
import { baselinePaths, BASELINE_CONCURRENCY, runBaseline } from "./baseline.js";
import { calibrate, CALIBRATION_SHAPE } from "./bound.js";
import {
  desiredState,
  generate,
  KIND_OF,
  SIZES,
  slugOf,
  writeOrganization,
  type Counts,
  type Organization,
  type Size,
} from "./generate.js";
import {
  BASELINE,
  fmtS,
  machine,
  median,
  NO_CHANGE,
  section,
  writeResults,
  type Row,
  type Sample,
} from "./report.js";
import { prRows, prScenario, prSection, type PrRow } from "./pr.js";
import { applyCli, emptyApplyRun, emptyDiagnosis, exportCli, type EmptyRun } from "./scenarios.js";
import { clearLog, readLog, runNode, serve, writeExitHook } from "./serve.js";

const PLAN_CHILD = join(import.meta.dirname, "plan-child.js");
const RESULTS = join(import.meta.dirname, "results.md");
const TOKEN = "bench-token-7c2d";
const SCENARIOS = ["nochange", "drift", "empty", "export", "baseline", "pr"];
/** Export's dependent reads: organizations → lists → project detail → git group & co. */
const EXPORT_DEPTH = 4;

// ---------------------------------------------------------------- flags
function flags(argv: string[]) {
  const o = {
    sizes: [] as Size[],
    latency: 20,
    concurrency: 16,
    runs: 3,
    queueDelay: 200,
    scenarios: SCENARIOS,
    explicitScenarios: false,
  };
  const num = (flag: string, v: string | undefined) => {
    const x = Number(v);
    if (v === undefined || !Number.isFinite(x) || x < 0)
      throw new Error(`${flag} needs a number ≥ 0`);
    return x;
  };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i + 1];
    switch (argv[i]) {
      case "--size":
        for (const s of (v ?? "").toUpperCase().split(",")) {
          if (!(s in SIZES)) throw new Error(`--size must be S, M or L (got ${s})`);
          o.sizes.push(s as Size);
        }
        i++;
        break;
      case "--latency":
        o.latency = num("--latency", v);
        i++;
        break;
      case "--concurrency":
        o.concurrency = num("--concurrency", v);
        i++;
        break;
      case "--runs":
        o.runs = Math.max(1, num("--runs", v));
        i++;
        break;
      case "--queue-delay":
        o.queueDelay = num("--queue-delay", v);
        i++;
        break;
      case "--scenarios":
        o.scenarios = (v ?? "").split(",");
        for (const s of o.scenarios)
          if (!SCENARIOS.includes(s))
            throw new Error(`--scenarios: unknown ${s} (${SCENARIOS.join(", ")})`);
        o.explicitScenarios = true;
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
const wants = (s: string) => opts.scenarios.includes(s);
const planBound = (callsMin: number, depth: number, concurrency: number) =>
  Math.max(depth * opts.latency, (callsMin * opts.latency) / concurrency);

interface Ctx {
  size: Size;
  org: Organization;
  state: DesiredState;
  /** Manifest directory. */
  dir: string;
  /** Scratch directory: the children's cwd, exports. */
  work: string;
  hook: string;
  log: (s: string) => void;
  notes: string[];
  /** Rows of the pull-request section (all sizes of this run). */
  pr: PrRow[];
}

// ---------------------------------------------------------------- plan (the plan child)
interface ChildPlan {
  loadMs: number;
  planMs: number;
  entries: number;
  stats?: { objectsRead: number; apiCalls: number };
  cpuMs: number;
  maxRssKB: number;
  loadCpuMs?: number;
  diffCpuMs?: number;
}

async function planOnce(c: Ctx, url: string, api: ApiClient, dir = c.dir): Promise<Sample> {
  await clearLog(api);
  const r = await runNode([PLAN_CHILD, dir, url, String(opts.concurrency)], {
    env: { PHCTL_TOKEN: TOKEN },
    hook: c.hook,
    cwd: c.work,
  });
  if (r.code !== 0) throw new Error(`plan failed (${r.code}): ${r.stderr}`);
  const out = JSON.parse(r.stdout.trim().split("\n").pop()!) as ChildPlan;
  const calls = (await readLog(api)).length;
  return {
    wallMs: r.wallMs,
    phaseMs: out.planMs,
    calls,
    maxRssKB: out.maxRssKB,
    boundMs: planBound(c.org.callsMin, 1, opts.concurrency),
    cpuMs: out.cpuMs,
    loadMs: out.loadMs,
    entries: out.entries,
    ...(out.stats ? { objectsRead: out.stats.objectsRead } : {}),
    ...(out.loadCpuMs !== undefined ? { loadCpuMs: out.loadCpuMs } : {}),
    ...(out.diffCpuMs !== undefined ? { diffCpuMs: out.diffCpuMs } : {}),
  };
}

// ---------------------------------------------------------------- drift
/** 1 % of the resources changed live: project descriptions and `main` repositories. */
async function drift(c: Ctx, api: ApiClient, round: number, mainIds: Map<string, number>) {
  const n = Math.max(2, Math.round(c.org.resources / 100));
  const projects = c.org.shape.projects;
  const half = Math.ceil(n / 2);
  const stride = Math.max(1, Math.floor(projects / half));
  const writes: Promise<{ status: number }>[] = [];
  for (let k = 0; k < n; k++) {
    const slug = slugOf((Math.floor(k / 2) * stride) % projects);
    writes.push(
      k % 2 === 0
        ? api.raw("PATCH", `/v1/projects/${slug}`, { body: { description: `drifted ${round}` } })
        : api.raw("PATCH", `/v1/projects/${slug}/git/repo/${mainIds.get(slug)}`, {
            body: { issueTracking: "disabled" },
          }),
    );
  }
  const bad = (await Promise.all(writes)).filter((a) => a.status >= 300);
  if (bad.length) throw new Error(`drift: ${bad.length} writes failed (${bad[0].status})`);
  return n;
}

// ---------------------------------------------------------------- seeded scenarios
async function seededScenarios(c: Ctx, seed: string, rows: Row[]) {
  const { url, child } = await serve({ token: TOKEN, seedFile: seed, latency: opts.latency });
  const api = new ApiClient({ apiUrl: url, token: TOKEN, concurrency: 16 });
  const ch = { url, token: TOKEN, hook: c.hook, work: c.work };
  try {
    c.log(`seeded server ${url}`);
    await countCheck(c, url, api);

    // First, while the seed is in sync (drift and its apply come later).
    if (wants("pr"))
      c.pr.push(
        await prScenario({
          ch,
          api,
          org: c.org,
          size: c.size,
          latency: opts.latency,
          dir: c.dir,
          runs: opts.runs,
          concurrency: opts.concurrency,
          machine: machine(),
          log: c.log,
        }),
      );

    if (wants("nochange")) {
      const samples: Sample[] = [];
      for (let i = 0; i < opts.runs; i++) {
        const s = await planOnce(c, url, api);
        if (s.entries) throw new Error(`no-change plan has ${s.entries} entries: not in sync`);
        samples.push(s);
        c.log(`no-change plan: ${fmtS(s.wallMs)} (read+diff ${fmtS(s.phaseMs)}), ${s.calls} calls`);
      }
      const read = samples[0].objectsRead;
      if (read !== undefined)
        c.notes.push(
          `${c.size}: the no-change plan's stats.objectsRead = ${read.toLocaleString("en-US")} (list items and records read, counted by the ReadContext: it counts every user and service record, each team once with its members inside, each project twice — list and detail — with its access entries and licenses inside, plus the organization list and the license catalogue; so it is not the resource count)`,
        );
      rows.push({ scenario: NO_CHANGE, samples, callsMin: c.org.callsMin });
    }

    if (wants("drift")) {
      const mainIds = new Map<string, number>();
      await Promise.all(
        (c.org.seed.projects ?? []).map(async (p) => {
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
        n = await drift(c, api, i, mainIds);
        const p = await planOnce(c, url, api);
        plans.push(p);
        const { r, log } = await applyCli(ch, api, c.dir, opts.concurrency);
        const a: Sample = {
          wallMs: r.wallMs,
          phaseMs: r.wallMs,
          calls: log.length,
          maxRssKB: r.maxRssKB,
          cpuMs: r.cpuMs,
          boundMs: planBound(c.org.callsMin + n, 2, opts.concurrency),
        };
        applies.push(a);
        c.log(
          `drift ${n}: plan ${fmtS(p.wallMs)} ${p.calls} calls ${p.entries} entries; apply ${fmtS(a.wallMs)} ${a.calls} calls`,
        );
        const after = await planOnce(c, url, api);
        if (after.entries)
          c.notes.push(`${c.size}: after apply ${i + 1}, ${after.entries} entries remain`);
      }
      c.notes.push(
        `${c.size}: drift = ${n} resources changed live (${((n / c.org.resources) * 100).toFixed(1)} %): project descriptions and \`main\` repositories' issueTracking; apply of drift: calls_min = plan calls_min + 1 write each, depth 2`,
      );
      rows.push({ scenario: "plan, 1 % drift", samples: plans, callsMin: c.org.callsMin });
      rows.push({ scenario: "apply 1 % drift", samples: applies, callsMin: c.org.callsMin + n });
    }

    if (wants("export")) {
      const samples: Sample[] = [];
      let out = "";
      for (let i = 0; i < opts.runs; i++) {
        out = join(c.work, `export-${i}`);
        const { r, calls, said } = await exportCli(ch, api, out, opts.concurrency);
        if (said !== calls)
          c.notes.push(`${c.size}: export says ${said} API calls, the server ${calls}`);
        samples.push({
          wallMs: r.wallMs,
          phaseMs: r.wallMs,
          calls,
          maxRssKB: r.maxRssKB,
          cpuMs: r.cpuMs,
          boundMs: planBound(c.org.exportCallsMin, EXPORT_DEPTH, opts.concurrency),
        });
        c.log(`export: ${fmtS(r.wallMs)}, ${calls} calls`);
        if (i < opts.runs - 1) rmSync(out, { recursive: true, force: true });
      }
      // Not measured: the export is what phctl plans as in sync.
      const check = await planOnce(c, url, api, out);
      c.notes.push(
        `${c.size}: export = \`phctl export --organization acme --out DIR\` (the CLI, --concurrency ${opts.concurrency}; bound depth ${EXPORT_DEPTH}); a plan of the exported manifests: ${check.entries} entries${check.entries ? " (expected 0)" : ""}; process CPU ${fmtS(median(samples.map((s) => s.cpuMs ?? NaN)))}`,
      );
      rows.push({ scenario: "export", samples, callsMin: c.org.exportCallsMin });
    }

    if (wants("baseline")) {
      const paths = await baselinePaths(c.org, api);
      const total = Object.values(paths).flat().length;
      if (total !== c.org.resources)
        throw new Error(`baseline: ${total} paths for ${c.org.resources} resources`);
      const samples: Sample[] = [];
      for (let i = 0; i < opts.runs; i++) {
        await clearLog(api);
        const wallMs = await runBaseline(paths, url, TOKEN);
        const calls = (await readLog(api)).length;
        samples.push({
          wallMs,
          phaseMs: wallMs,
          calls,
          maxRssKB: NaN,
          boundMs: planBound(c.org.resources, 1, BASELINE_CONCURRENCY),
        });
        c.log(`baseline: ${fmtS(wallMs)}, ${calls} calls`);
      }
      rows.push({ scenario: BASELINE, samples, callsMin: c.org.resources });
    }
  } finally {
    await api.close();
    child.kill();
  }
}

/**
 * Resources three ways: the generator's count, the keys phctl's kinds declare (desired), and
 * the keyed live objects a plan reads (in this process, not measured); by kind.
 */
async function countCheck(c: Ctx, url: string, api: ApiClient) {
  const desired = new Map(kinds.map((k) => [k.kind, k.desired(c.state).length]));
  await clearLog(api);
  const { live } = await runPlanWithLive({ api, state: c.state, apiUrl: url });
  const read = new Map<string, number>();
  for (const key of live.keys()) {
    const kind = kindOfKey(key);
    read.set(kind, (read.get(kind) ?? 0) + 1);
  }
  const diffs: string[] = [];
  const cats = Object.keys(KIND_OF) as (keyof Counts)[];
  for (const cat of cats) {
    const k = KIND_OF[cat];
    const [g, d, l] = [c.org.counts[cat], desired.get(k) ?? 0, read.get(k) ?? 0];
    if (g !== d || g !== l) diffs.push(`${k}: generator ${g}, desired ${d}, read ${l}`);
  }
  for (const [k, d] of desired)
    if (!Object.values(KIND_OF).includes(k) && (d || read.get(k)))
      diffs.push(`${k}: generator 0, desired ${d}, read ${read.get(k) ?? 0}`);
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const line = `${c.size}: resources — generator ${c.org.resources}, keys declared (kinds' desired) ${sum(desired)}, keyed live objects a plan reads ${live.size}${diffs.length ? `; differ: ${diffs.join("; ")}` : " (equal, kind by kind)"}`;
  c.log(line);
  c.notes.push(line);
}

/** The kind of a key (src/manifest/keys.ts shapes). */
function kindOfKey(key: string): string {
  const p = key.split("/");
  if (p[0] === "organization") return "Organization";
  if (p[0] === "user") return p.length > 2 ? "UserService" : "User";
  if (p[0] === "team") return p.length > 2 ? "TeamMember" : "Team";
  if (p.length === 2) return "Project";
  switch (p[2]) {
    case "group":
      return "GitGroup";
    case "subgroup":
      return "Subgroup";
    case "repo":
      return "Repository";
    case "mirror":
      return "Mirror";
    case "artifact":
      return "ArtifactRepo";
    case "license":
      return "ProjectLicense";
    case "access":
      return p[4] === "team" ? "ProjectTeamAccess" : "ProjectAccess";
    default:
      return `? ${p[2]}`;
  }
}

// ---------------------------------------------------------------- apply from empty
const calibrations = new Map<string, Promise<Map<string, number>>>();
function means(): Promise<Map<string, number>> {
  const k = `${opts.latency}/${opts.queueDelay}`;
  let m = calibrations.get(k);
  if (!m) {
    m = calibrate({ token: TOKEN, latency: opts.latency, queueDelay: opts.queueDelay });
    calibrations.set(k, m);
  }
  return m;
}

async function emptyScenario(c: Ctx, rows: Row[]) {
  const alone = await means();
  c.log(
    `calibrated (${CALIBRATION_SHAPE.projects} projects, one action at a time): ${[...alone].map(([k, ms]) => `${k} ${Math.round(ms)} ms`).join(", ")}`,
  );
  const samples: Sample[] = [];
  let last: EmptyRun | undefined;
  let callsMin = 0;
  for (let i = 0; i < opts.runs; i++) {
    const { url, child } = await serve({
      token: TOKEN,
      latency: opts.latency,
      queueDelay: opts.queueDelay,
    });
    const api = new ApiClient({ apiUrl: url, token: TOKEN, concurrency: opts.concurrency });
    try {
      const x = await emptyApplyRun({
        ch: { url, token: TOKEN, hook: c.hook, work: c.work },
        api,
        state: c.state,
        dir: c.dir,
        concurrency: opts.concurrency,
        means: alone,
        planAfter: () =>
          planOnce(c, url, api).then((p) => ({ entries: p.entries ?? 0, calls: p.calls })),
        ...(child.pid !== undefined ? { serverPid: child.pid } : {}),
      });
      callsMin = x.planCalls + c.org.resources + c.org.queuedJobs + c.org.callsMin;
      samples.push({
        wallMs: x.r.wallMs,
        phaseMs: x.walkMs,
        calls: x.log.length,
        maxRssKB: x.r.maxRssKB,
        cpuMs: x.r.cpuMs,
        boundMs: x.bound.boundMs,
      });
      const byMethod = x.log.reduce<Record<string, number>>(
        (m, e) => ({ ...m, [e.method]: (m[e.method] ?? 0) + 1 }),
        {},
      );
      c.log(
        `apply from empty: ${x.actions} actions${x.failed ? ` (${x.failed} failed)` : ""}, wall ${fmtS(x.r.wallMs)}, walk ${fmtS(x.walkMs)}, bound ${fmtS(x.bound.boundMs)} (critical path ${fmtS(x.bound.criticalPathMs)} + API ${fmtS(x.walkApiMs)} / ${opts.concurrency}) → ${(x.walkMs / x.bound.boundMs).toFixed(2)}; ${x.log.length} calls ${JSON.stringify(byMethod)}`,
      );
      last = x;
    } finally {
      await api.close();
      child.kill();
    }
  }
  c.notes.push(
    `${c.size}: apply from empty = a fresh \`phctl serve --queue-delay ${opts.queueDelay} --latency ${opts.latency}\` (nothing but the token's organization), \`phctl apply DIR --auto-approve --concurrency ${opts.concurrency}\` (the CLI), then a plan that must be empty; ${last!.actions.toLocaleString("en-US")} actions. calls_min = the plan's reads of the empty server + 1 write per resource + 1 status read per queued job (git accounts; access at maintainers, developers, reporters) + the verification's re-read (a no-change plan's calls_min). Its time / bound is the walk's (apply-started → last action done) against critical path + walk API time / concurrency`,
    ...emptyDiagnosis(last!, alone, opts.concurrency).map(
      (l) => `${c.size}: apply from empty, last run: ${l}`,
    ),
  );
  rows.push({
    scenario: `apply from empty (queue delay ${opts.queueDelay} ms)`,
    samples,
    callsMin,
  });
}

// ---------------------------------------------------------------- one size
async function runSize(size: Size, pr: PrRow[]): Promise<string> {
  const org = generate(SIZES[size]);
  const { dir, seed } = writeOrganization(org);
  const root = join(dir, "..");
  const work = join(root, "work");
  mkdirSync(work, { recursive: true });
  const rows: Row[] = [];
  const c: Ctx = {
    size,
    org,
    state: desiredState(org),
    dir,
    work,
    hook: writeExitHook(root),
    log: (s: string) => console.log(`[${size}@${opts.latency}] ${s}`),
    notes: [],
    pr,
  };
  try {
    c.log(
      `${org.resources} resources (${org.identityObjects} with an identity), calls_min ${org.callsMin}`,
    );
    if (["nochange", "drift", "export", "baseline", "pr"].some(wants))
      await seededScenarios(c, seed, rows);
    if (wants("empty")) {
      if (size !== "L" || opts.explicitScenarios) await emptyScenario(c, rows);
      else c.log("apply from empty: S and M only (name it in --scenarios to run it at L)");
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return section({
    size,
    latency: opts.latency,
    concurrency: opts.concurrency,
    runs: opts.runs,
    org,
    rows,
    notes: c.notes,
    machine: machine(),
  });
}

const resourcesOf = (s: Size) => generate(SIZES[s]).resources;
const done = new Map<string, string>();
const pr: PrRow[] = [];
for (const size of opts.sizes) {
  const section = await runSize(size, pr);
  // A run of the pull-request scenario alone leaves the size sections as they were.
  if (opts.scenarios.some((s) => s !== "pr")) done.set(`${size}@${opts.latency}`, section);
  const old = existsSync(RESULTS) ? readFileSync(RESULTS, "utf8") : "";
  writeResults(RESULTS, done, resourcesOf, pr.length ? prSection(prRows(old), pr) : undefined);
}
console.log(`results written to ${RESULTS}`);
