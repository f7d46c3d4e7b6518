/**
 * `phctl validate` and `phctl schema` end to end: the built CLI (`node dist/cli/main.js`;
 * `npm run build` first). No server: validate never touches the network.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const MAIN = join(ROOT, "dist/cli/main.js");
const TYPO = "test/fixtures/manifests/e2e/typo";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

function phctl(args: string[], cwd = ROOT): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MAIN, ...args],
      { cwd, env: { PATH: process.env.PATH, NO_COLOR: "1" }, timeout: 20_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        resolve({ code, stdout, stderr, ms: Date.now() - started });
      },
    );
  });
}

const tmp = mkdtempSync(join(tmpdir(), "phctl-validate-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("phctl validate", () => {
  it("accepts the examples: exit 0 and a clean summary", async () => {
    const r = await phctl(["validate", "examples/"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("0 errors, 0 warnings in 13 files\n");
    expect(r.code).toBe(0);
  });

  it("validates the current directory by default", async () => {
    const r = await phctl(["validate"], join(ROOT, "examples"));
    expect(r.stdout).toBe("0 errors, 0 warnings in 13 files\n");
    expect(r.code).toBe(0);
  });

  it("points at a misspelt field with file:line:col and a suggestion: exit 1", async () => {
    const r = await phctl(["validate", TYPO]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      `${TYPO}/project.yaml:12:9 Project trusted-firmware-a: spec.git.repositories[0].issueTraking is not a known field (did you mean issueTracking?)\n` +
        "1 error, 0 warnings in 1 file\n",
    );
  });

  it("prints every diagnostic, errors and warnings, then counts them", async () => {
    writeFileSync(
      join(tmp, "two.yaml"),
      [
        "apiVersion: phctl/v1\nkind: User\nmetadata: { name: jdoe }",
        "spec: { firstName: J, lastName: D, externalEmail: j@example.org, services: { irc: {} } }",
        "---\napiVersion: phctl/v1\nkind: Team\nmetadata: { name: t }\nspec: { memebrs: [] }",
        "---\napiVersion: phctl/v1\nkind: Projct\nmetadata: { name: p }\n",
      ].join("\n"),
    );
    const r = await phctl(["validate", "two.yaml"], tmp);
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split("\n")).toEqual([
      "two.yaml:4:78 warning: User jdoe: spec.services.irc: irc accounts are deprecated by the service (API 2026-02); they still work",
      "two.yaml:9:9 Team t: spec.memebrs is not a known field (did you mean members?)",
      'two.yaml:12:7 unknown kind "Projct"; expected one of Organization, User, Team, Project, Defaults, Policy (did you mean Project?)',
      "2 errors, 1 warning in 1 file",
    ]);
  });

  it("--format json gives {diagnostics, summary} for CI", async () => {
    const r = await phctl(["validate", TYPO, "--format", "json"]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { diagnostics: unknown[]; summary: unknown };
    expect(out.summary).toEqual({
      errors: 1,
      warnings: 0,
      files: 1,
      policy: { denied: 0, warnings: 0, excepted: 0 },
    });
    expect(out.diagnostics).toEqual([
      {
        severity: "error",
        code: "unknown-field",
        file: `${TYPO}/project.yaml`,
        line: 12,
        column: 9,
        kind: "Project",
        name: "trusted-firmware-a",
        path: "spec.git.repositories[0].issueTraking",
        message: "spec.git.repositories[0].issueTraking is not a known field",
        hint: "did you mean issueTracking?",
      },
    ]);
  });

  it("--format github writes workflow annotations", async () => {
    const r = await phctl(["validate", TYPO, "--format", "github"]);
    expect(r.stdout.split("\n")[0]).toBe(
      `::error file=${TYPO}/project.yaml,line=12,col=9,title=unknown-field::Project trusted-firmware-a: spec.git.repositories[0].issueTraking is not a known field (did you mean issueTracking?)`,
    );
  });

  it("stops an alias bomb fast, with a diagnostic", async () => {
    const r = await phctl(["validate", "test/fixtures/manifests/cases/loader-alias-bomb.yaml"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      "loader-alias-bomb.yaml:2:1 aliases expand too much (more than 100 expansions); refusing a possible alias bomb",
    );
    expect(r.ms).toBeLessThan(10_000);
  });

  it("a path that does not exist is one line on stderr, exit 1, no stack trace", async () => {
    const r = await phctl(["validate", "no/such/dir"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("phctl: no/such/dir: no such file or directory\n");
  });

  it("refuses an unknown --format", async () => {
    const r = await phctl(["validate", "examples", "--format", "xml"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("phctl: --format must be one of text, json, github, sarif (got xml)\n");
  });
});

describe("phctl validate with an API profile (apiProfile: in phctl.yaml)", () => {
  /** A config directory whose phctl.yaml names `profile.yaml` holding `profile`. */
  function config(name: string, profile: string): string {
    const dir = join(tmp, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "phctl.yaml"), "organization: acme\napiProfile: profile.yaml\n");
    writeFileSync(join(dir, "profile.yaml"), profile);
    return dir;
  }

  it("checks the profile beside the manifests: a bad one is an error at its line", async () => {
    const dir = config("bad-profile", "envelope:\n  list:\n    itemz: items\n");
    const r = await phctl(["validate", "."], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^profile\.yaml:3:5 .*itemz/);
    expect(r.stdout).toMatch(/\n1 error, 0 warnings in 2 files\n$/);
  });

  it("says which file it cannot read", async () => {
    const dir = config("missing-profile", "");
    rmSync(join(dir, "profile.yaml"));
    const r = await phctl(["validate", "."], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("profile.yaml:1:1 cannot read the API profile (ENOENT)");
  });

  it("accepts a good profile", async () => {
    const { readFileSync } = await import("node:fs");
    const good = readFileSync(join(ROOT, "test/fixtures/api-profiles/shaped.yaml"), "utf8");
    const r = await phctl(["validate", "."], config("good-profile", good));
    expect(r.stdout).toBe("0 errors, 0 warnings in 2 files\n");
    expect(r.code).toBe(0);
  });
});

