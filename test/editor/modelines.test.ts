/**
 * Every document phctl ships or writes carries its own `# yaml-language-server: $schema=…`
 * line, read the way yaml-language-server reads it (its own parser: a modeline counts for the
 * document it heads only): the examples, the files `phctl export` writes, and the files
 * `drift --adopt` edits in place (removing a document keeps one on every other). The loader's
 * fast reader takes such files as they are.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { FileText } from "../../src/adopt/file-text.js";
import type { ExportDocument } from "../../src/export/documents.js";
import { layout } from "../../src/export/layout.js";
import { readFast } from "../../src/manifest/fast-read.js";
import { loadManifestTexts } from "../../src/pipeline/load.js";

const require = createRequire(import.meta.url);
const LS = "yaml-language-server/out/server/src/languageservice";
const { parse } = require(`${LS}/parser/yamlParser07.js`) as {
  parse: (text: string) => { documents: unknown[] };
};
const { getSchemaFromModeline } = require(`${LS}/services/modelineUtil.js`) as {
  getSchemaFromModeline: (doc: unknown) => string | undefined;
};

/** The schema each document of `text` gets from its modeline (undefined: none). */
const schemasPerDocument = (text: string) => parse(text).documents.map(getSchemaFromModeline);

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) return yamlFiles(p);
    return e.endsWith(".yaml") ? [p] : [];
  });
}

/** Every document of `text` (a file at `file`) names an existing schema file: `schema`. */
function expectModelines(file: string, text: string, schema: string): number {
  const schemas = schemasPerDocument(text);
  expect(schemas.length, file).toBeGreaterThan(0);
  for (const s of schemas) {
    expect(s, `${file}: a document without a modeline`).toBeDefined();
    expect(resolve(dirname(file), s!), file).toBe(resolve(schema));
  }
  return schemas.length;
}

describe("modelines", () => {
  it("head every document of every example", () => {
    let docs = 0;
    for (const file of yamlFiles("examples")) {
      // Policy test cases are phctl policy test's input, not manifests.
      if (file.endsWith(".policytest.yaml")) continue;
      const text = readFileSync(file, "utf8");
      const schema = file.endsWith("phctl.yaml")
        ? "examples/schemas/config.schema.json"
        : "examples/schemas/manifest.schema.json";
      expect(existsSync(schema)).toBe(true);
      docs += expectModelines(file, text, schema);
      // the fast reader takes them, with one document per document
      expect(readFast(file, text)?.length, file).toBe(schemasPerDocument(text).length);
    }
    expect(docs).toBeGreaterThan(10);
  });

  it("head every document phctl export writes", () => {
    const user = (name: string): ExportDocument => ({
      kind: "User",
      name,
      value: {
        apiVersion: "phctl/v1",
        kind: "User",
        metadata: { name },
        spec: { firstName: "A", lastName: "B", externalEmail: `${name}@example.org` },
      },
      comments: [{ path: ["spec", "firstName"], text: "a comment" }],
    });
    const project = (name: string): ExportDocument => ({
      kind: "Project",
      name,
      value: { apiVersion: "phctl/v1", kind: "Project", metadata: { name }, spec: { title: name } },
      comments: [],
    });
    const docs = {
      organizations: [],
      users: [user("ann"), user("bob"), user("cy")],
      teams: [],
      projects: [project("p1"), project("p2")],
      warnings: [],
    };
    for (const split of ["per-kind", "per-project"] as const) {
      const files = layout(docs, { organization: "acme", parent: "acme", split });
      const manifests = files.filter((f) => f.holds !== "schema");
      expect(manifests.length).toBe(split === "per-kind" ? 3 : 4);
      const out = "/out";
      for (const f of manifests) {
        const schema = f.holds === "config" ? "config.schema.json" : "manifest.schema.json";
        const n = expectModelines(join(out, f.path), f.text, join(out, "schemas", schema));
        expect(n).toBe(f.holds === "config" ? 1 : f.names.length);
      }
      // and they load as they did
      const r = loadManifestTexts(
        manifests.map((f) => ({ file: f.path, content: f.text, config: f.holds === "config" })),
      );
      expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      expect(r.state?.users.map((u) => u.username)).toEqual(["ann", "bob", "cy"]);
    }
  });

  it("stay on every document drift --adopt keeps when it removes one", () => {
    const file = "examples/users/acme.yaml";
    const text = readFileSync(file, "utf8");
    const schema = relative(".", "examples/schemas/manifest.schema.json");
    for (const removed of ["User/jdoe", "User/asmith", "User/bwong"]) {
      const f = new FileText(file, text);
      f.apply(removed, { op: "removeDocument" });
      const after = f.text()!;
      expect(expectModelines(file, after, schema)).toBe(2);
      expect(after).not.toContain(`name: ${removed.split("/")[1]}\n`);
    }
    // an edit in place leaves them as they were
    const f = new FileText(file, text);
    f.apply("User/asmith", { op: "set", path: ["spec", "lastName"], value: "Smythe" });
    f.check();
    expect(expectModelines(file, f.text()!, schema)).toBe(3);
  });
});
