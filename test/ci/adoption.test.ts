/**
 * examples/ copied into another repository, as the README tells a user to: it stays a
 * complete config directory. Every `$schema` modeline names a schema inside the copy (the
 * same text as schemas/ here, kept current by `npm run gen`), and its .gitignore keeps
 * phctl's state (`.phctl/`, wherever it sits) out of commits.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"; // prettier-ignore
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { copyExamples } from "../helpers/examples.js";

const ROOT = resolve(import.meta.dirname, "../..");
const MODELINE = /^# yaml-language-server: \$schema=(\S+)$/gm;

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) return e.startsWith(".") ? [] : yamlFiles(p);
    return e.endsWith(".yaml") ? [p] : [];
  });
}

/** examples/ copied to a fresh directory elsewhere, under a name of the user's. */
function copied(): string {
  const copy = join(mkdtempSync(join(tmpdir(), "phctl-adopt-")), "infra", "config");
  mkdirSync(dirname(copy), { recursive: true });
  copyExamples(copy);
  return copy;
}

describe("examples/ copied into another repository", () => {
  it("every modeline names a schema inside the copy, the same as phctl's", () => {
    const copy = copied();
    const schemas = new Set<string>();
    for (const file of yamlFiles(copy)) {
      // Policy test cases are phctl policy test's input, not manifests.
      if (file.endsWith(".policytest.yaml")) continue;
      const names = [...readFileSync(file, "utf8").matchAll(MODELINE)].map((m) => m[1]);
      expect(names.length, relative(copy, file)).toBeGreaterThan(0);
      for (const name of names) {
        const schema = resolve(dirname(file), name);
        expect(relative(copy, schema).startsWith(".."), `${relative(copy, file)}: ${name}`).toBe(false); // prettier-ignore
        expect(existsSync(schema), `${relative(copy, file)}: ${name}`).toBe(true);
        schemas.add(relative(copy, schema));
      }
    }
    expect([...schemas].sort()).toEqual(["schemas/config.schema.json", "schemas/manifest.schema.json"]); // prettier-ignore
    for (const s of schemas)
      expect(readFileSync(join(copy, s), "utf8"), s).toBe(readFileSync(join(ROOT, s), "utf8"));
  });

  it("its .gitignore keeps phctl's state out of commits, beside phctl.yaml or deeper", () => {
    const copy = copied();
    execFileSync("git", ["init", "-q", copy]);
    const state = [".phctl/default/journal.jsonl", "prod/.phctl/prod/journal.jsonl"];
    for (const f of state) {
      mkdirSync(dirname(join(copy, f)), { recursive: true });
      writeFileSync(join(copy, f), "{}\n");
    }
    const status = execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], {
      cwd: copy,
      encoding: "utf8",
    });
    expect(status).not.toContain(".phctl/");
    expect(status).toContain("phctl.yaml");
  });
});
