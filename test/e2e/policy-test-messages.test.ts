/**
 * `phctl policy test` says what went wrong, with the built CLI (`npm run build` first): a
 * rule that never ran on a case says why (its policy selects none of the case's objects, or
 * has rules of another scope); a case with both `object` and `change` is refused; a
 * misspelt expectation (`denied`) is one clear line with the word it likely means; a second
 * policy of one name is an error at its name naming the first's file:line:col; the counts
 * read as English.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { phctl } from "../helpers/cli.js";

const tmp = mkdtempSync(join(tmpdir(), "phctl-policy-test-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const env = { PHCTL_NOW: "2026-06-01" };

function dir(name: string, files: Record<string, string>): string {
  const d = join(tmp, name);
  mkdirSync(d, { recursive: true });
  for (const [f, text] of Object.entries(files)) writeFileSync(join(d, f), text);
  return d;
}

const POLICIES = `apiVersion: phctl/v1
kind: Policy
metadata: { name: critical-licensed }
spec:
  select: { kind: Project, matchLabels: { tier: critical } }
  rules:
    - name: licensed
      expression: size(object.spec.licenses) > 0
---
apiVersion: phctl/v1
kind: Policy
metadata: { name: archive-first }
spec:
  select: { kind: Repository }
  scope: change
  rules:
    - name: archived
      expression: change.action != "delete"
`;

const project = (labels: string) =>
  `{ apiVersion: phctl/v1, kind: Project, metadata: { name: open, labels: ${labels} }, spec: { title: Open } }`;

describe("phctl policy test: failures say why", () => {
  it("a rule that did not run, a case with object and change, a misspelt expectation", async () => {
    const d = dir("why", {
      "p.yaml": POLICIES,
      "t.policytest.yaml": `cases:
  - name: not selected
    object: ${project("{}")}
    expect: { licensed: deny }
  - name: both
    object: ${project("{ tier: critical }")}
    change: { action: delete, kind: Repository, key: project/open/repo/r }
    expect: { archived: deny }
  - name: misspelt
    object: ${project("{ tier: critical }")}
    expect: { licensed: denied }
  - name: objects for a change rule
    object: ${project("{}")}
    expect: { archived: deny }
  - name: a change the policy does not select
    change: { action: delete, kind: Project, key: project/open }
    expect: { archived: deny }
  - name: holds
    object: ${project("{ tier: critical }")}
    expect: { licensed: deny }
`,
    });
    const r = await phctl(["policy", "test", d], env, tmp);
    expect(r.stdout).toBe(
      [
        'why/t.policytest.yaml:2:5 FAIL case "not selected": rule licensed: expected deny, got allow: policy critical-licensed selects projects with tier=critical, and the case\'s objects are Project open; its rules did not run',
        'why/t.policytest.yaml:7:5 FAIL case "both": gives object and change; a case gives one of object, objects or change',
        'why/t.policytest.yaml:11:25 FAIL case "misspelt": rule licensed: expect "denied": write allow, deny or warn (did you mean deny?)',
        'why/t.policytest.yaml:12:5 FAIL case "objects for a change rule": rule archived: expected deny, got allow: policy archive-first has change rules, and the case gives objects (give it a `change`)',
        'why/t.policytest.yaml:15:5 FAIL case "a change the policy does not select": rule archived: expected deny, got allow: policy archive-first selects repositories, and the case\'s change is project/open; its rules did not run',
        "2 policies, 6 cases, 5 failed expectations",
        "",
      ].join("\n"),
    );
    expect(r.code).toBe(1);
  });

  it("counts in English: 1 policy, 1 case", async () => {
    const d = dir("one", {
      "p.yaml": POLICIES.split("---\n")[0],
      "t.policytest.yaml": `cases:\n  - name: holds\n    object: ${project("{ tier: critical }")}\n    expect: { licensed: deny }\n`,
    });
    const r = await phctl(["policy", "test", d], env, tmp);
    expect(r.stdout).toBe(
      "ok one/t.policytest.yaml (1 case)\n1 policy, 1 case, 0 failed expectations\n",
    );
    expect(r.code).toBe(0);
  });

  it("a second policy of one name is an error at its name, naming the first's file:line:col", async () => {
    const d = dir("dup", {
      "p.yaml": POLICIES,
      "q.yaml": POLICIES.split("---\n")[0],
      "t.policytest.yaml": `cases:\n  - name: holds\n    object: ${project("{ tier: critical }")}\n    expect: { licensed: deny }\n`,
    });
    const r = await phctl(["policy", "test", d], env, tmp);
    expect(r.stdout).toBe(
      "dup/q.yaml:3:19 Policy critical-licensed: duplicate Policy critical-licensed, first declared at dup/p.yaml:3:19\npolicies do not load: 1 error\n",
    );
    expect(r.code).toBe(1);
  });
});

describe("an object that does not load is not 'matched by nothing'", () => {
  it("layers and policies selecting a project with a schema error do not warn that they select nothing", async () => {
    const d = dir("broken", {
      "d.yaml": `apiVersion: phctl/v1
kind: Defaults
metadata: { name: critical }
spec:
  select: { kind: Project, matchLabels: { tier: critical } }
  values: { description: critical }
---
apiVersion: phctl/v1
kind: Defaults
metadata: { name: teams }
spec:
  select: { kind: Team }
  values: { members: [] }
---
apiVersion: phctl/v1
kind: Policy
metadata: { name: lic }
spec:
  select: { kind: Project, matchLabels: { tier: critical } }
  rules: [{ name: lic, expression: 'size(object.spec.licenses) > 0' }]
  exceptions:
    - { key: project/p1, reason: r, expires: 2026-09-30, approvedBy: me }
`,
      "p.yaml": `apiVersion: phctl/v1
kind: Project
metadata: { name: p1, labels: { tier: critical } }
spec:
  title: P
  visiblity: public
`,
    });
    const r = await phctl(["validate", "."], env, d);
    expect(r.stdout).toBe(
      [
        "d.yaml:12:3 warning: Defaults teams: the selector matches no team in this config: the layer does nothing (check its kind, names and labels)",
        "p.yaml:6:3 Project p1: spec.visiblity is not a known field (did you mean visibility?)",
        "1 error, 1 warning in 2 files",
        "",
      ].join("\n"),
    );
    expect(r.code).toBe(1);
  });
});
