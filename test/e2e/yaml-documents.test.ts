/**
 * YAML anchors and aliases across documents, as `phctl validate` reports them (the built
 * CLI): an alias names an anchor of its own document only (each `---` starts a new one), and
 * the one line says so at the alias — not the `yaml` library's "Merge sources must be maps"
 * nor an alias bomb at the document's start.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { phctl } from "../helpers/cli.js";

const tmp = mkdtempSync(join(tmpdir(), "phctl-yaml-docs-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const team = (name: string, services: string) =>
  `apiVersion: phctl/v1\nkind: Team\nmetadata: { name: ${name} }\nspec:\n  services:${services}\n  members: []\n`;

async function validate(content: string) {
  writeFileSync(join(tmp, "teams.yaml"), content);
  return phctl(["validate", "teams.yaml"], {}, tmp);
}

const ACROSS =
  "alias *svc names an anchor of another YAML document: anchors and aliases work only within one document (each --- starts a new one); repeat the values, or put them in the same document";

describe("an alias to an anchor of another document", () => {
  it("merged with <<: one line at the alias, naming documents", async () => {
    const r = await validate(
      `${team("t1", " &svc { gitservice: true }")}---\n${team("t2", "\n    <<: *svc\n    wiki: true")}`,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(`teams.yaml:13:9 ${ACROSS}\n1 error, 0 warnings in 1 file\n`);
  });

  it("as a value: the same line, not an alias bomb", async () => {
    const r = await validate(
      `${team("t1", " &svc { gitservice: true }")}---\n${team("t3", " *svc")}`,
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`teams.yaml:12:13 ${ACROSS}\n1 error, 0 warnings in 1 file\n`);
  });

  it("an alias whose anchor is nowhere, or comes after it, says that", async () => {
    const none = await validate(team("t1", " *nowhere"));
    expect(none.stdout).toBe(
      "teams.yaml:5:13 alias *nowhere has no anchor &nowhere in its YAML document (anchors and aliases work only within one document; each --- starts a new one)\n1 error, 0 warnings in 1 file\n",
    );
    const later = await validate(
      "apiVersion: phctl/v1\nkind: Team\nmetadata: { name: t1 }\nspec:\n  services: *s\n  members: []\nx: &s { wiki: true }\n",
    );
    expect(later.stdout).toMatch(
      /^teams\.yaml:5:13 alias \*s comes before its anchor &s \(line 7\): an anchor must come first\n/,
    );
  });
});
