/**
 * An organization-wide change read as one line (issue 35, item 15), end to end: the built CLI
 * against the reference server on loopback (and the fake GitHub for the comment). 100 projects
 * of 5 repositories; a Defaults layer `no-forks` gives every repository enableForking, and
 * the change turns it off there — and in p7's own manifest for its r1. A warn policy breaks on
 * every project. Then:
 * - the text plan opens with the summary "enableForking: true → false on 499 repositories in
 *   100 projects (layer no-forks, …); 1 override (…p7.yaml:…)", the policy's 100 warnings are
 *   one entry, and the plan is a screen long (the objects one by one with --verbose);
 * - the JSON plan carries `groups` right after `summary`, one group per source document;
 * - the pull-request comment stays under GitHub's limit and shows the summary above the details.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import type { Plan } from "../../src/engine/plan.js";
import { loadManifests } from "../../src/pipeline/load.js";
import { prEvent } from "../ci/helpers.js";
import { phctl } from "../helpers/cli.js";
import { configFiles, userDoc } from "../helpers/config-files.js";
import { GITHUB_TOKENS, startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import { populate } from "../helpers/populate.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

let t: TestServer;
let gh: FakeGitHub;
let api: ApiClient;
let dir: string;
let env: Record<string, string>;

const PROJECTS = 100;
const REPOS = 5;

const { write, edit, variant } = configFiles(() => dir);

const projectDoc = (i: number) => `apiVersion: phctl/v1
kind: Project
metadata:
  name: p${i}
spec:
  title: Project ${i}
  access:
    admins: [jdoe, asmith]
  git:
    repositories:
${Array.from({ length: REPOS }, (_, r) => `      - name: r${r + 1}\n`).join("")}`;
const LAYER = `apiVersion: phctl/v1
kind: Defaults
metadata:
  name: no-forks
spec:
  select:
    kind: Repository
  values:
    enableForking: true
`;
const POLICY = `apiVersion: phctl/v1
kind: Policy
metadata: { name: naming }
spec:
  select: { kind: Project }
  enforcement: warn
  rules:
    - name: team-title
      expression: object.spec.title.startsWith("Team ")
      message: a project's title starts with "Team "
`;

beforeAll(async () => {
  [t, gh] = await Promise.all([startServer(), startFakeGitHub()]);
  api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret });
  dir = mkdtempSync(join(tmpdir(), "phctl-grouped-"));
  write("base/phctl.yaml", "organization: acme\n");
  write("base/users.yaml", ["jdoe", "asmith"].map((n) => userDoc(n)).join("---\n"));
  for (let i = 1; i <= PROJECTS; i++) write(`base/projects/p${i}.yaml`, projectDoc(i));
  write("base/defaults.yaml", LAYER);
  write("base/policies/naming.yaml", POLICY);
  variant("head");
  edit("head/defaults.yaml", "enableForking: true", "enableForking: false");
  // p7's r1 says the same in its own manifest (line 12): it overrides the layer for itself.
  edit(
    "head/projects/p7.yaml",
    "      - name: r1\n",
    "      - name: r1\n        enableForking: false\n",
  );
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
  const base = await loadManifests([join(dir, "base")]);
  expect(base.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  await populate(api, base.state!);
}, 180_000);
afterAll(async () => {
  await api.close();
  await Promise.all([t.close(), gh.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[], extra: Record<string, string> = {}) =>
  phctl(args, { ...env, ...extra }, dir);

const SUMMARY =
  "  ~ enableForking: true → false on 499 repositories in 100 projects (layer no-forks, head/defaults.yaml:9); 1 override (head/projects/p7.yaml:12)\n";

describe("an organization-wide change in the terminal", () => {
  it("is summarised in one line, its 500 objects folded, its 100 warnings one entry", async () => {
    const r = await run(["plan", "head"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Summary (identical changes counted together):\n${SUMMARY}`);
    expect(r.stdout).toContain(
      "  500 objects changed only as the summary says are not listed one by one (--verbose lists every object).",
    );
    expect(r.stdout).toContain(
      "  warn  policy naming, rule team-title warns on 100 projects  head/policies/naming.yaml:",
    );
    expect(r.stdout).toContain(`        a project's title starts with "Team "\n`);
    expect(r.stdout).toContain(
      "        project/p1, project/p2, project/p3, project/p4, project/p5, project/p6, …and 94 more (--verbose lists each)\n",
    );
    expect(r.stdout).toContain("Plan: 0 to create, 500 to update, 0 to delete");
    // A screen, not 4,000 lines.
    expect(r.stdout.split("\n").length).toBeLessThan(30);
  });

  it("--verbose lists every object and every violation", async () => {
    const r = await run(["plan", "head", "--verbose"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(SUMMARY);
    expect(r.stdout).toContain("  ~ project/p42/repo/r4 (Repository) will be updated in place\n");
    expect(r.stdout.match(/will be updated in place/g)).toHaveLength(500);
    expect(r.stdout.match(/^ {2}warn {2}project\/p\d+ /gm)).toHaveLength(100);
  });
});

describe("an organization-wide change for bots", () => {
  it("the JSON plan has groups: one per source document, counts adding up", async () => {
    const r = await run(["plan", "head", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as Plan;
    const groups = plan.groups!;
    expect(Object.keys(plan).indexOf("groups")).toBe(Object.keys(plan).indexOf("summary") + 1);
    expect(groups.changes.map(({ keys, ...g }) => ({ ...g, keys: keys.length }))).toEqual([
      {
        action: "update",
        kind: "Repository",
        field: "enableForking",
        before: true,
        after: false,
        source: { layer: "no-forks", file: "head/defaults.yaml", line: 9 },
        count: 499,
        projects: 100,
        keys: 499,
      },
      {
        action: "update",
        kind: "Repository",
        field: "enableForking",
        before: true,
        after: false,
        source: { file: "head/projects/p7.yaml", line: 12 },
        count: 1,
        projects: 1,
        keys: 1,
      },
    ]);
    expect(groups.changes[1].keys).toEqual(["project/p7/repo/r1"]);
    expect(groups.violations).toHaveLength(1);
    expect(groups.violations[0]).toMatchObject({
      policy: "naming",
      rule: "team-title",
      verdict: "warn",
      kind: "Project",
      message: 'a project\'s title starts with "Team "',
      count: 100,
      projects: 100,
    });
  });
});

describe("an organization-wide change in the pull-request comment", () => {
  it("shows the summary above the details, within GitHub's limit", async () => {
    const p = await run(["plan", "head", "--base", "base", "--out", "pr.json"]);
    expect(p.code, p.stderr).toBe(0);
    expect(p.stdout).toContain(SUMMARY);
    writeFileSync(join(dir, "event.json"), JSON.stringify(prEvent(7)));
    const c = await run(["comment", "pr.json"], {
      GITHUB_ACTIONS: "true",
      GITHUB_API_URL: gh.url,
      GITHUB_SERVER_URL: "https://github.example",
      GITHUB_REPOSITORY: "acme/config",
      GITHUB_EVENT_NAME: "pull_request",
      GITHUB_EVENT_PATH: join(dir, "event.json"),
      GITHUB_TOKEN: GITHUB_TOKENS.write,
      GITHUB_SHA: "9".repeat(40),
    });
    expect(c.code, c.stderr).toBe(0);
    const [comment] = gh.comments("acme/config", 7);
    expect(comment.body.length).toBeLessThanOrEqual(65_536);
    const line =
      "- `enableForking`: `true` → `false` on 499 repositories in 100 projects (layer `no-forks`, `head/defaults.yaml:9`); 1 override (`head/projects/p7.yaml:12`)";
    expect(comment.body).toContain(`#### Summary — identical changes counted together\n\n${line}`);
    expect(comment.body.indexOf(line)).toBeLessThan(comment.body.indexOf("<details"));
    expect(comment.body).toContain(
      '- warn policy `naming`, rule `team-title` warns on 100 projects — a project\'s title starts with "Team " · `head/policies/naming.yaml:',
    );
  });
});
