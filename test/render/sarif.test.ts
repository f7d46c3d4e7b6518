/**
 * The SARIF log of `validate --format sarif` is valid SARIF 2.1.0 (the vendored OASIS schema,
 * test/fixtures/sarif/) and says what GitHub code scanning needs: a rule per check, each
 * result's level, message and line.
 */
import { describe, expect, it } from "vitest";
import type { PolicyViolation } from "../../src/engine/plan.js";
import type { Diagnostic } from "../../src/manifest/types.js";
import { diagnosticFinding, renderSarif, violationFinding } from "../../src/render/sarif.js";
import { sarifValidator } from "../helpers/sarif.js";

const diagnostic: Diagnostic = {
  severity: "error",
  code: "unknown-field",
  file: "projects/tf a.yaml",
  line: 4,
  column: 3,
  kind: "Project",
  name: "tf-a",
  message: "unknown field spec.visibilty",
  hint: "did you mean visibility?",
};

const violation = (over: Partial<PolicyViolation> = {}): PolicyViolation => ({
  policy: "two-admins",
  rule: "at-least-two",
  enforcement: "deny",
  scope: "object",
  key: "project/tf-a",
  kind: "Project",
  source: { file: "projects/tf a.yaml", line: 1, column: 1 },
  message: "project tf-a has 1 admin; at least 2 are required",
  ...over,
});

describe("validate --format sarif", () => {
  it("is valid SARIF 2.1.0 with diagnostics, denials, warnings and an object without a line", () => {
    const text = renderSarif(
      [
        diagnosticFinding(diagnostic),
        diagnosticFinding({ ...diagnostic, severity: "warning", code: "deprecated-service" }),
        violationFinding(violation()),
        violationFinding(violation({ enforcement: "warn", key: "project/tf-b" })),
        violationFinding(violation({ source: null, key: "user/ci-bot" })),
      ],
      "0.1.0",
    );
    const log = JSON.parse(text) as {
      version: string;
      runs: {
        tool: { driver: { name: string; rules: { id: string }[] } };
        results: { ruleId: string; ruleIndex: number; level: string; locations: any[] }[];
      }[];
    };
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const run = log.runs[0];
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual([
      "phctl/unknown-field",
      "phctl/deprecated-service",
      "policy/two-admins/at-least-two",
    ]);
    expect(run.results.map((r) => [r.ruleId, r.level, r.ruleIndex])).toEqual([
      ["phctl/unknown-field", "error", 0],
      ["phctl/deprecated-service", "warning", 1],
      ["policy/two-admins/at-least-two", "error", 2],
      ["policy/two-admins/at-least-two", "warning", 2],
      ["policy/two-admins/at-least-two", "error", 2],
    ]);
    expect(run.results[0].locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: "projects/tf%20a.yaml" },
      region: { startLine: 4, startColumn: 3 },
    });
    expect(run.results[4].locations[0]).toEqual({
      logicalLocations: [{ fullyQualifiedName: "user/ci-bot", kind: "object" }],
    });
  });

  it("the schema check is real: a log with a bad level is refused", () => {
    const log = JSON.parse(renderSarif([violationFinding(violation())], "0.1.0"));
    log.runs[0].results[0].level = "deny";
    expect(sarifValidator()(log)).toBe(false);
  });

  it("an empty log (nothing found) is valid too", () => {
    expect(sarifValidator()(JSON.parse(renderSarif([], "0.1.0")))).toBe(true);
  });
});
