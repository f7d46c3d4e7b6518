/**
 * Which policy exceptions a change adds or extends (`plan --base`, the comment's call-out):
 * new ones, later ends; not removed, shortened, reworded or moved ones.
 */
import { describe, expect, it } from "vitest";
import { exceptionChanges, type PolicyWithExceptions } from "../../src/engine/policy-exceptions.js";

const x = (over: Partial<PolicyWithExceptions["exceptions"][number]> = {}) => ({
  key: "project/legacy-*",
  reason: "wound down in Q3",
  expires: "2026-12-31",
  approvedBy: "security-team",
  source: { file: "policies/admins.yaml", line: 12, column: 7 },
  ...over,
});
const policy = (name: string, ...exceptions: ReturnType<typeof x>[]) => ({ name, exceptions });

describe("exceptions a change adds or extends", () => {
  it("nothing when the exceptions are the same, removed, shortened or only reworded", () => {
    const base = [policy("two-admins", x(), x({ key: "project/old" }))];
    expect(exceptionChanges(base, base)).toBeUndefined();
    expect(exceptionChanges(base, [policy("two-admins", x())])).toBeUndefined();
    expect(exceptionChanges(base, [policy("two-admins", x({ expires: "2026-10-01" }))])).toBeUndefined(); // prettier-ignore
    expect(exceptionChanges(base, [policy("two-admins", x({ reason: "other words", approvedBy: "cto" }))])).toBeUndefined(); // prettier-ignore
  });

  it("a new exception (another key, another policy, other rules) is added", () => {
    const base = [policy("two-admins", x())];
    const head = [
      policy("two-admins", x(), x({ key: "project/tf-m" }), x({ rules: ["at-least-two"] })),
      policy("license", x()),
    ];
    const c = exceptionChanges(base, head)!;
    expect(c.extended).toEqual([]);
    expect(c.added.map((a) => [a.policy, a.key, a.rules])).toEqual([
      ["two-admins", "project/tf-m", undefined],
      ["two-admins", "project/legacy-*", ["at-least-two"]],
      ["license", "project/legacy-*", undefined],
    ]);
    expect(c.added[0]).toEqual({
      policy: "two-admins",
      key: "project/tf-m",
      reason: "wound down in Q3",
      expires: "2026-12-31",
      approvedBy: "security-team",
      source: { file: "policies/admins.yaml", line: 12, column: 7 },
    });
  });

  it("a later end extends it, naming the former end; the rules' order does not matter", () => {
    const base = [policy("two-admins", x({ rules: ["a", "b"] }))];
    const head = [policy("two-admins", x({ rules: ["b", "a"], expires: "2027-06-30" }))];
    const c = exceptionChanges(base, head)!;
    expect(c.added).toEqual([]);
    expect(c.extended).toEqual([
      expect.objectContaining({ expires: "2027-06-30", previousExpires: "2026-12-31" }),
    ]);
  });
});
