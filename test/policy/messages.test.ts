/**
 * CEL errors a policy author can act on (issue 35, item 11): `and`/`or`/`not` and `=` from
 * other languages get the CEL spelling; an unknown variable lists the scope's variables; a huge
 * expression is never echoed whole; deep nesting is an error, not a stack overflow.
 */
import { describe, expect, it } from "vitest";
import { evaluateObjects } from "../../src/policy/index.js";
import { load, NOW, policy, project } from "./helpers.js";

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
    expect(only('object.title == "x"', "change").hint).toBe(
      "a change rule reads change, users, params",
    );
  });

  it("a megabyte expression is shown as a window around the error, never whole", () => {
    const long = `object.spec.title == "${"x".repeat(1_000_000)}" = 1`;
    const d = only(long);
    expect(d.excerpt!.length).toBeLessThan(300);
    expect(d.excerpt).toContain("…");
    expect(d.message.length).toBeLessThan(300);
  });

  it("deep nesting is an error at load at its column, not a stack overflow", () => {
    const d = only(`${"(".repeat(5000)}true${")".repeat(5000)}`);
    expect(d.message).toBe("rule r: expression: nested too deeply, at most 64 levels");
    // The expression starts at column 20 (after the quote); inside 64 parentheses is too deep.
    expect([d.line, d.column]).toEqual([9, 20 + 64]);
    for (const op of ["!", "-"]) {
      const e = only(`${op.repeat(100_000)}true`);
      expect(e.message).toBe("rule r: expression: nested too deeply, at most 64 levels");
      // The 64th operator in a row.
      expect([e.line, e.column]).toEqual([9, 20 + 63]);
      expect(e.excerpt!.length).toBeLessThan(300);
    }
    // A run in a string literal or a comment is no nesting; 63 in a row are allowed.
    const fine = load({
      "p.yaml": rule(`object.spec.title != "${"!".repeat(100)}" && ${"!".repeat(62)}true`),
    });
    expect(fine.diagnostics).toEqual([]);
  });

  it("a huge key, variable or pattern is never echoed whole in the message", () => {
    const M = "a".repeat(200_000);
    for (const e of [
      `object.spec.${M} == "x"`,
      `${M} == "x"`,
      `object.spec.title.matches("(${M}")`,
    ]) {
      const d = only(e);
      expect(d.message.length).toBeLessThan(400);
      expect(d.excerpt!.length).toBeLessThan(300);
    }
  });

  it("an index out of range names the index and the list's real size", () => {
    const r = load({
      "p.yaml": policy(
        "p",
        "  select: { kind: Project }\n  params: { none: [], two: [a, b] }\n  rules:\n" +
          "    - { name: repo, expression: 'object.spec.git.repositories[5].name != \"\"' }\n" +
          "    - { name: lic, expression: 'object.spec.licenses[0] != \"\"' }\n" +
          "    - { name: none, expression: 'params.none[0] != \"\"' }\n" +
          "    - { name: two, expression: 'params.two[2] != \"\"' }\n",
      ),
      "a.yaml": project("a", "  licenses: []\n  git:\n    repositories:\n      - name: r1\n"),
    });
    expect(r.diagnostics).toEqual([]);
    const v = evaluateObjects(r.policies, r.docs, NOW, { organization: "acme" }).violations;
    expect(v.map((x) => [x.rule, x.message])).toEqual([
      ["repo", "could not evaluate: index 5 is out of range: the list has 1 item (index 0 to 0)"],
      ["lic", "could not evaluate: index 0 is out of range: the list is empty"],
      ["none", "could not evaluate: index 0 is out of range: the list is empty"],
      ["two", "could not evaluate: index 2 is out of range: the list has 2 items (index 0 to 1)"],
    ]);
  });

  it("an evaluation error never echoes a huge key", () => {
    const M = "k".repeat(200_000);
    const r = load({
      "p.yaml": rule(`object.metadata.labels["${M}"] == "x"`),
      "a.yaml": project("a", ""),
    });
    const v = evaluateObjects(r.policies, r.docs, NOW, { organization: "acme" }).violations;
    expect(v).toHaveLength(1);
    expect(v[0].message.length).toBeLessThan(400);
  });
});
