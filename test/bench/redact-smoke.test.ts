/**
 * Smoke run of the redactor benchmark (bench/redact-run.ts) on a small plan: every token
 * in it is found (glued ones included) and the timings are numbers. The figures themselves
 * are the benchmark's (20,000 entries).
 */
import { describe, expect, it } from "vitest";
import { redactBench } from "../../bench/redact-run.js";

describe("redact over a plan (bench smoke)", () => {
  it("masks each token of a 500-entry plan and measures", () => {
    const r = redactBench({ entries: 500, runs: 1 });
    // 5 glued tokens and 5 URL-encoded credentials, each in two values.
    expect(r.masks).toBe(20);
    for (const ms of [r.valueMs, r.textMs, r.spacedMs, r.cleanMs, r.adversarialMs])
      expect(Number.isFinite(ms)).toBe(true);
  });
});
