/**
 * Smoke run of the delivery benchmark (bench/report-delivery.ts) at size S, once: the built
 * CLI's no-change plan and `report delivery` side by side against a seeded server with
 * synthetic activity in a child process. The report reads real data (deployments, pipelines,
 * every section ok) with the fewest calls: 2 lists, per project its git group, 9 DORA reads
 * and its pipelines, 3 user counts per organization. The wall-time figure is the benchmark's
 * (size M), not asserted here.
 */
import { describe, expect, it } from "vitest";
import { reportDeliveryBench } from "../../bench/report-delivery-run.js";

describe("report delivery against a no-change plan (bench smoke)", () => {
  it("size S: the report reads real data with the fewest calls", async () => {
    const r = await reportDeliveryBench({ size: "S", runs: 1, latency: 0, concurrency: 8 });
    expect(r.sections).toEqual({ dora: "ok", ci: "ok", usage: "ok" });
    expect(r.projects).toBe(50);
    expect(r.deployments).toBeGreaterThan(1000);
    expect(r.pipelines).toBeGreaterThan(1000);
    expect(r.report.byKind).toEqual({
      "GET other": 2,
      "git group": 50,
      // Each metric daily over the period, the two medians daily over the previous one too.
      "dora daily": 6 * 50,
      "dora all": 3 * 50,
      pipelines: 50,
      "user counts": 3,
    });
    expect(r.report.calls).toBe(2 + 50 * 11 + 3);
    expect(r.plan.calls).toBeGreaterThan(0);
    expect(r.wallRatio).toBeGreaterThan(0);
  }, 180_000);
});
