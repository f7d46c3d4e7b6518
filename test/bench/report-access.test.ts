/**
 * Smoke run of the report benchmark (bench/report-access.ts) at size S, once: the built CLI's
 * no-change plan and `report access` against a seeded server with synthetic activity in a
 * child process. The report reads real data (rows, last logins, every section ok) and its
 * calls stay within 1.2× the plan's plus one per organization. The wall-time figure is the
 * benchmark's (size M), not asserted here.
 */
import { describe, expect, it } from "vitest";
import { reportAccessBench } from "../../bench/report-access-run.js";

describe("report access against a no-change plan (bench smoke)", () => {
  it("size S: the report reads real data within the calls bound", async () => {
    const r = await reportAccessBench({ size: "S", runs: 1, latency: 0, concurrency: 8 });
    expect(r.sections).toEqual({ access: "ok", lastLogin: "ok" });
    expect(r.rows).toBeGreaterThan(50);
    expect(r.lastLogins).toBeGreaterThan(100);
    expect(r.organizations).toBeGreaterThanOrEqual(1);
    expect(r.report.calls).toBeGreaterThan(0);
    expect(r.report.calls).toBeLessThanOrEqual(r.callsBound);
    // Each read once: the report makes the fewest calls it can.
    expect(r.report.calls).toBe(r.reportCallsMin);
    expect(r.plan.calls).toBe(r.planCallsMin);
    expect(r.wallRatio).toBeGreaterThan(0);
  }, 120_000);
});
