/**
 * Policies end to end with the built CLI (`npm run build` first): `validate` prints violations
 * and exits 1 on a denial, 0 on warnings; a type error in a rule is one line at its
 * file:line:col with a caret; `phctl policy test` passes on the starter library and names
 * the case and rule of a failed expectation. No server: none of these touch the network.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { phctl } from "../helpers/cli.js";
import { copyExamples } from "../helpers/examples.js";

const ROOT = join(import.meta.dirname, "../..");
const tmp = mkdtempSync(join(tmpdir(), "phctl-policy-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const env = { PHCTL_NOW: "2026-06-01" };

function config(name: string, files: Record<string, string>): string {
  const dir = join(tmp, name);
  copyExamples(dir);
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  return dir;
}

const LICENSES = `apiVersion: phctl/v1
kind: Policy
metadata: { name: licensed }
spec:
  select: { kind: Project }
  enforcement: warn
  bindings:
    - select: { kind: Project, names: [trusted-firmware-a] }
      enforcement: deny
  rules:
    - name: two-licenses
      expression: size(object.spec.licenses) >= 2
      message: needs two licenses
`;

describe("phctl validate with policies", () => {
  it("the examples validate clean against the starter policies (exit 0)", async () => {
    const r = await phctl(["validate", "examples"], env, ROOT);
    // Every example project has two admins: the starter policy two-admins holds.
    expect(r.stdout).toBe("0 errors, 0 warnings in 13 files\n");
    expect(r.code).toBe(0);
  });

  it("a denial prints every violation and exits 1; warnings print beside it", async () => {
    const dir = config("deny", { "policies/licensed.yaml": LICENSES });
    const r = await phctl(["validate", "."], env, dir);
    expect(r.stdout).toContain(
      "projects/trusted-firmware-a.yaml:2:1 denied: Project project/trusted-firmware-a: policy licensed, rule two-licenses: needs two licenses",
    );
    expect(r.stdout).toContain(
      "projects/ci-tools.yaml:3:1 warning: Project project/ci-tools: policy licensed, rule two-licenses: needs two licenses",
    );
    expect(r.code).toBe(1);
    const json = await phctl(["validate", ".", "--format", "json"], env, dir);
    const out = JSON.parse(json.stdout) as { summary: { policy: unknown }; violations: unknown[] };
    expect(out.summary.policy).toEqual({ denied: 1, warnings: 1, excepted: 0 });
    const gh = await phctl(["validate", ".", "--format", "github"], env, dir);
    expect(gh.stdout).toContain(
      "::error file=projects/trusted-firmware-a.yaml,line=2,col=1,title=policy licensed::Project project/trusted-firmware-a: policy licensed, rule two-licenses: needs two licenses",
    );
  });

  it("a misspelled field in a rule is an error at its line with a caret (exit 1)", async () => {
    const dir = config("typo", {
      "policies/licensed.yaml": LICENSES.replace("object.spec.licenses", "object.spec.licences"),
    });
    const r = await phctl(["validate", "."], env, dir);
    expect(r.stdout).toContain(
      `policies/licensed.yaml:12:36 Policy licensed: rule two-licenses: expression: No such key: licences (did you mean licenses?)\n    size(object.spec.licences) >= 2\n${" ".repeat(21)}^^^^^^^^\n`,
    );
    expect(r.code).toBe(1);
  });
});

describe("phctl policy test", () => {
  it("passes on the starter library", async () => {
    const r = await phctl(["policy", "test", "examples/policies"], env, ROOT);
    expect(r.stdout).toMatch(/8 policies, \d+ cases, 0 failed expectations\n$/);
    expect(r.code).toBe(0);
  });

  it("names the case file:line and the rule of a failed expectation (exit 1)", async () => {
    const dir = join(tmp, "cases");
    cpSync(join(ROOT, "examples/policies"), dir, { recursive: true });
    writeFileSync(
      join(dir, "wrong.policytest.yaml"),
      `cases:
  - name: expects the wrong thing
    object:
      apiVersion: phctl/v1
      kind: Project
      metadata: { name: open }
      spec: { title: Open, visibility: public }
    expect: { public-has-license: allow }
`,
    );
    const r = await phctl(["policy", "test", dir], env, ROOT);
    expect(r.stdout).toContain(
      `cases/wrong.policytest.yaml:2:5 FAIL case "expects the wrong thing": rule public-has-license: expected allow, got deny (project/open: a public project needs at least one license (spec.licenses))\n`,
    );
    expect(r.stdout).toMatch(/8 policies, \d+ cases, 1 failed expectation\n$/);
    expect(r.code).toBe(1);
  });
});

describe("a policy's regular expression cannot hang validate", () => {
  it("matches() with a catastrophic pattern on a long title ends at once with the rule's answer", async () => {
    const dir = config("regex", {
      "policies/titles.yaml": `apiVersion: phctl/v1
kind: Policy
metadata: { name: titles }
spec:
  select: { kind: Project }
  enforcement: warn
  rules:
    - name: plain-title
      expression: object.spec.title.matches("^([A-Za-z]+ ?)+$")
      message: the title is words and spaces
`,
      "slow.yaml": `apiVersion: phctl/v1
kind: Project
metadata: { name: slow-title }
spec:
  title: ${"Abc".repeat(14)}!
  visibility: private
  access: { admins: [jdoe, asmith] }
`,
    });
    // With JavaScript's backtracking engine alone this pattern takes minutes on that title.
    const started = performance.now();
    const r = await phctl(["validate", dir], env, ROOT);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /Project project\/slow-title: policy titles, rule plain-title: the title is words and spaces/,
    );
  }, 30_000);
});

describe("matches() runs on RE2", () => {
  it("a backreference that took minutes to evaluate is a load error at its file:line:col, at once", async () => {
    const dir = config("re2", {
      "policies/titles.yaml": `apiVersion: phctl/v1
kind: Policy
metadata: { name: titles }
spec:
  select: { kind: Project }
  enforcement: warn
  rules:
    - name: doubled
      expression: '!object.spec.title.matches("^(a+)+\\\\1$")'
`,
      "slow.yaml": `apiVersion: phctl/v1
kind: Project
metadata: { name: slow-title }
spec:
  title: ${"a".repeat(35)}!
  visibility: private
  access: { admins: [jdoe, asmith] }
`,
    });
    const started = performance.now();
    const r = await phctl(["validate", dir], env, ROOT);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      "policies/titles.yaml:9:47 Policy titles: rule doubled: expression: invalid RE2 pattern `^(a+)+\\1$`: invalid escape sequence: `\\1`: matches() uses RE2 syntax, which has no backreferences",
    );
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/at .*\.js:\d+/);
  }, 30_000);
});

describe("live rules are type-checked", () => {
  it("a misspelled live field is a validate error at the rule's line; phctl schema live names the fields", async () => {
    const dir = config("live-typo", {
      "policies/live.yaml": `apiVersion: phctl/v1
kind: Policy
metadata: { name: described }
spec:
  select: { kind: Project }
  scope: live
  rules:
    - name: long-description
      expression: 'size(object.descripton) >= 5'
`,
    });
    const r = await phctl(["validate", dir], env, ROOT);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /policies\/live\.yaml:9:\d+ Policy described: rule long-description: expression: No such key: descripton/,
    );
    const schema = await phctl(["schema", "live"], env, ROOT);
    expect(schema.code).toBe(0);
    const parsed = JSON.parse(schema.stdout) as {
      definitions: Record<string, { properties: Record<string, unknown>; required: string[] }>;
    };
    expect(Object.keys(parsed.definitions)).toEqual(["Project", "Repository", "User", "Team"]);
    expect(parsed.definitions.Project.required).toContain("description");
  });
});
