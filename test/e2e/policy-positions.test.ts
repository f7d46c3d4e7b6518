/**
 * Positions and messages of policy errors, end to end (issue 35, item 11): the built CLI's
 * `validate` (no server: validate never touches the network). A CEL error's column is the
 * file's, through escapes and folded lines, in text, SARIF and GitHub annotations; schema
 * errors no longer hide the semantic errors of the parts that are well formed; deep nesting
 * is a load error at file:line:col; an index out of range names the list's real size.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { phctl } from "../helpers/cli.js";

const tmp = mkdtempSync(join(tmpdir(), "phctl-positions-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const USERS = `apiVersion: phctl/v1
kind: User
metadata: { name: jdoe }
spec: { firstName: Jane, lastName: Doe, externalEmail: jdoe@example.org }
---
apiVersion: phctl/v1
kind: User
metadata: { name: asmith }
spec: { firstName: Ann, lastName: Smith, externalEmail: asmith@example.org }
`;
const PROJECT = `apiVersion: phctl/v1
kind: Project
metadata: { name: alpha }
spec:
  title: Project alpha
  access:
    admins: [jdoe, asmith]
  git:
    repositories:
      - name: one
`;

let n = 0;
/** A config directory holding `policies.yaml` beside a user file and one project. */
function config(policies: string): string {
  const dir = join(tmp, `c${n++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, "phctl.yaml"), "organization: acme\n");
  writeFileSync(join(dir, "users.yaml"), USERS);
  writeFileSync(join(dir, "alpha.yaml"), PROJECT);
  writeFileSync(join(dir, "policies.yaml"), policies);
  return dir;
}

const policy = (rules: string, extra = "") => `apiVersion: phctl/v1
kind: Policy
metadata: { name: p }
spec:
  select: { kind: Project }
${extra}  rules:
${rules}`;

/** 1-based line and column of the first `word` in `text`. */
function find(text: string, word: string): { line: number; column: number } {
  const lines = text.split("\n");
  const line = lines.findIndex((l) => l.includes(word));
  return { line: line + 1, column: lines[line].indexOf(word) + 1 };
}

interface Sarif {
  runs: {
    results: {
      message: { text: string };
      locations: { physicalLocation: { region: { startLine: number; startColumn: number } } }[];
    }[];
  }[];
}

describe("policy error positions", () => {
  const text = policy(`    - name: dq
      expression: "object.spec.title.matches(\\"^a\\\\\\\\d\\") && object.spec.titel1 == \\"\\u00e9\\""
    - name: plain
      expression: object.spec.title == "x" &&
        object.spec.titel2 == "y"
    - name: single
      expression: 'object.spec.title == ''x'' &&
        object.spec.titel3 == "y"'
    - name: folded
      expression: >
        object.spec.title == "x" &&
        object.spec.titel4 == "y"
`);

  it("a CEL error's column counts escapes as their source and folded lines as the file's", async () => {
    const dir = config(text);
    const want = ["titel1", "titel2", "titel3", "titel4"].map((w) => find(text, w));
    const sarif = await phctl(["validate", dir, "--format", "sarif"], {});
    expect(sarif.code).toBe(1);
    const results = (JSON.parse(sarif.stdout) as Sarif).runs[0].results;
    expect(
      results.map((r) => {
        const { startLine, startColumn } = r.locations[0].physicalLocation.region;
        return { line: startLine, column: startColumn };
      }),
    ).toEqual(want);
    const plain = await phctl(["validate", dir], {});
    const at = want.map((w) => `policies.yaml:${w.line}:${w.column} `);
    for (const a of at) expect(plain.stdout).toContain(a);
    const github = await phctl(["validate", dir, "--format", "github"], {});
    for (const w of want) expect(github.stdout).toContain(`line=${w.line},col=${w.column}`);
  });
});

describe("policy load and evaluation errors", () => {
  it("100,000 unary operators are a load error at file:line:col, not a stack overflow", async () => {
    const text = policy(`    - name: deep
      expression: '${"!".repeat(100_000)}true'
`);
    const r = await phctl(["validate", config(text)], {});
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("");
    const { line, column } = find(text, "!");
    expect(r.stdout).toContain(
      `policies.yaml:${line}:${column + 63} Policy p: rule deep: expression: nested too deeply, at most 64 levels`,
    );
    expect(r.stdout).not.toMatch(/call stack/);
    expect(r.stdout.length).toBeLessThan(1000);
  });

  it("an index past the end names the index and the list's size", async () => {
    const r = await phctl(
      [
        "validate",
        config(
          policy(
            `    - name: second-repo
      expression: 'object.spec.git.repositories[1].name != "x"'
    - name: first-param
      expression: 'params.none[0] == "y"'
`,
            "  params: { none: [] }\n",
          ),
        ),
      ],
      {},
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      "rule second-repo: could not evaluate: index 1 is out of range: the list has 1 item (index 0 to 0)",
    );
    expect(r.stdout).toContain(
      "rule first-param: could not evaluate: index 0 is out of range: the list is empty",
    );
    expect(r.stdout).not.toContain("undefined");
  });
});

describe("schema errors and the semantic errors beside them", () => {
  it("reports an impossible date, a type error and a credential with the schema errors", async () => {
    const text = `apiVersion: phctl/v1
kind: Policy
metadata: { name: pol }
spec:
  select: { kind: Project }
  rules:
    - name: first
      expresion: object.spec.title != ""
    - name: second
      expression: object.spec.titel == "x"
  exceptions:
    - key: project/alpha
      reasn: legacy
      expires: 2026-09-30
      approvedBy: someone
    - key: project/alpha
      reason: legacy
      expires: 2026-02-30
      approvedBy: someone
      rules: [first]
---
apiVersion: phctl/v1
kind: Project
metadata: { name: beta }
spec:
  title: Beta
  licenses: [mit]
  descripton: glpat-abcdefghijklmnopqrst
`;
    const r = await phctl(["validate", config(text), "--format", "json"], {});
    expect(r.code).toBe(1);
    const { diagnostics } = JSON.parse(r.stdout) as {
      diagnostics: { line: number; column: number; severity: string; message: string }[];
    };
    const at = (word: string) => find(text, word).line;
    expect(diagnostics.map((d) => [d.line, d.severity, d.message.split(":")[0]])).toEqual([
      [at("- name: first"), "error", "spec.rules[0].expression is required"],
      [at("expresion"), "error", "spec.rules[0].expresion is not a known field"],
      [at("titel"), "error", "rule second"],
      [at("reasn") - 1, "error", "spec.exceptions[0].reason is required"],
      [at("reasn"), "error", "spec.exceptions[0].reasn is not a known field"],
      [at("2026-02-30"), "error", "expires"],
      [at("[mit]"), "warning", "spec.licenses[0] mit is not the SPDX spelling"],
      [at("descripton"), "error", "spec.descripton is not a known field"],
      [at("descripton"), "warning", "spec.descripton holds a GitLab token (glpat-…)"],
    ]);
    // A rule cut for its schema error is still the policy's: the exception naming it is fine.
    expect(r.stdout).not.toContain("which the policy does not have");
  });
});
