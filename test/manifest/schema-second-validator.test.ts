/**
 * The published JSON Schemas (schemas/, examples/schemas/) read by a second validator,
 * independent of the ajv phctl is built on: @cfworker/json-schema. Editors, pre-commit hooks
 * (check-jsonschema, on Python's jsonschema) and CI tools read these files, not phctl's
 * validator, so a construct only ajv reads as meant would reject valid manifests there. One
 * such construct is named outright: `patternProperties` with an empty pattern beside
 * `additionalProperties: false` (Python's jsonschema treats no key as matched by "", so every
 * label was "additional").
 */
import { Validator, type Schema } from "@cfworker/json-schema";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";

const PUBLISHED = ["schemas", "examples/schemas"];

const schemaFiles = () =>
  PUBLISHED.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith(".schema.json"))
      .map((f) => join(dir, f)),
  );

const readSchema = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Schema;

/** A validator of one published schema, as a tool outside phctl would build it. */
const validatorOf = (file: string) => new Validator(readSchema(file), "2020-12", false);

/** Every manifest under `dir` as the loader finds them: policy test cases and dot-dirs aside. */
function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name) && !e.name.includes(".policytest."))
    .map((e) => join(e.parentPath, e.name))
    .filter((f) => !f.split("/").some((part) => part.startsWith(".")))
    .sort();
}

const documentsOf = (file: string) =>
  parseAllDocuments(readFileSync(file, "utf8")).map((d) => d.toJS() as unknown);

const errorsOf = (r: { errors: { instanceLocation: string; error: string }[] }) =>
  r.errors.map((e) => `${e.instanceLocation}: ${e.error}`).join("\n");

function walk(
  v: unknown,
  visit: (node: Record<string, unknown>, path: string) => void,
  path = "#",
) {
  if (Array.isArray(v)) return v.forEach((x, i) => walk(x, visit, `${path}/${i}`));
  if (v === null || typeof v !== "object") return;
  visit(v as Record<string, unknown>, path);
  for (const [k, x] of Object.entries(v)) walk(x, visit, `${path}/${k}`);
}

const labelled = {
  apiVersion: "phctl/v1",
  kind: "Project",
  metadata: { name: "p", labels: { tier: "critical", "acme.example/owner": "firmware" } },
  spec: { title: "P" },
};

describe("the published JSON Schemas, read by a second validator (@cfworker/json-schema)", () => {
  it("hold no patternProperties with an empty pattern (Python's jsonschema skips it)", () => {
    const files = schemaFiles();
    expect(files.length).toBeGreaterThanOrEqual(10);
    const empty: string[] = [];
    for (const file of files)
      walk(readSchema(file), (node, path) => {
        const pp = node.patternProperties;
        if (pp && typeof pp === "object" && "" in pp) empty.push(`${file} ${path}`);
      });
    expect(empty).toEqual([]);
  });

  it("accept every document of the example config, each against manifest.schema.json and its kind's own", () => {
    for (const dir of PUBLISHED) {
      const manifest = validatorOf(join(dir, "manifest.schema.json"));
      const config = validatorOf(join(dir, "config.schema.json"));
      let n = 0;
      for (const file of yamlFiles("examples")) {
        for (const doc of documentsOf(file)) {
          const v = file.endsWith("phctl.yaml") ? config : manifest;
          const r = v.validate(doc);
          expect(r.valid, `${dir}: ${file}: ${errorsOf(r)}`).toBe(true);
          n++;
        }
      }
      // phctl.yaml, 1 Organization, 2 Teams, 5 Users, 3 Projects, 3 Defaults, 8 Policies
      expect(n).toBe(23);
    }
    for (const file of yamlFiles("examples"))
      for (const doc of documentsOf(file)) {
        const kind = (doc as { kind?: string }).kind;
        if (kind === undefined) continue;
        const own = validatorOf(`schemas/${kind.toLowerCase()}.schema.json`);
        const r = own.validate(doc);
        expect(r.valid, `${file} (${kind}): ${errorsOf(r)}`).toBe(true);
      }
  });

  it("accept labelled manifests of every kind, and still reject a bad label and an unknown key", () => {
    const manifest = validatorOf("schemas/manifest.schema.json");
    const labels = labelled.metadata.labels;
    const docs = [
      labelled,
      {
        apiVersion: "phctl/v1",
        kind: "User",
        metadata: { name: "jdoe", labels },
        spec: { firstName: "J", lastName: "D", externalEmail: "j@example.org" },
      },
      {
        apiVersion: "phctl/v1",
        kind: "Defaults",
        metadata: { name: "d", labels },
        spec: { select: { kind: "Project", matchLabels: labels }, values: {} },
      },
    ];
    for (const d of docs) {
      const r = manifest.validate(d);
      expect(r.valid, `${d.kind}: ${errorsOf(r)}`).toBe(true);
    }
    const project = validatorOf("schemas/project.schema.json");
    expect(project.validate(labelled).valid).toBe(true);

    const badValue = { ...labelled, metadata: { name: "p", labels: { tier: "not ok!" } } };
    const badKey = { ...labelled, metadata: { name: "p", labels: { "-tier": "critical" } } };
    const unknown = { ...labelled, spec: { title: "P", titel: "typo" } };
    for (const bad of [badValue, badKey, unknown]) {
      expect(manifest.validate(bad).valid, JSON.stringify(bad)).toBe(false);
      expect(project.validate(bad).valid, JSON.stringify(bad)).toBe(false);
    }
  });
});
