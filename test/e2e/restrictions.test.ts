/**
 * Scoped changes (issue 38, item 2), end to end: the built CLI against the reference server
 * on loopback. A config delegated by folder — `projects/<slug>/` belongs to project <slug>'s
 * owners — and one restriction policy (`scope: change`) that reads where each change was
 * written (`change.file`, relative to phctl.yaml's directory) and whose it is
 * (`change.project`, `users`):
 * - a pull request from alpha's folder whose Defaults layer reaches project beta is denied,
 *   naming the layer's file and the restriction; the same change from beta's folder passes;
 * - granting admins to a user of another organization from a project folder is denied;
 * - a team declared in a project folder is denied; the same team at the top passes;
 * - apply of the denied change makes no write.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Plan } from "../../src/engine/plan.js";
import { phctl } from "../helpers/cli.js";
import { configFiles, userDoc } from "../helpers/config-files.js";
import { serverHolding, type LiveConfig } from "../helpers/live-config.js";

let live: LiveConfig | undefined;
let dir: string;
let env: Record<string, string>;

const { write, edit, variant } = configFiles(() => dir);

const projectDoc = (slug: string) => `apiVersion: phctl/v1
kind: Project
metadata: { name: ${slug} }
spec:
  title: Project ${slug}
  access:
    admins: [jdoe]
    developers: [asmith]
`;
const RESTRICTIONS = `apiVersion: phctl/v1
kind: Policy
metadata: { name: project-folders }
spec:
  description: A file under projects/<slug>/ changes project <slug> only.
  select: { kind: Project }
  scope: change
  rules:
    - name: own-project
      expression: >-
        !change.file.startsWith("projects/") || change.file.split("/")[1] == change.project
      messageExpression: >-
        change.file + " is in the folder of project " + change.file.split("/")[1] +
        ", not of project " + change.project
    - name: no-foreign-admins
      expression: >-
        !change.file.startsWith("projects/") || change.kind != "ProjectAccess" ||
        change.action == "delete" || change.after.level != "admins" ||
        !(change.after.username in users) ||
        users[change.after.username].spec.organization == change.organization
      messageExpression: >-
        "a project folder may not make " + change.after.username + " of " +
        users[change.after.username].spec.organization + " an admin"
---
apiVersion: phctl/v1
kind: Policy
metadata: { name: teams-at-the-top }
spec:
  select: { kind: Team }
  scope: change
  rules:
    - name: no-teams-in-project-folders
      expression: '!change.file.startsWith("projects/")'
      messageExpression: '"teams are the platform team''s: " + change.file'
`;
const TEAM = `apiVersion: phctl/v1
kind: Team
metadata: { name: helpers }
spec:
  services: { gitservice: true }
  members: [asmith]
`;
const REACH = (slug: string) => `apiVersion: phctl/v1
kind: Defaults
metadata: { name: reach-${slug} }
spec:
  select: { kind: Project, names: [${slug}] }
  values:
    access:
      maintainers: [asmith]
`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "phctl-restrictions-"));
  write("base/phctl.yaml", "organization: acme\n");
  write(
    "base/organizations.yaml",
    "apiVersion: phctl/v1\nkind: Organization\nmetadata: { name: linaro-partner }\n",
  );
  write(
    "base/users.yaml",
    [userDoc("jdoe"), userDoc("asmith"), userDoc("pkumar", "linaro-partner")].join("---\n"),
  );
  write("base/teams.yaml", TEAM.replace("helpers", "core").replace("asmith", "jdoe"));
  write("base/projects/alpha/project.yaml", projectDoc("alpha"));
  write("base/projects/beta/project.yaml", projectDoc("beta"));
  write("base/policies/restrictions.yaml", RESTRICTIONS);
  // alpha's folder reaches into beta; the same layer in beta's own folder.
  variant("reach");
  write("reach/projects/alpha/help-beta.yaml", REACH("beta"));
  variant("own");
  write("own/projects/beta/help-beta.yaml", REACH("beta"));
  // alpha's folder makes a partner user an admin of alpha.
  variant("foreign");
  edit("foreign/projects/alpha/project.yaml", "admins: [jdoe]", "admins: [jdoe, pkumar]");
  // A team in a project folder, and the same team at the top.
  variant("team-in-folder");
  write("team-in-folder/projects/alpha/team.yaml", TEAM);
  variant("team-at-top");
  edit("team-at-top/teams.yaml", "", `${TEAM}---\n`);
  ({ env } = live = await serverHolding(join(dir, "base")));
}, 60_000);
afterAll(async () => {
  await live?.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[], cwd = dir) => phctl(args, env, cwd);
const denials = (plan: Plan) =>
  (plan.violations ?? [])
    .filter((v) => v.enforcement === "deny")
    .map((v) => `${v.policy}/${v.rule} ${v.key}`);

describe("a pull request from a project folder", () => {
  it("is denied when its layer reaches another project, naming the file and the restriction", async () => {
    const r = await run(["plan", "reach", "--base", "base", "--format", "json"]);
    expect(r.code, r.stderr).toBe(1);
    const plan = JSON.parse(r.stdout) as Plan;
    expect(denials(plan)).toEqual([
      "project-folders/own-project project/beta/access/maintainers/user/asmith",
    ]);
    const v = plan.violations.find((x) => x.rule === "own-project")!;
    expect(v.source?.file).toBe("reach/projects/alpha/help-beta.yaml");
    expect(v.message).toBe(
      "projects/alpha/help-beta.yaml is in the folder of project alpha, not of project beta",
    );
    const text = await run(["plan", "reach", "--base", "base"]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("project-folders");
    expect(text.stdout).toContain("projects/alpha/help-beta.yaml");
  });

  it("passes when the same change is written in the project's own folder", async () => {
    const r = await run(["plan", "own", "--base", "base", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as Plan;
    expect(plan.entries.map((e) => e.key)).toEqual(["project/beta/access/maintainers/user/asmith"]);
    expect(denials(plan)).toEqual([]);
  });

  it("reads the file relative to phctl.yaml, from whatever directory it runs", async () => {
    const r = await run(["plan", ".", "--base", "../base", "--format", "json"], join(dir, "reach"));
    expect(r.code, r.stderr).toBe(1);
    expect(denials(JSON.parse(r.stdout) as Plan)).toHaveLength(1);
  });

  it("may not make a user of another organization an admin", async () => {
    const r = await run(["plan", "foreign", "--base", "base", "--format", "json"]);
    expect(r.code, r.stderr).toBe(1);
    const plan = JSON.parse(r.stdout) as Plan;
    expect(denials(plan)).toEqual([
      "project-folders/no-foreign-admins project/alpha/access/admins/user/pkumar",
    ]);
    expect(plan.violations[0].message).toBe(
      "a project folder may not make pkumar of linaro-partner an admin",
    );
  });

  it("may not declare a team; the platform's top-level file may", async () => {
    const denied = await run(["plan", "team-in-folder", "--base", "base", "--format", "json"]);
    expect(denied.code, denied.stderr).toBe(1);
    expect(denials(JSON.parse(denied.stdout) as Plan)).toEqual([
      "teams-at-the-top/no-teams-in-project-folders team/helpers",
      "teams-at-the-top/no-teams-in-project-folders team/helpers/member/asmith",
    ]);
    const allowed = await run(["plan", "team-at-top", "--base", "base", "--format", "json"]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(denials(JSON.parse(allowed.stdout) as Plan)).toEqual([]);
  });
});

describe("apply", () => {
  it("refuses the denied change and writes nothing", async () => {
    const r = await run(["apply", "reach", "--auto-approve"]);
    expect(r.code).toBe(1);
    expect(r.stderr + r.stdout).toContain("project-folders");
    const after = await run(["plan", "base", "--format", "json"]);
    expect(after.code, after.stderr).toBe(0);
    expect((JSON.parse(after.stdout) as Plan).entries).toEqual([]);
  });
});
