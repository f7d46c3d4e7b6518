/**
 * Smoke run of the change-rules benchmark (bench/policy-plan.ts) at size S, once: the same
 * manifests planned without and with 20 change rules (four policies) against a seeded
 * server in a child process; both plans are empty (in sync), the rules are loaded and break
 * nothing, and the overhead is a number. The figure itself is the benchmark's (size M).
 */
import { describe, expect, it } from "vitest";
import { changePolicies, policyPlanBench } from "../../bench/policy-plan-run.js";
import { loadManifestTexts } from "../../src/pipeline/load.js";

describe("change rules on a no-change plan (bench smoke)", () => {
  it("the generated policies load without a diagnostic: 20 rules in four policies", () => {
    const r = loadManifestTexts([
      { file: "phctl.yaml", content: "organization: acme\n", config: true },
      { file: "policies.yaml", content: changePolicies(20) },
    ]);
    expect(r.diagnostics.filter((d) => d.code !== "policy-selects-nothing")).toEqual([]);
    expect(r.policies?.map((p) => p.rules.length)).toEqual([5, 5, 5, 5]);
  });

  it("plans size S without and with the rules: empty plans, the rules loaded, an overhead", async () => {
    const r = await policyPlanBench({ size: "S", rules: 20, runs: 1, latency: 0, concurrency: 8 });
    expect(r.without).toMatchObject({ entries: 0, violations: 0, policies: 0 });
    expect(r.with).toMatchObject({ entries: 0, violations: 0, policies: 4 });
    expect(Number.isFinite(r.overheadPlan)).toBe(true);
    expect(r.with.planMs).toBeGreaterThan(0);
  }, 60_000);
});
