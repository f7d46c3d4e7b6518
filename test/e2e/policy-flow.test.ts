/**
 * Policy results through plan, apply and drift, end to end: the built CLI against the
 * reference server. A deny change rule fails `plan` (exit 1, the plan still shown, the
 * violation in the JSON plan) and stops `apply` with zero writes (the server's request
 * log); a live rule finds an unmanaged project in `drift`, listed beside the drift (exit 2)
 * and counted in the metrics file; warnings keep every exit code (apply goes ahead);
 * `validate --format sarif` is valid SARIF 2.1.0 with the object rules' violations.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Plan } from "../../src/engine/plan.js";
import { phctl } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { sarifValidator } from "../helpers/sarif.js";

const USERS = `apiVersion: phctl/v1
kind: User
metadata: { name: jdoe }
spec: { firstName: Jane, lastName: Doe, externalEmail: jdoe@example.org }
`;
const project = (slug: string, description: string, repos: string[]) => `apiVersion: phctl/v1
kind: Project
metadata: { name: ${slug} }
spec:
  title: ${slug}
  description: ${description}
  access:
    admins: [jdoe]
    maintainers: [jdoe]
  git:
    repositories:
${repos.map((r) => `      - name: ${r}`).join("\n")}
`;

/** A repository is archived before it is deleted (deny or warn); projects are described (live). */
const policies = (archive: "deny" | "warn", live: boolean) => `apiVersion: phctl/v1
kind: Policy
metadata: { name: archive-before-delete }
spec:
  select: { kind: Repository }
  scope: change
  enforcement: ${archive}
  rules:
    - name: archived-first
      expression: 'change.action != "delete" || (change.before != null && change.before.status == "archived")'
      messageExpression: '"delete " + change.key + ": archive it first"'
${
  live
    ? `---
apiVersion: phctl/v1
kind: Policy
metadata: { name: described }
spec:
  select: { kind: Project }
  scope: live
  rules:
    - name: long-description
      expression: 'size(object.description) >= 5'
      message: a project says what it is in at least five characters
`
    : ""
}`;

let t: TestServer;
let dir: string;
const env = () => ({ PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret });

/** Write the config: phctl.yaml (repositories pruned), users, projects, policies. */
function config(files: Record<string, string>): void {
  rmSync(join(dir, "config"), { recursive: true, force: true });
  mkdirSync(join(dir, "config/projects"), { recursive: true });
  writeFileSync(join(dir, "config/phctl.yaml"), "organization: acme\nprune:\n  repositories: true\n"); // prettier-ignore
  writeFileSync(join(dir, "config/users.yaml"), USERS);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, "config", file), text);
}

const writesSince = (n: number) => t.server.requestLog.slice(n).filter((e) => e.method !== "GET");

beforeAll(async () => {
  t = await startServer();
  dir = mkdtempSync(join(tmpdir(), "phctl-policy-flow-"));
  // Live: alpha with two repositories, and rogue (described in three characters).
  config({
    "projects/alpha.yaml": project("alpha", "The alpha project", ["keep", "old"]),
    "projects/rogue.yaml": project("rogue", "tmp", ["scratch"]),
  });
  const r = await phctl(["apply", "config", "--auto-approve"], env(), dir);
  expect(r.code, r.stderr).toBe(0);
  // Then rogue leaves the manifests (not managed any more) and alpha's `old` is to go.
  config({
    "projects/alpha.yaml": project("alpha", "The alpha project", ["keep"]),
    "policies.yaml": policies("deny", true),
  });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a deny change rule", () => {
  it("plan: exit 1, the plan still shown with the violation; the JSON plan carries it", async () => {
    const r = await phctl(["plan", "config", "--detailed-exitcode"], env(), dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("- project/alpha/repo/old (Repository) will be DELETED");
    expect(r.stdout).toContain("Policy violations (1 denied, 0 warnings):");
    expect(r.stdout).toMatch(
      /deny {2}project\/alpha\/repo\/old \(delete\) {2}config\/projects\/alpha\.yaml:\d+\n {8}policy archive-before-delete, rule archived-first: delete project\/alpha\/repo\/old: archive it first\n/,
    );
    // Live rules are drift's: the unmanaged project is not plan's business.
    expect(r.stdout).not.toContain("project/rogue (live");
    expect(r.stderr).toBe(
      "phctl: 1 policy violation denies this plan (archive-before-delete/archived-first on project/alpha/repo/old): change the manifests, or add an exception with an owner and an end to the policy\n",
    );

    const json = await phctl(["plan", "config", "--format", "json"], env(), dir);
    expect(json.code).toBe(1);
    const plan = JSON.parse(json.stdout) as Plan;
    expect(plan.formatVersion).toBe(3);
    expect(plan.violations).toEqual([
      {
        policy: "archive-before-delete",
        rule: "archived-first",
        enforcement: "deny",
        scope: "change",
        action: "delete",
        key: "project/alpha/repo/old",
        kind: "Repository",
        source: expect.objectContaining({ file: "config/projects/alpha.yaml" }),
        ruleSource: expect.objectContaining({ file: "config/policies.yaml", line: 10 }),
        message: "delete project/alpha/repo/old: archive it first",
      },
    ]);
    const schema = JSON.parse(
      readFileSync(resolve(import.meta.dirname, "../../schemas/plan.schema.json"), "utf8"),
    ) as object;
    const validate = new Ajv({ strict: false }).compile(schema);
    expect(validate(plan), JSON.stringify(validate.errors)).toBe(true);
  });

  it("apply: shows the violation and refuses with zero writes", async () => {
    const before = t.server.requestLog.length;
    // --allow-delete: the built-in rail would refuse the delete before the policy does.
    const r = await phctl(["apply", "config", "--auto-approve", "--allow-delete"], env(), dir);
    expect(r.code).toBe(1);
    expect(r.stdout, r.stderr).toContain("deny  project/alpha/repo/old (delete)");
    expect(r.stderr).toContain(
      "phctl: 1 policy violation denies this plan (archive-before-delete/archived-first on project/alpha/repo/old): nothing was applied;",
    );
    expect(t.server.requestLog.length).toBeGreaterThan(before);
    expect(writesSince(before)).toEqual([]);

    // In CI (JSON lines): the plan event carries the violations, then the same refusal.
    const ci = await phctl(["apply", "config", "--auto-approve", "--allow-delete"], { ...env(), CI: "true" }, dir); // prettier-ignore
    expect(ci.code).toBe(1);
    const [event] = ci.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as Plan & { event: string }); // prettier-ignore
    expect(event).toMatchObject({ event: "plan", delete: 1 });
    expect(event.violations.map((v) => [v.enforcement, v.key])).toEqual([["deny", "project/alpha/repo/old"]]); // prettier-ignore
    expect(writesSince(before)).toEqual([]);
  });
});

