import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/manifest/diagnostics.js";
import { load, policy } from "./helpers.js";

describe("compilePolicies", () => {
  it("compiles and type-checks a rule against the kind's schema", () => {
    const r = load({
      "p.yaml": policy(
        "admins",
        "  select: { kind: Project }\n  rules:\n    - name: two\n      expression: size(object.spec.access.admins.users) >= 2\n",
      ),
    });
    expect(r.diagnostics).toEqual([]);
    expect(
      r.policies.map((p) => [p.name, p.scope, p.enforcement, p.rules.map((x) => x.name)]),
    ).toEqual([["admins", "object", "deny", ["two"]]]);
  });

  it("a misspelled field is an error at its file:line:col with a caret and did-you-mean", () => {
    const r = load({
      "p.yaml": policy(
        "typo",
        '  select: { kind: Project }\n  rules:\n    - name: vis\n      expression: object.spec.visibilty == "public"\n',
      ),
    });
    expect(r.policies).toEqual([]);
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([
      'p.yaml:8:31 Policy typo: rule vis: expression: No such key: visibilty (did you mean visibility?)\n    object.spec.visibilty == "public"\n                ^^^^^^^^^',
    ]);
  });

  it("places errors inside a block scalar on the right line", () => {
    const r = load({
      "p.yaml": policy(
        "block",
        "  select: { kind: Repository }\n  rules:\n    - name: fork\n      expression: |\n        object.enableForking ==\n          object.enableLFSS\n",
      ),
    });
    expect(r.diagnostics.map((d) => [d.line, d.column, d.hint])).toEqual([
      [10, 18, "did you mean enableLFS?"],
    ]);
  });

  it("syntax errors, non-bool expressions and unknown params are errors", () => {
    const r = load({
      "p.yaml": policy(
        "bad",
        "  select: { kind: User }\n  params: { min: 2 }\n  rules:\n    - name: syntax\n      expression: object.spec.role ==\n    - name: notbool\n      expression: object.spec.role\n    - name: param\n      expression: object.spec.role == params.mni\n",
      ),
    });
    expect(
      r.diagnostics.map((d) => `${d.line}:${d.message}${d.hint ? ` (${d.hint})` : ""}`),
    ).toEqual([
      "9:rule syntax: expression: Unexpected token: EOF",
      "11:rule notbool: expression gives string; it must give a bool",
      "13:rule param: expression: No such key: mni (did you mean min?)",
    ]);
  });

  it("rejects an enforcement other than deny/ratchet/warn, and exceptions without reason or expires", () => {
    const r = load({
      "p.yaml": policy(
        "bad",
        "  select: { kind: User }\n  enforcement: audit\n  rules: [{ name: r, expression: 'true' }]\n  exceptions:\n    - { key: user/a, expires: 2026-07-01, approvedBy: sec }\n    - { key: user/b, reason: r, approvedBy: sec }\n",
      ),
    });
    expect(r.schema.map((d) => `${d.line}:${d.message}`)).toEqual([
      "6:spec.enforcement must be one of deny, ratchet, warn",
      expect.stringMatching(/^9:.*reason/),
      expect.stringMatching(/^10:.*expires/),
    ]);
  });

  it("a malformed date and an unknown rule in an exception are errors; a binding of another kind too", () => {
    const r = load({
      "p.yaml": policy(
        "bad",
        "  select: { kind: User }\n  bindings: [{ select: { kind: Team }, enforcement: warn }]\n  rules: [{ name: r, expression: 'true' }]\n  exceptions:\n    - { key: user/a, reason: r, expires: 2026-02-30, approvedBy: sec }\n    - { key: user/b, rules: [q], reason: r, expires: 2027-01-01, approvedBy: sec }\n",
      ),
    });
    expect(r.diagnostics.map((d) => `${d.line}:${d.message}`)).toEqual([
      "6:a binding selects Team, the policy User",
      "9:expires: 2026-02-30 is not a date",
      "10:the exception names rule q, which the policy does not have",
    ]);
    expect(r.policies).toEqual([]);
  });

  it("warns of exceptions that expired or expire within 14 days", () => {
    const r = load({
      "p.yaml": policy(
        "ex",
        "  select: { kind: User }\n  rules: [{ name: r, expression: 'true' }]\n  exceptions:\n    - { key: user/a, reason: r, expires: 2026-05-31, approvedBy: sec }\n    - { key: user/b, reason: r, expires: 2026-06-14, approvedBy: sec }\n    - { key: user/c, reason: r, expires: 2026-06-16, approvedBy: sec }\n",
      ),
    });
    expect(r.diagnostics.map((d) => `${d.severity} ${d.line}:${d.message}`)).toEqual([
      "warning 8:the exception for user/a expired on 2026-05-31: it no longer counts",
      "warning 9:the exception for user/b expires on 2026-06-14 (approved by sec)",
    ]);
    expect(r.policies[0].exceptions.map((e) => e.status)).toEqual([
      "expired",
      "expiring",
      "active",
    ]);
  });
});
