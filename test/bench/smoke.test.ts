/**
 * Benchmark smoke run (size S, no latency, in-process server; `npm test` runs the build
 * first, so the CLI in dist/ is there): every scenario of bench/run.ts once, cheaply, with
 * the assertions the benchmark relies on —
 * - the generated seed and manifests are in sync (a no-change plan is empty) and the plan
 *   makes at most 1.1 × calls_min calls, counted by the server's request log;
 * - the generator's resource count is what phctl declares and reads, kind by kind;
 * - the per-resource baseline makes one successful GET per resource;
 * - the export (the CLI) reads within 1.1 × its calls_min;
 * - an apply from empty (the CLI, queue delay 5 ms; a fifth of S) converges, its calls are
 *   counted and split into plan, walk and verification, and its bound is computed;
 * - a pull-request plan (the CLI, one project changed, `--base`) reads within 50 calls and
 *   plans that project alone;
 * - results.md sections are kept per size and latency, and the scaling table is built.
 * The full benchmark is `npm run bench` (bench/run.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baselinePaths, runBaseline } from "../../bench/baseline.js";
import { calibrate } from "../../bench/bound.js";
import {
  desiredState,
  generate,
  IDENTITY,
  KIND_OF,
  SIZES,
  writeOrganization,
  type Counts,
} from "../../bench/generate.js";
import { parseSections, scalingTable, sectionData } from "../../bench/report.js";
import {
  checkScoped,
  prPlan,
  prRows,
  prSection,
  prSlug,
  PR_CALLS_TARGET,
  writeHead,
  type PrRow,
} from "../../bench/pr.js";
import { emptyApplyRun, exportCli } from "../../bench/scenarios.js";
import { writeExitHook } from "../../bench/serve.js";
import { ApiClient } from "../../src/api/client.js";
import { runPlan, runPlanWithLive } from "../../src/engine/run-plan.js";
import { kinds } from "../../src/kinds/index.js";
import { loadManifests } from "../../src/pipeline/load.js";
import type { DesiredState } from "../../src/manifest/types.js";
import { seed } from "../../src/server/seed.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

const org = generate(SIZES.S);
const state = desiredState(org);
const token = TOKENS.admin.secret;
let t: TestServer;
let api: ApiClient;
let root: string;
let hook: string;
let work: string;

beforeAll(async () => {
  t = await startServer({ checkResponses: false, requestLog: true });
  seed(t.server.ctx, org.seed);
  api = new ApiClient({ apiUrl: t.url, token, concurrency: 16 });
  root = mkdtempSync(join(tmpdir(), "phctl-bench-smoke-"));
  hook = writeExitHook(root);
  work = root;
});
afterAll(async () => {
  await api.close();
  await t.close();
  rmSync(root, { recursive: true, force: true });
});

/** A plan of `manifests` against `server`, in process; its entries and calls. */
async function planOf(server: TestServer, manifests: DesiredState) {
  server.server.requestLog.length = 0;
  const client = new ApiClient({ apiUrl: server.url, token, concurrency: 16 });
  const plan = await runPlan({ api: client, state: manifests, apiUrl: server.url });
  await client.close();
  return { entries: plan.entries, calls: server.server.requestLog.length };
}

