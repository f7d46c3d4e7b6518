import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { ANNOTATION_KEYWORDS } from "../../src/manifest/schema/common.js";
import {
  allSchemas,
  renderSchema,
  SCHEMA_FILES,
  type SchemaName,
} from "../../src/manifest/schema/index.js";
import { exampleFiles } from "./helpers.js";

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** An ajv that reads the committed-form JSON text, as an editor or CI tool would. */
function compile(name: SchemaName) {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addVocabulary([...ANNOTATION_KEYWORDS]);
  return ajv.compile(JSON.parse(renderSchema(name)) as object);
}

function walk(
  v: unknown,
  visit: (node: Record<string, unknown>, path: string) => void,
  path = "#",
): void {
  if (Array.isArray(v)) return v.forEach((x, i) => walk(x, visit, `${path}/${i}`));
  if (v === null || typeof v !== "object") return;
  visit(v as Record<string, unknown>, path);
  for (const [k, x] of Object.entries(v)) walk(x, visit, `${path}/${k}`);
}

describe("manifest JSON Schemas", () => {
  it("are draft 2020-12 with distinct $ids", () => {
    const ids = Object.entries(allSchemas()).map(([name, s]) => {
      expect(s.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(s.$id).toMatch(
        new RegExp(`/${SCHEMA_FILES[name as SchemaName].replace(/\./g, "\\.")}$`),
      );
      return s.$id;
    });
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("reject unknown keys in every object", () => {
    const { manifest, ...standalone } = allSchemas();
    const strict = (s: unknown, name: string) =>
      walk(s, (node, path) => {
        // An `if` is a condition (a tombstone's `$remove`, a layer's select.kind), not a shape.
        if (path.endsWith("/if") || /\/if\//.test(path)) return;
        if (node.type !== "object" && !("properties" in node)) return;
        // A map (labels: no properties, every key checked by propertyNames) gives the schema of
        // its values as additionalProperties; everything else is closed.
        const map = !("properties" in node) && "propertyNames" in node;
        if (map) expect(typeof node.additionalProperties, `${name} ${path}`).toBe("object");
        else expect(node.additionalProperties, `${name} ${path}`).toBe(false);
      });
    for (const [name, s] of Object.entries(standalone)) strict(s, name);
    // the dispatcher: its own top level, and every kind under $defs
    expect(manifest.additionalProperties).toBe(false);
    strict(manifest.$defs, "manifest");
  });

  it("have defaults that satisfy their own schemas", () => {
    const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
    let checked = 0;
    for (const s of Object.values(allSchemas()))
      walk(s, (node, path) => {
        if (!("default" in node)) return;
        const { default: dflt, ...rest } = node;
        expect(ajv.validate(rest, dflt), `${path}: ${JSON.stringify(dflt)}`).toBe(true);
        checked++;
      });
    expect(checked).toBeGreaterThan(20);
  });

  it("manifest.schema.json accepts every example document and phctl.yaml matches config", () => {
    const manifest = compile("manifest");
    const config = compile("config");
    let n = 0;
    for (const f of exampleFiles()) {
      for (const d of parseAllDocuments(String(f.content)) as unknown as { toJS(): unknown }[]) {
        const v = f.config ? config : manifest;
        expect(v(d.toJS()), `${f.file}: ${JSON.stringify(v.errors)}`).toBe(true);
        n++;
      }
    }
    expect(n).toBe(12);
  });

  it("manifest.schema.json dispatches on kind, so errors come from that kind only", () => {
    const v = compile("manifest");
    const project = {
      apiVersion: "phctl/v1",
      kind: "Project",
      metadata: { name: "p" },
      spec: { title: "P", git: { repositories: [{ name: "r", issueTraking: "enabled" }] } },
    };
    expect(v(project)).toBe(false);
    const paths = v
      .errors!.filter((e) => e.keyword !== "if")
      .map((e) => [e.instancePath, e.keyword]);
    expect(paths).toEqual([["/spec/git/repositories/0", "additionalProperties"]]);
    expect(v({ ...project, kind: "Projct" })).toBe(false);
    expect(v.errors!.map((e) => e.instancePath)).toEqual(["/kind"]);
  });
});
