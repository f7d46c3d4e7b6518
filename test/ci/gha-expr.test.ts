/** The expression subset the workflow tests evaluate, against GitHub's documented rules. */
import { describe, expect, it } from "vitest";
import { condition, evaluate, interpolate, type ExprContext } from "./gha-expr.js";

const ctx = (status: ExprContext["status"] = "success"): ExprContext => ({
  contexts: {
    inputs: { mode: "plan", key: "default", "base-ref": "" },
    steps: { install: { outputs: {} } },
    github: { event: { pull_request: { base: { sha: "abc" } } } },
  },
  status,
  hashFiles: (p) => (p[0] === ".phctl/default/journal.jsonl" ? "h" : ""),
});

describe("GitHub Actions expressions (test emulation)", () => {
  it("compares strings case-insensitively and mixed types as numbers", () => {
    expect(evaluate("inputs.mode == 'PLAN'", ctx())).toBe(true);
    expect(evaluate("inputs.base-ref == null", ctx())).toBe(true);
    expect(evaluate("steps.install.outputs.skip != 'true'", ctx())).toBe(true);
    expect(evaluate("github.event.pull_request.base.sha", ctx())).toBe("abc");
  });

  it("runs a step after a failure only when its condition calls a status function", () => {
    expect(condition("inputs.mode == 'plan'", ctx("failure"))).toBe(false);
    expect(condition("always() && inputs.mode == 'plan'", ctx("failure"))).toBe(true);
    expect(condition(undefined, ctx("failure"))).toBe(false);
    expect(condition("${{ inputs.mode == 'apply' }}", ctx())).toBe(false);
  });

  it("interpolates, formats and hashes files; unknown syntax throws", () => {
    expect(interpolate("phctl-plan-${{ inputs.key }}", ctx())).toBe("phctl-plan-default");
    expect(evaluate("hashFiles(format('.phctl/{0}/journal.jsonl', inputs.key)) != ''", ctx())).toBe(true); // prettier-ignore
    expect(() => evaluate("contains(inputs.mode, 'p')", ctx())).toThrow(/not emulated/);
    expect(() => evaluate("vars.X", ctx())).toThrow(/unknown context/);
  });
});
