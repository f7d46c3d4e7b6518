/**
 * `matches()` on RE2 (src/policy/re2.ts): what RE2 refuses is a load error at the pattern's
 * file:line:col when the pattern is a constant, "could not evaluate" otherwise; patterns that
 * take JavaScript's backtracking engine minutes answer at once; RE2's partial-match semantics.
 */
import { describe, expect, it } from "vitest";
import { evaluateObjects } from "../../src/policy/index.js";
import { matchesCalls, re2Matches, withRe2 } from "../../src/policy/re2.js";
import { evaluationEnv } from "../../src/policy/env.js";
import { load, NOW, policy, project } from "./helpers.js";

const rule = (expression: string, params = "") =>
  policy(
    "titles",
    `  select: { kind: Project }\n${params}  rules:\n    - name: t\n      expression: '${expression}'\n`,
  );

const errors = (files: Record<string, string>) =>
  load(files)
    .diagnostics.filter((d) => d.severity === "error")
    .map((d) => `${d.file}:${d.line}:${d.column} ${d.message}`);

describe("matches() on RE2", () => {
  it("a backreference in a literal pattern is a load error at its column", () => {
    const e = errors({ "p.yaml": rule('object.spec.title.matches("^(a+)+\\\\1$")') });
    expect(e).toHaveLength(1);
    // Line 8 is the expression's; the pattern starts after `      expression: 'object.spec.title.matches(`.
    expect(e[0]).toMatch(
      /^p\.yaml:8:46 rule t: expression: invalid RE2 pattern `\^\(a\+\)\+\\1\$`: invalid escape sequence: `\\1`: matches\(\) uses RE2 syntax, which has no backreferences/,
    );
  });

  it("lookahead and lookbehind are load errors too; a param's pattern is checked at load", () => {
    expect(errors({ "p.yaml": rule('object.spec.title.matches("(?=Pro)P")') })[0]).toMatch(
      /rule t: expression: invalid RE2 pattern .*no lookaround/,
    );
    expect(errors({ "p.yaml": rule('object.spec.title.matches("(?<!x)y")') })[0]).toMatch(
      /no lookaround/,
    );
    const viaParam = errors({
      "p.yaml": rule("object.spec.title.matches(params.p)", "  params: { p: '(\\w)\\1' }\n"),
    });
    expect(viaParam[0]).toMatch(
      /^p\.yaml:\d+:\d+ rule t: expression: invalid RE2 pattern .*backreferences/,
    );
  });

  it("a pattern from the object RE2 refuses: the rule could not evaluate (never a pass)", () => {
    const r = load({
      "p.yaml": rule("object.spec.title.matches(object.spec.description)"),
      "a.yaml": project("a", "  description: '(a)\\1'"),
      "b.yaml": project("b", "  description: '^T$'"),
    });
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const { violations } = evaluateObjects(r.policies, r.docs, NOW, { organization: "acme" });
    expect(violations.map((v) => [v.key, v.message.slice(0, 40)])).toEqual([
      ["project/a", "could not evaluate: invalid RE2 pattern "],
    ]);
  });

  it("a pattern that backtracks exponentially in JavaScript answers at once", () => {
    const r = load({
      "p.yaml": rule(
        'object.spec.title.matches("^([A-Za-z]+ ?)+$") && !object.spec.title.matches("^(a|a)+$")',
      ),
      "a.yaml": project("a", "").replace("title: T", `title: ${"a".repeat(5_000)}!`),
    });
    const started = performance.now();
    const { violations } = evaluateObjects(r.policies, r.docs, NOW, { organization: "acme" });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(violations.map((v) => v.key)).toEqual(["project/a"]);
  });

  it("partial match as CEL and RE2 define it; the rename keeps every offset", () => {
    expect(re2Matches("Trusted Firmware", "Firm")).toBe(true);
    expect(re2Matches("Trusted Firmware", "^Firm")).toBe(false);
    expect(re2Matches("ünïcode", "^\\pL+$")).toBe(true);
    const text = 'a.matches("x") || "matches(".matches ( b ) || c.size() > 0';
    const calls = matchesCalls(evaluationEnv().parse(text).ast, text);
    expect(calls.map((c) => c.nameAt)).toEqual([2, 29]);
    const renamed = withRe2(text, calls);
    expect(renamed).toBe('a.re2test("x") || "matches(".re2test ( b ) || c.size() > 0');
    expect(renamed.length).toBe(text.length);
  });
});

describe("the cost limit counts params lists", () => {
  const nested = (levels: number) =>
    `${Array.from({ length: levels }, (_, i) => `params.names.all(x${i}, `).join("")}true${")".repeat(levels)}`;
  const names = `  params: { names: [${Array.from({ length: 200 }, (_, i) => `n${i}`).join(", ")}] }\n`;

  it("three nested all over a 200-item param list is a load error naming the rule's cost", () => {
    const e = errors({ "p.yaml": rule(nested(3), names) });
    expect(e).toHaveLength(1);
    expect(e[0]).toMatch(
      /^p\.yaml:\d+:\d+ rule t: over the evaluation cost limit on its params alone \([\d,]+ > 1,000,000 steps\)$/,
    );
  });

  it("one level over the same list is fine", () => {
    expect(errors({ "p.yaml": rule(nested(1), names) })).toEqual([]);
  });
});