describe("a live rule in drift", () => {
  it("lists the unmanaged project beside the drift (exit 2) and counts it in the metrics", async () => {
    const metrics = join(dir, "drift.prom");
    const r = await phctl(["drift", "config", "--metrics-file", metrics], env(), dir);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toContain("- project/alpha/repo/old (Repository) will be DELETED");
    expect(r.stdout).toContain("Policy violations (2 denied, 0 warnings):");
    expect(r.stdout).toContain(
      "deny  project/rogue (live, not managed)\n        policy described, rule long-description: a project says what it is in at least five characters\n",
    );
    expect(r.stdout).not.toContain("project/alpha (live");
    const prom = readFileSync(metrics, "utf8");
    expect(prom).toContain('phctl_drift_policy_violations{key="default",enforcement="deny"} 2\n');
    expect(prom).toContain('phctl_drift_policy_violations{key="default",enforcement="warn"} 0\n');
    expect(prom).toContain('phctl_drift_differences{key="default"} 1\n');

    const json = JSON.parse(
      (await phctl(["drift", "config", "--format", "json"], env(), dir)).stdout,
    ) as Plan;
    expect(json.violations.find((v) => v.key === "project/rogue")).toMatchObject({
      scope: "live",
      managed: false,
      source: null,
      kind: "Project",
    });
  });
});

describe("warnings keep the exit codes", () => {
  it("plan exits 2 with --detailed-exitcode, then apply goes ahead and deletes", async () => {
    config({
      "projects/alpha.yaml": project("alpha", "The alpha project", ["keep"]),
      "policies.yaml": policies("warn", false),
    });
    const plan = await phctl(["plan", "config", "--detailed-exitcode"], env(), dir);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stderr).toBe("");
    expect(plan.stdout).toContain("warn  project/alpha/repo/old (delete)");
    expect(plan.stdout).toContain("Policy violations (0 denied, 1 warning):");

    const before = t.server.requestLog.length;
    const apply = await phctl(["apply", "config", "--auto-approve", "--allow-delete"], env(), dir);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain("warn  project/alpha/repo/old (delete)");
    expect(writesSince(before).map((e) => e.method)).toContain("DELETE");
    const after = await phctl(["plan", "config", "--detailed-exitcode"], env(), dir);
    expect(after.code, after.stdout).toBe(0);
  });
});

describe("validate --format sarif", () => {
  it("is valid SARIF 2.1.0 with an object rule's violation at the object's line", async () => {
    config({
      "projects/alpha.yaml": project("alpha", "The alpha project", ["keep"]),
      "policies.yaml": `apiVersion: phctl/v1
kind: Policy
metadata: { name: two-admins }
spec:
  select: { kind: Project }
  rules:
    - name: at-least-two
      expression: size(object.spec.access.admins.users) >= 2
      message: a project needs two admins
`,
    });
    const r = await phctl(["validate", "config", "--format", "sarif"], {}, dir);
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout) as {
      runs: { results: { ruleId: string; level: string; locations: any[] }[] }[];
    };
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.runs[0].results).toEqual([
      expect.objectContaining({
        ruleId: "policy/two-admins/at-least-two",
        level: "error",
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: "config/projects/alpha.yaml" },
              region: { startLine: 1, startColumn: 1 },
            },
          },
        ],
      }),
    ]);
  });
});
