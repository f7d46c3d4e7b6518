/**
 * `phctl schema NAME` reaches every schema phctl publishes in schemas/ (the built CLI,
 * `npm run build` first): each file there is printed byte for byte by its name, and --help
 * and an unknown name list them all.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { phctl } from "../helpers/cli.js";

const ROOT = join(import.meta.dirname, "../..");
const published = readdirSync(join(ROOT, "schemas"))
  .filter((f) => /\.schema\.json$|\.yaml$/.test(f))
  .sort();
const nameOf = (file: string) => file.replace(/\.schema\.json$|\.yaml$/, "");

describe("phctl schema NAME", () => {
  it("schemas/ publishes the plan, the API profile and the API besides the manifests", () => {
    expect(published).toEqual(
      expect.arrayContaining(["plan.schema.json", "api-profile.schema.json", "openapi.yaml"]),
    );
  });

  for (const file of published)
    it(`prints schemas/${file} as ${nameOf(file)}`, async () => {
      const r = await phctl(["schema", nameOf(file)], {}, ROOT);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(readFileSync(join(ROOT, "schemas", file), "utf8"));
    });

  it("--help and an unknown name list every published schema", async () => {
    const help = await phctl(["schema", "--help"], {}, ROOT);
    const unknown = await phctl(["schema", "plans"], {}, ROOT);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /^phctl: no schema plans; expected one of .*\(did you mean plan\?\)\n$/,
    );
    for (const file of published) {
      expect(help.stdout).toContain(nameOf(file));
      expect(unknown.stderr).toContain(nameOf(file));
    }
  });
});