describe("phctl schema", () => {
  it("prints the manifest schema by default and one kind on request", async () => {
    const all = await phctl(["schema"]);
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout)).toMatchObject({
      $id: expect.stringMatching(/manifest\.schema\.json$/),
    });
    const project = await phctl(["schema", "Project"]);
    expect(JSON.parse(project.stdout)).toMatchObject({ title: "phctl Project" });
    const config = await phctl(["schema", "phctl.yaml"]);
    expect(JSON.parse(config.stdout)).toMatchObject({ title: "phctl.yaml" });
  });

  it("names the schemas there are when asked for another", async () => {
    const r = await phctl(["schema", "projct"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "phctl: no schema projct; expected one of manifest, config, organization, user, team, project, defaults, policy, plan, report, live, api-profile, openapi (did you mean project?)\n",
    );
  });
});

describe("phctl validate DIR with symbolic links", () => {
  const org = "apiVersion: phctl/v1\nkind: Organization\nmetadata: { name: o }\n";

  it("a dangling x.yaml is one line naming it, exit 1, no stack trace", async () => {
    mkdirSync(join(tmp, "dangling"));
    writeFileSync(join(tmp, "dangling/a.yaml"), org);
    symlinkSync("missing.yaml", join(tmp, "dangling/x.yaml"));
    const r = await phctl(["validate", "dangling"], tmp);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      "dangling/x.yaml:1:1 dangling symbolic link to dangling/missing.yaml: cannot read this manifest (fix the link or remove it)\n" +
        "1 error, 0 warnings in 1 file\n",
    );
  });

  it("a link leading outside the directory is not followed: a warning, exit 0", async () => {
    mkdirSync(join(tmp, "linked/cfg"), { recursive: true });
    mkdirSync(join(tmp, "linked/shared"));
    writeFileSync(join(tmp, "linked/cfg/a.yaml"), org);
    writeFileSync(join(tmp, "linked/shared/b.yaml"), "not: [a manifest");
    symlinkSync("../shared", join(tmp, "linked/cfg/shared"));
    const r = await phctl(["validate", "cfg"], join(tmp, "linked"));
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      "cfg/shared:1:1 warning: symbolic link to shared leads outside the config directory cfg; not followed (copy the files into the config directory, or pass the target as a path of its own)\n" +
        "0 errors, 1 warning in 1 file\n",
    );
    expect(r.code).toBe(0);
  });
});
