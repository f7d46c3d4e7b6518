/**
 * Benchmark smoke run (size S, no latency): the generated seed and manifests are in sync
 * (a no-change plan is empty) and the plan makes at most 1.1 × calls_min API calls, counted
 * by the server's request log. The full benchmark is `npm run bench` (bench/run.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, SIZES } from "../../bench/generate.js";
import { ApiClient } from "../../src/api/client.js";
import { runPlan } from "../../src/engine/run-plan.js";
import { loadManifestTexts } from "../../src/manifest/load.js";
import { seed } from "../../src/server/seed.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startServer({ checkResponses: false, requestLog: true });
});
afterAll(() => t.close());

describe("bench smoke (size S)", () => {
  it("a no-change plan is empty and within 1.1 × calls_min", async () => {
    const org = generate(SIZES.S);
    seed(t.server.ctx, org.seed);
    const { state, diagnostics } = loadManifestTexts(
      org.files.map((f) => ({ ...f, ...(f.file === "phctl.yaml" ? { config: true } : {}) })),
    );
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    t.server.requestLog.length = 0;
    const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret, concurrency: 16 });
    const plan = await runPlan({ api, state: state!, apiUrl: t.url });
    await api.close();
    expect(plan.entries.map((e) => `${e.action} ${e.key}`).slice(0, 5)).toEqual([]);
    const calls = t.server.requestLog.length;
    console.log(`bench smoke S: ${calls} calls, calls_min ${org.callsMin}`);
    expect(calls).toBeGreaterThanOrEqual(org.callsMin);
    expect(calls).toBeLessThanOrEqual(Math.floor(org.callsMin * 1.1));
  }, 20_000);
});
