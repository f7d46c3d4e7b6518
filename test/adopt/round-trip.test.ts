/**
 * drift --adopt in process against the reference server: the converged examples, live
 * changes of every kind, adoption, and a plan of the adopted manifests with no changes;
 * the files keep every comment and every line adoption had no reason to touch.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../helpers/server.js";
import {
  client,
  comments,
  convergedDatabase,
  driftAdoptPlan,
  entryLines,
  load,
  readTree,
  serverFrom,
  workdir,
} from "./fixture.js";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { adopt } from "../../src/adopt/index.js";
import { writeAdopted } from "../../src/adopt/write.js";
import { runPlan } from "../../src/engine/run-plan.js";
import { mutate } from "./mutate.js";
import type { Mutation } from "./mutations.js";

let db: string;
const servers: TestServer[] = [];
beforeAll(async () => {
  db = await convergedDatabase();
});
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function mutated(ms: Mutation[]): Promise<TestServer> {
  const t = await serverFrom(db);
  servers.push(t);
  const api = client(t);
  for (const m of ms) await mutate(api, m, t);
  await api.close();
  return t;
}

describe("drift --adopt", () => {
  it("adopts changed fields, list members both ways and deleted objects; then plan is clean", async () => {
    const t = await mutated([
      { m: "project", slug: "ci-tools", field: "name", value: "CI tooling" },
      { m: "project", slug: "mbed-tls", field: "description", value: "" },
      {
        m: "repo",
        slug: "trusted-firmware-a",
        repo: "tf-a-tests",
        field: "issueTracking",
        value: "disabled",
      },
      { m: "repo", slug: "ci-tools", repo: "pipelines", field: "requiresDCO", value: true },
      { m: "deleteRepo", slug: "trusted-firmware-a", repo: "docs/user-guide" },
      { m: "access", slug: "ci-tools", level: "developers", user: "asmith", add: true },
      { m: "access", slug: "trusted-firmware-a", level: "maintainers", user: "asmith", add: false },
      { m: "access", slug: "mbed-tls", level: "controllers", user: "lchen", add: true },
      { m: "member", team: "tfa-maintainers", user: "pkumar", add: false },
      { m: "member", team: "ci-operators", user: "jdoe", add: true },
      { m: "user", user: "jdoe", field: "displayName", value: "Janet Doe" },
      { m: "user", user: "bwong", field: "role", value: "users-admin" },
      { m: "teamService", team: "ci-operators", service: "wiki" },
      { m: "group", slug: "trusted-firmware-a", enableCi: false },
      { m: "mirror", frequency: "weekly" },
      { m: "license", slug: "ci-tools", license: "Apache-2.0", add: true },
      { m: "license", slug: "mbed-tls", license: "GPL-2.0", add: false },
      { m: "deleteArtifact", slug: "mbed-tls", name: "wheels" },
    ]);
    const dir = workdir();
    const before = readTree(join(dir, "examples"));
    const r = await driftAdoptPlan(t, dir);
    expect(r.drift.entries.length).toBe(18);
    expect(r.result.adopted.length).toBe(18);
    expect(r.result.notAdoptable.filter((n) => !n.command)).toEqual([]);
    expect(entryLines(r.after)).toEqual([]);
    const after = readTree(join(dir, "examples"));
    for (const [f, text] of before) expect(comments(after.get(f) ?? "")).toEqual(comments(text));
  });

  it("removes the declarations of objects deleted live; a parent a removed path implied stays", async () => {
    const t = await mutated([
      { m: "deleteTeam" },
      { m: "deleteGroup", slug: "mbed-tls" },
      { m: "deleteSubgroup", slug: "trusted-firmware-a", path: "tools/ci" },
    ]);
    const dir = workdir();
    const before = readTree(join(dir, "examples"));
    const r = await driftAdoptPlan(t, dir);
    expect(r.result.notAdoptable).toEqual([]);
    expect(entryLines(r.after)).toEqual([]);
    const after = readTree(join(dir, "examples"));
    const teams = before.get("teams.yaml")!;
    expect(after.get("teams.yaml")).toBe(
      teams.slice(0, teams.indexOf("apiVersion")) + teams.slice(teams.indexOf("---\n")),
    );
    expect(after.get("projects/mbed-tls.yaml")).not.toMatch(/^ {2}git:|subgroups|test-data/m);
    const tfa = after.get("projects/trusted-firmware-a.yaml")!;
    expect(tfa).toContain("    subgroups: [docs, tools]\n");
    expect(tfa).not.toContain("ci-scripts");
    for (const [f, text] of before) expect(comments(after.get(f) ?? "")).toEqual(comments(text));
  });

  it("adopts what only the support desk changes: immutable fields (blocked) and tickets", async () => {
    const t = await mutated([
      { m: "support", slug: "ci-tools", field: "visibility", value: "private" },
      { m: "unblock" },
    ]);
    const sql = (q: string, ...args: unknown[]) => t.server.ctx.db.raw.prepare(q).run(...args);
    sql("UPDATE users SET external_email = ? WHERE username = ?", "alex@new.example.org", "asmith");
    sql(
      "UPDATE service_accounts SET personal_project_limit = 9 WHERE service = 'git' AND user_id = (SELECT id FROM users WHERE username = 'jdoe')",
    );
    sql("UPDATE git_groups SET path = 'mbed' WHERE path = 'mbedtls'");
    sql("UPDATE artifact_repos SET repo_type = 'pypi' WHERE name LIKE '%-images'");
    sql("UPDATE bundles SET frequency = 'monthly'");
    sql("UPDATE repositories SET source_repo_id = 0 WHERE name = 'tf-a-staging'");
    sql("UPDATE mirrors SET ref_space_from = 'refs/heads/main', notification_emails = '[]'");
    sql(
      "INSERT INTO commit_blockers (repo_id, author, committer, since) SELECT id, '[\"arm.com\"]', '[]', NULL FROM repositories WHERE name = 'pipelines'",
    );
    const dir = workdir();
    const before = readTree(join(dir, "examples"));
    const r = await driftAdoptPlan(t, dir);
    expect(r.drift.entries.map((e) => `${e.action} ${e.key}`).sort()).toEqual([
      "blocked project/ci-tools/repo/forks/tf-a-staging",
      "blocked project/mbed-tls/group",
      "blocked project/trusted-firmware-a/artifact/images",
      "blocked project/trusted-firmware-a/mirror/ssh://git@git.example.org/acme/tf-a/trusted-firmware-a.git",
      "blocked project/trusted-firmware-a/mirror/ssh://git@git.example.org/acme/tf-a/trusted-firmware-a.git",
      "blocked project/trusted-firmware-a/repo/trusted-firmware-a",
      "blocked user/asmith",
      "ticket project/ci-tools",
      "update project/ci-tools/repo/pipelines",
      "update project/trusted-firmware-a/repo/trusted-firmware-a",
      "update user/jdoe/service/git",
    ]);
    expect(r.result.notAdoptable).toEqual([]);
    expect(entryLines(r.after)).toEqual([]);
    const after = readTree(join(dir, "examples"));
    const tfa = after.get("projects/trusted-firmware-a.yaml")!;
    expect(tfa).toContain("        bundle: { frequency: monthly }\n");
    expect(tfa).not.toContain("commitBlocker");
    expect(tfa).toContain("      - { name: images, type: pypi }\n");
    expect(tfa).toContain("        refSpaceFrom: refs/heads/main\n");
    expect(tfa).not.toContain("notificationEmails");
    const ci = after.get("projects/ci-tools.yaml")!;
    expect(ci).toContain("  visibility: private\n");
    expect(ci).not.toContain("forkFrom");
    expect(ci).toContain(
      "      - name: pipelines\n        mergeRequests: enabled\n        commitBlocker:\n          author: [arm.com]\n",
    );
    expect(after.get("projects/mbed-tls.yaml")).toContain("    group: { path: mbed }\n");
    expect(after.get("users/acme.yaml")).toContain("  externalEmail: alex@new.example.org\n");
    expect(after.get("users/acme.yaml")).toContain(
      "git: { status: active, personalProjectLimit: 9 }",
    );
    for (const [f, text] of before) expect(comments(after.get(f) ?? "")).toEqual(comments(text));
  });

  it("lists what it cannot adopt with the export command that writes it, and writes nothing for it", async () => {
    const t = await mutated([
      { m: "project", slug: "ci-tools", field: "name", value: "CI tooling" },
    ]);
    const api = client(t);
    await api.call("projects.create", {
      body: {
        name: "Legacy",
        projectSlug: "unmanaged-thing",
        description: "",
        visibility: "public",
        externalContribution: false,
      },
    });
    await api.close();
    const dir = workdir();
    const r = await driftAdoptPlan(t, dir);
    expect(r.result.adopted.map((e) => e.key)).toEqual(["project/ci-tools"]);
    expect(r.result.notAdoptable).toContainEqual({
      key: "project/unmanaged-thing",
      kind: "Project",
      why: "no manifest declares it; export writes its Project document",
      command: "phctl export --organization acme --only project/unmanaged-thing --out phctl-export",
    });
    expect(r.written.written).toEqual(["examples/projects/ci-tools.yaml"]);
  });

  it("leaves alone a file that changed since the plan read it, and one changed while adopting", async () => {
    const t = await mutated([
      { m: "project", slug: "ci-tools", field: "name", value: "CI tooling" },
      { m: "project", slug: "mbed-tls", field: "name", value: "Mbed" },
    ]);
    const dir = workdir();
    const api = client(t);
    const { state, files } = await load(dir);
    const drift = await runPlan({ api, state, apiUrl: t.url });
    await api.close();
    const ci = join(dir, "examples/projects/ci-tools.yaml");
    writeFileSync(ci, readFileSync(ci, "utf8").replace("licenses: [MIT]", "licenses: [MIT, ISC]"));
    const result = adopt({ plan: drift, state, files, cwd: dir });
    expect(result.adopted.map((e) => e.key)).toEqual(["project/mbed-tls"]);
    expect(result.notAdoptable).toEqual([
      {
        key: "project/ci-tools",
        kind: "Project",
        why: "examples/projects/ci-tools.yaml changed since phctl read it; nothing was written to it",
      },
    ]);
    const mbed = join(dir, "examples/projects/mbed-tls.yaml");
    writeFileSync(mbed, `${readFileSync(mbed, "utf8")}# edited meanwhile\n`);
    const out = writeAdopted(result.files, dir);
    expect(out).toEqual({
      written: [],
      deleted: [],
      refused: [{ file: "examples/projects/mbed-tls.yaml", why: "changed while phctl adopted it" }],
    });
    expect(readFileSync(mbed, "utf8")).toContain("title: Mbed TLS\n");
  });
});
