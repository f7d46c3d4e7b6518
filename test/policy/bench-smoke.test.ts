import { expect, it } from "vitest";
import { measure } from "../../bench/policy-rules.js";

it("the policy benchmark's 20 rules compile and run at size S", () => {
  const r = measure("S", 1);
  expect(r.shape.projects).toBe(50);
  expect(r.policy).toBeLessThan(5);
  // Every rule evaluates on the generated organization (none fails closed).
  expect(r.unevaluated).toBe(0);
});
