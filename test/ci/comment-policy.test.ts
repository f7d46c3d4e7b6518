/**
 * The pull-request comment with policies, end to end: `plan --base` of a change that deletes
 * a repository against a deny change rule and adds a policy exception, against the reference
 * server, then `phctl comment` against the fake GitHub. The exception is called out at the
 * top, the verdict counts the policy, the violation sits right under the destructive block.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Plan } from "../../src/engine/plan.js";
import { GITHUB_TOKENS, startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import { phctl } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { prEvent, tempDir, writeJson } from "./helpers.js";

const REPO = "acme/config";

const project = (repos: string[]) => `apiVersion: phctl/v1
kind: Project
metadata: { name: alpha }
spec:
  title: Alpha
  description: The alpha project
  access: { admins: [jdoe], maintainers: [jdoe] }
  git:
    repositories:
${repos.map((r) => `      - name: ${r}`).join("\n")}
`;

const policy = (exceptions: string) => `apiVersion: phctl/v1
kind: Policy
metadata: { name: archive-before-delete }
spec:
  select: { kind: Repository }
  scope: change
  rules:
    - name: archived-first
      expression: 'change.action != "delete" || (change.before != null && change.before.status == "archived")'
      message: archive the repository before deleting it
${exceptions}`;

const EXCEPTION = `  exceptions:
    - key: project/legacy-*/repo/**
      reason: legacy projects are wound down without archiving
      expires: "2099-01-31"
      approvedBy: security-team
`;

function writeConfig(dir: string, repos: string[], exceptions: string): void {
  mkdirSync(join(dir, "projects"), { recursive: true });
  writeFileSync(join(dir, "phctl.yaml"), "organization: acme\nprune: { repositories: true }\n");
  writeFileSync(
    join(dir, "users.yaml"),
    "apiVersion: phctl/v1\nkind: User\nmetadata: { name: jdoe }\nspec: { firstName: Jane, lastName: Doe, externalEmail: jdoe@example.org }\n",
  );
  writeFileSync(join(dir, "projects/alpha.yaml"), project(repos));
  writeFileSync(join(dir, "policies.yaml"), policy(exceptions));
}

let t: TestServer;
let gh: FakeGitHub;
let dir: string;

beforeAll(async () => {
  [t, gh] = await Promise.all([startServer(), startFakeGitHub()]);
  dir = tempDir();
  writeConfig(join(dir, "base"), ["keep", "old"], "");
  writeConfig(join(dir, "head"), ["keep"], EXCEPTION);
  const env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
  const applied = await phctl(["apply", "base", "--auto-approve"], env, dir);
  expect(applied.code, applied.stderr).toBe(0);
});
afterAll(async () => {
  await Promise.all([t.close(), gh.close()]);
});

describe("the comment of a pull request that breaks a policy and adds an exception", () => {
  it("calls the exception out at the top and lists the denial under the destructive block", async () => {
    const env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
    const plan = await phctl(
      ["plan", "head", "--base", "base", "--out", "plan.json", "--format", "markdown"],
      env,
      dir,
    );
    expect(plan.code, plan.stderr).toBe(1);
    const saved = JSON.parse(readFileSync(join(dir, "plan.json"), "utf8")) as Plan;
    expect(saved.policyExceptions).toEqual({
      added: [
        expect.objectContaining({
          policy: "archive-before-delete",
          key: "project/legacy-*/repo/**",
          expires: "2099-01-31",
          approvedBy: "security-team",
          source: expect.objectContaining({ file: "head/policies.yaml" }),
        }),
      ],
      extended: [],
    });

    const r = await phctl(["comment", "plan.json"], {
      GITHUB_ACTIONS: "true",
      GITHUB_API_URL: gh.url,
      GITHUB_REPOSITORY: REPO,
      GITHUB_EVENT_NAME: "pull_request",
      GITHUB_EVENT_PATH: writeJson(dir, "event.json", prEvent(7)),
      GITHUB_TOKEN: GITHUB_TOKENS.write,
      GITHUB_SHA: "9".repeat(40),
    }, dir); // prettier-ignore
    expect(r.code, r.stderr).toBe(0);
    const [c] = gh.comments(REPO, 7);
    const lines = c.body.split("\n");
    expect(lines[0]).toBe("<!-- phctl:plan key=default -->");
    expect(lines.find((l) => l.startsWith("### phctl plan:"))).toMatch(
      / · policy: 1 denied, 0 warnings · adds 1 policy exception · acme · plan `[0-9a-f]+`$/,
    );
    const callout = c.body.indexOf("**This pull request adds 1 policy exception**");
    const destructive = c.body.indexOf("#### Destructive changes (1)");
    const violations = c.body.indexOf("#### Policy violations — 1 denied, 0 warnings");
    expect(callout).toBeGreaterThan(0);
    expect(destructive).toBeGreaterThan(callout);
    expect(violations).toBeGreaterThan(destructive);
    expect(c.body.indexOf("| project | kind |")).toBeGreaterThan(violations);
    expect(c.body).toContain(
      "- `archive-before-delete` for `project/legacy-*/repo/**` until 2099-01-31, approved by security-team: legacy projects are wound down without archiving · `head/policies.yaml:",
    );
    expect(c.body).toContain(
      "- **deny** `project/alpha/repo/old` (delete) — `archive-before-delete`/`archived-first`: archive the repository before deleting it · `head/projects/alpha.yaml:",
    );
  });
});
