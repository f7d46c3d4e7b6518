/**
 * Every failing fixture under test/fixtures/manifests/cases gives exactly the diagnostics in
 * test/golden/manifest/<case>.txt (UPDATE_GOLDEN=1 rewrites them). Rule fixtures are named
 * rule-<rule>, and every schema keyword the manifests use has a fixture that trips it.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { collectDocuments, readInputs, ruleContext } from "../../src/manifest/load.js";
import { loadManifests } from "../../src/pipeline/load.js";
import { RULES } from "../../src/manifest/rules/index.js";
import { allSchemas } from "../../src/manifest/schema/index.js";
import { CASES, GOLDEN, render } from "./helpers.js";

const update = process.env.UPDATE_GOLDEN === "1";
const cases = readdirSync(CASES).sort();
const caseName = (entry: string) => entry.replace(/\.ya?ml$/, "");

const codesSeen = new Set<string>();

describe("golden diagnostics", () => {
  for (const entry of cases) {
    it(caseName(entry), async () => {
      const r = await loadManifests([join(CASES, entry)]);
      for (const d of r.diagnostics) codesSeen.add(d.code);
      const out = render(r);
      const golden = join(GOLDEN, `${caseName(entry)}.txt`);
      if (update) writeFileSync(golden, out);
      expect(out).toBe(readFileSync(golden, "utf8"));
      expect(r.diagnostics.length).toBeGreaterThan(0);
      const errors = r.diagnostics.some((d) => d.severity === "error");
      expect(r.state === undefined).toBe(errors);
    });
  }
});

describe("coverage of the fixtures", () => {
  for (const [name, rule] of Object.entries(RULES)) {
    it(`rule ${name} has a fixture it fails`, async () => {
      const entry = cases.find((c) => caseName(c) === `rule-${name}`);
      expect(entry, `missing fixture ${CASES}/rule-${name}`).toBeDefined();
      const { inputs } = await readInputs([join(CASES, entry!)], process.cwd());
      const collected = collectDocuments(inputs);
      // Rule fixtures pass their schemas: what they show is the rule's own diagnostics.
      expect(collected.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      expect(rule(ruleContext(collected)).length).toBeGreaterThan(0);
    });
  }

  /** Which diagnostic code proves a fixture trips each schema keyword. */
  const KEYWORD_CODES: Record<string, string> = {
    required: "missing-field",
    additionalProperties: "unknown-field",
    patternProperties: "wrong-type",
    enum: "invalid-value",
    const: "unknown-api-version",
    type: "wrong-type",
    pattern: "invalid-format",
    format: "invalid-format",
    minLength: "out-of-range",
    maxLength: "out-of-range",
    minimum: "out-of-range",
    maximum: "out-of-range",
    not: "not-allowed",
    anyOf: "wrong-type",
    propertyNames: "invalid-format",
    minItems: "out-of-range",
  };
  const ANNOTATIONS = new Set([
    "$schema",
    "$id",
    "$ref",
    "$defs",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "deprecationMessage",
    "patternErrorMessage",
    "errorMessage",
    "doNotSuggest",
    "examplesAreHints",
    "properties",
    "items",
    "allOf",
    "if",
    "then",
    "else",
  ]);

  it("every schema keyword in use has a failing fixture", async () => {
    const used = new Set<string>();
    const walk = (v: unknown, inProperties = false): void => {
      if (Array.isArray(v)) return v.forEach((x) => walk(x));
      if (v === null || typeof v !== "object") return;
      for (const [k, x] of Object.entries(v)) {
        if (!inProperties && !ANNOTATIONS.has(k)) used.add(k);
        // Values, not schemas: an example is a piece of a manifest.
        if (!inProperties && (k === "examples" || k === "default")) continue;
        walk(
          x,
          (k === "properties" || k === "$defs" || k === "patternProperties") && !inProperties,
        );
      }
    };
    for (const s of Object.values(allSchemas())) walk(s);
    expect([...used].filter((k) => !(k in KEYWORD_CODES))).toEqual([]);
    if (codesSeen.size === 0)
      for (const entry of cases)
        for (const d of (await loadManifests([join(CASES, entry)])).diagnostics)
          codesSeen.add(d.code);
    for (const [keyword, code] of Object.entries(KEYWORD_CODES))
      expect(codesSeen.has(code), `${keyword} → ${code}`).toBe(true);
    expect(existsSync(GOLDEN)).toBe(true);
  });
});
