/**
 * A smoke of the reference server fuzz (bench/fuzz.ts; issue 34, defects 5 and 8 at
 * length): the built `phctl serve --control --request-log` in a child process takes 400
 * fuzz requests — id lifecycles in two parent organizations, deep JSON (65 to 500,000
 * levels), malformed bodies and paths, random operations. No answer is a 5xx other than the
 * spec's fork-cleanup 500, every deep body is refused as a client error, no id a create
 * answered was handed out before, and the server's RSS stays within bounds.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { drive, fuzzPlan, startFuzzServer } from "../../bench/fuzz-load.js";

const dir = mkdtempSync(join(tmpdir(), "phctl-fuzz-smoke-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("reference server fuzz, small", () => {
  it("400 requests: no unexplained 5xx, deep JSON refused with 4xx, no id reused, RSS bounded", async () => {
    const server = await startFuzzServer(dir, { control: true, requestLog: 1_000 });
    try {
      const { plan, ledger } = fuzzPlan(server, 7);
      const start = await server.memory();
      const run = await drive(server, plan, { requests: 400, concurrency: 4 });
      const end = await server.memory();

      expect.soft(run.unexpectedExamples).toEqual([]);
      expect.soft(run.unexpected).toBe(0);
      expect(run.noAnswerExamples).toEqual([]);

      const deep = run.statuses.deep;
      const deepSent = Object.values(deep).reduce((a, b) => a + b, 0);
      expect(deepSent).toBeGreaterThan(20);
      expect.soft(Object.keys(deep).filter((s) => !/^4\d\d$/.test(s))).toEqual([]);
      expect.soft(deep["400"]).toBeGreaterThan(deepSent / 2);

      // the lifecycle made and deleted objects, and no create answered a known id
      expect.soft(ledger.objects).toBeGreaterThan(40);
      expect.soft(run.statuses.lifecycle["204"]).toBeGreaterThan(5);
      expect.soft(ledger.reused).toEqual([]);

      expect(start.rssMB).toBeGreaterThan(10);
      expect(end.rssMB).toBeGreaterThan(10);
      // before the fix, deep bodies took a few hundred MB (500+ MB peak in 2,000 requests)
      expect.soft(end.peakMB).toBeLessThan(300);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
