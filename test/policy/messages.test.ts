/**
 * CEL errors a policy author can act on (issue 35, item 11): `and`/`or`/`not` and `=` from
 * other languages get the CEL spelling; an unknown variable lists the scope's variables; a huge
 * expression is never echoed whole; deep nesting is an error, not a stack overflow.
 */
import { describe, expect, it } from "vitest";
import { load, policy } from "./helpers.js";

const rule = (expression: string, scope = "object") =>
  policy(
    "p",
    `  select: { kind: Project }\n  scope: ${scope}\n  rules:\n    - name: r\n      expression: '${expression}'\n`,
  );

const only = (expression: string, scope?: string) => {
  const errors = load({ "p.yaml": rule(expression, scope) }).diagnostics.filter(
    (d) => d.severity === "error",
  );
  expect(errors).toHaveLength(1);
  return errors[0];
};

describe("CEL messages", () => {
  it("and, or, not and = get the CEL spelling", () => {
    expect(only('object.spec.title == "a" and true').hint).toBe("CEL writes and as &&");
    expect(only('object.spec.title == "a" or true').hint).toBe("CEL writes or as ||");
    expect(only('object.spec.title = "a"').hint).toBe("CEL compares with ==");
  });

  it("an unknown variable lists what the rule's scope reads", () => {
    expect(only('change.action == "create"').hint).toBe(
      "an object rule reads object, users, params",
    );
    expect(only('object.title == "x"', "change").hint).toBe("a change rule reads change, params");
  });

  it("a megabyte expression is shown as a window around the error, never whole", () => {
    const long = `object.spec.title == "${"x".repeat(1_000_000)}" = 1`;
    const d = only(long);
    expect(d.excerpt!.length).toBeLessThan(300);
    expect(d.excerpt).toContain("…");
    expect(d.message.length).toBeLessThan(300);
  });

  it("deep nesting is an error at load, not a stack overflow", () => {
    const d = only(`${"(".repeat(5000)}true${")".repeat(5000)}`);
    expect(d.message).toMatch(/Exceeded max/);
    expect(d.message).not.toMatch(/call stack/);
  });
});