describe("bench smoke (size S)", () => {
  it("a no-change plan is empty and within 1.1 × calls_min", async () => {
    const { entries, calls } = await planOf(t, state);
    expect(entries.map((e) => `${e.action} ${e.key}`).slice(0, 5)).toEqual([]);
    console.log(`bench smoke S: ${calls} calls, calls_min ${org.callsMin}`);
    expect(calls).toBeGreaterThanOrEqual(org.callsMin);
    expect(calls).toBeLessThanOrEqual(Math.floor(org.callsMin * 1.1));
  });

  it("resources: the generator's count is what phctl declares and reads, kind by kind", async () => {
    const { live } = await runPlanWithLive({ api, state, apiUrl: t.url });
    const declared = new Map(kinds.map((k) => [k.kind, k.desired(state).map((d) => d.key)]));
    const liveKeys = new Set(live.keys());
    for (const [cat, kind] of Object.entries(KIND_OF)) {
      const keys = declared.get(kind) ?? [];
      expect([cat, keys.length]).toEqual([cat, org.counts[cat as keyof Counts]]);
      expect(keys.filter((k) => !liveKeys.has(k))).toEqual([]);
    }
    const total = [...declared.values()].reduce((a, k) => a + k.length, 0);
    expect(total).toBe(org.resources);
    expect(live.size).toBe(org.resources);
    expect(org.identityObjects).toBe(IDENTITY.reduce((a, k) => a + org.counts[k], 0));
    expect(org.identityObjects).toBeLessThan(org.resources);
  });

  it("the per-resource baseline makes one successful GET per resource", async () => {
    const paths = await baselinePaths(org, api);
    for (const [cat, ps] of Object.entries(paths))
      expect([cat, ps.length]).toEqual([cat, org.counts[cat as keyof Counts]]);
    t.server.requestLog.length = 0;
    await runBaseline(paths, t.url, token); // throws on any answer but 200
    expect(t.server.requestLog.length).toBe(org.resources);
    expect(t.server.requestLog.every((e) => e.method === "GET" && e.status === 200)).toBe(true);
  });

  it("export (the CLI) reads within 1.1 × its calls_min and plans as in sync", async () => {
    const out = join(root, "export");
    const x = await exportCli({ url: t.url, token, hook, work }, api, out, 8);
    console.log(`bench smoke S: export ${x.calls} calls, calls_min ${org.exportCallsMin}`);
    expect(x.said).toBe(x.calls);
    expect(x.calls).toBeGreaterThanOrEqual(org.exportCallsMin);
    expect(x.calls).toBeLessThanOrEqual(Math.floor(org.exportCallsMin * 1.1));
    expect(x.r.maxRssKB).toBeGreaterThan(0);
    const exported = await loadManifests([out]);
    expect(exported.state).toBeDefined();
    expect((await planOf(t, exported.state!)).entries).toEqual([]);
  });

  it("apply from empty (the CLI, queue delay 5 ms) converges; calls counted, bound computed", async () => {
    // A fifth of S (the full S apply takes longer than a smoke test should).
    const small = generate({ users: 40, teams: 2, projects: 10, repos: 100 });
    const smallDir = writeOrganization(small, join(root, "small")).dir;
    const empty = await startServer({ checkResponses: false, requestLog: true, queueDelayMs: 5 });
    const client = new ApiClient({ apiUrl: empty.url, token, concurrency: 16 });
    try {
      const started = performance.now();
      // The smallest organization with every kind (the bench's CALIBRATION_SHAPE has 3 projects).
      const tiny = desiredState(generate({ users: 6, teams: 1, projects: 1, repos: 5 }));
      const means = await calibrate({ token, latency: 0, queueDelay: 5, state: tiny });
      const calibrated = performance.now() - started;
      expect([...means.keys()].sort()).toEqual(
        Object.values(KIND_OF)
          .map((k) => `create ${k}`)
          .sort(),
      );
      const x = await emptyApplyRun({
        ch: { url: empty.url, token, hook, work },
        api: client,
        state: desiredState(small),
        dir: smallDir,
        concurrency: 16,
        means,
        planAfter: () =>
          planOf(empty, desiredState(small)).then((p) => ({
            entries: p.entries.length,
            calls: p.calls,
          })),
      });
      console.log(
        `bench smoke: calibration ${Math.round(calibrated)} ms; apply from empty ${x.actions} actions, ${x.log.length} calls (plan ${x.parts.plan.length}, walk ${x.parts.walk.length}, verify ${x.parts.verify.length}), process ${Math.round(x.r.wallMs)} ms, walk ${Math.round(x.walkMs)} ms, bound ${Math.round(x.bound.boundMs)} ms`,
      );
      expect(x.failed).toBe(0);
      expect(x.actions).toBe(small.resources);
      // One write per resource, at least one status read per queued job, in the walk.
      const walkWrites = x.parts.walk.filter((e) => e.method !== "GET").length;
      expect(walkWrites).toBeGreaterThanOrEqual(small.resources);
      expect(x.parts.walk.length).toBeGreaterThanOrEqual(small.resources + small.queuedJobs);
      expect(x.parts.plan.every((e) => e.method === "GET")).toBe(true);
      expect(x.parts.verify.every((e) => e.method === "GET")).toBe(true);
      expect(x.parts.verify.length).toBeGreaterThanOrEqual(small.callsMin);
      expect(x.bound.uncalibrated).toEqual([]);
      expect(x.bound.path.length).toBeGreaterThanOrEqual(2);
      expect(x.bound.boundMs).toBeGreaterThan(x.bound.criticalPathMs);
      expect(x.walkMs).toBeGreaterThan(0);
      expect(x.r.maxRssKB).toBeGreaterThan(0);
    } finally {
      await client.close();
      await empty.close();
    }
  });

  it("a pull-request plan (the CLI, one project changed) reads within 50 calls", async () => {
    const base = writeOrganization(org, join(root, "pr")).dir;
    const head = join(root, "pr", "head");
    writeHead(base, head, prSlug(org));
    const ch = { url: t.url, token, hook, work };
    const s = await prPlan(ch, api, { head, base }, { full: false, concurrency: 16 });
    console.log(`bench smoke S: pull-request plan ${s.calls} calls, ${Math.round(s.wallMs)} ms`);
    checkScoped(s, prSlug(org)); // throws unless exactly the change, scoped to its project
    expect(s.calls).toBeLessThanOrEqual(PR_CALLS_TARGET);
    expect(s.calls).toBeGreaterThan(0);
    // The section keeps one row per size and latency; a new run replaces its own.
    const row = (size: PrRow["size"], calls: number): PrRow => ({
      size,
      latency: 20,
      resources: 1,
      projects: 1,
      scoped: { calls, wallMs: 1000, planMs: 100 },
      full: { calls: 505, wallMs: 2000, planMs: 900 },
      when: "now",
      machine: "here",
    });
    const text = prSection([], [row("L", 12), row("S", 11)]);
    const again = prSection(prRows(text), [row("S", 13)]);
    expect(prRows(again).map((r) => [r.size, r.scoped.calls])).toEqual([
      ["S", 13],
      ["L", 12],
    ]);
    expect(again).toContain("## Pull-request plan, scoped");
  });

  it("results.md: sections by size and latency, older ones kept; the scaling table", () => {
    const row = (calls: number, readDiff: string, wall: string) =>
      `| plan, no change | ${wall} | ${readDiff} | ${calls} | 5 | 1.00 | 0.50 | 100 MB | 1 s | 1 |`;
    const text = [
      "<!-- begin S -->",
      row(505, "1.00 s", "2.00 s"),
      "<!-- end S -->",
      "<!-- begin M@0 -->",
      row(5005, "8.00 s", "12.00 s"),
      "<!-- end M@0 -->",
      "<!-- begin M@20 -->",
      `<!-- data ${JSON.stringify({ size: "M", latency: 20, resources: 18050, calls: 5005, readDiffMs: 9000, wallMs: 11000, rssMB: 180 })} -->`,
      "<!-- end M@20 -->",
    ].join("\n");
    const sections = parseSections(text);
    expect([...sections.keys()].sort()).toEqual(["M@0", "M@20", "S@20"]);
    expect(sections.get("S@20")).toContain("<!-- end S@20 -->");
    expect(sectionData("S@20", sections.get("S@20")!)).toMatchObject({
      calls: 505,
      readDiffMs: 1000,
      wallMs: 2000,
    });
    const resources = { S: 1805, M: 18050, L: 78200 };
    const table = scalingTable(sections, (s) => resources[s]).join("\n");
    // S@20 → M@20: 9.91× calls, 9.00× read+diff; M@0 alone in its latency.
    expect(table).toContain(
      "| 20 ms | M | 18,050 | 5,005 | 9.00 s | 11.00 s | 180 MB | 10.00× | 9.91× | 9.00× | 5.50× | 0.91 |",
    );
    expect(table).toMatch(
      /\| 0 ms \| M \| 18,050 \| 5,005 \| 8\.00 s \| 12\.00 s \| 100 MB \| — \|/,
    );
  });
});
