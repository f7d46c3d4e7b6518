/**
 * Plans scoped to the change, end to end: the built CLI against the reference server on
 * loopback, the examples applied, a head copy with one project changed. `plan HEAD --base
 * BASE` reads and diffs that project alone (counted on the server's request log) and
 * splits the drift already present in it; `--full` shows drift elsewhere too; unchanged
 * manifests read nothing; a target matching nothing is an error; `apply --target` is not
 * refused because of another project.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import type { Plan } from "../../src/engine/plan.js";
import { loadManifests } from "../../src/pipeline/load.js";
import { phctl } from "../helpers/cli.js";
import { populate } from "../helpers/populate.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { copyExamples } from "../helpers/examples.js";

let t: TestServer;
let api: ApiClient;
let dir: string;
let env: Record<string, string>;

const edit = (file: string, from: string | RegExp, to: string) => {
  const text = readFileSync(file, "utf8");
  const out = text.replace(from, to);
  if (out === text) throw new Error(`no ${String(from)} in ${file}`);
  writeFileSync(file, out);
};

beforeAll(async () => {
  t = await startServer({ requestLog: true });
  api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret });
  dir = mkdtempSync(join(tmpdir(), "phctl-scoped-"));
  copyExamples(join(dir, "base"));
  copyExamples(join(dir, "head"));
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
  await populate(api, (await loadManifests([join(dir, "base")])).state!);
  // The change: ci-tools' description, and one repository more.
  const ci = join(dir, "head/projects/ci-tools.yaml");
  edit(ci, "description: Shared continuous-integration tooling", "description: Shared CI");
  edit(ci, "    repositories:\n", "    repositories:\n      - name: dashboards\n");
  // Drift already present: in ci-tools (its title; a repository) and in mbed-tls.
  await t.call("PATCH", "/v1/projects/ci-tools", { body: { name: "CI tools (renamed)" } });
  const repos = (await t.call("GET", "/v1/projects/ci-tools/git/repo")).body.data;
  const pipelines = repos.find((r: { name: string }) => r.name === "pipelines");
  await t.call("PATCH", `/v1/projects/ci-tools/git/repo/${pipelines.gitRepoID}`, {
    body: { mergeRequests: "disabled" },
  });
  await t.call("PATCH", "/v1/projects/mbed-tls", { body: { description: "drifted" } });
});
afterAll(async () => {
  await api.close();
  await t.close();
});

/** Run the CLI; the requests it made (the log cleared before). */
async function run(args: string[]) {
  t.server.requestLog.length = 0;
  const r = await phctl(args, env, dir);
  return { ...r, requests: [...t.server.requestLog] };
}

describe("phctl plan HEAD --base BASE", () => {
  it("reads and plans only the changed project; its drift is split out", async () => {
    const r = await run(["plan", "head", "--base", "base", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      "phctl: planning the 1 object the change touches (project/ci-tools); --full plans everything",
    );
    const plan = JSON.parse(r.stdout) as Plan;
    expect(plan.scope).toEqual(["project/ci-tools"]);
    expect(plan.entries.map((e) => `${e.action} ${e.key}`).sort()).toEqual([
      "create project/ci-tools/repo/dashboards",
      "update project/ci-tools",
      "update project/ci-tools/repo/pipelines",
    ]);
    const project = plan.entries.find((e) => e.key === "project/ci-tools")!;
    expect(project.changes.map((c) => c.field).sort()).toEqual(["description", "title"]);
    expect(project.driftFields).toEqual(["title"]);
    expect(plan.drift).toEqual(["project/ci-tools/repo/pipelines"]);
    // mbed-tls (drifted, untouched by the change) is not even read.
    expect(r.requests.filter((e) => e.url.includes("mbed-tls"))).toEqual([]);
    expect(r.requests.every((e) => e.method === "GET")).toBe(true);
    // ci-tools' six reads, its fork source's (trusted-firmware-a), the shared lists.
    expect(r.requests.length).toBeLessThanOrEqual(20);
    expect(plan.stats.apiCalls).toBe(r.requests.length);
  });

  it("--full plans everything, split the same way: mbed-tls' drift shows as drift", async () => {
    const r = await run(["plan", "head", "--base", "base", "--full", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as Plan;
    expect(plan.scope).toBeUndefined();
    expect(plan.drift).toEqual(["project/ci-tools/repo/pipelines", "project/mbed-tls"]);
    expect(plan.entries.find((e) => e.key === "project/ci-tools")!.driftFields).toEqual(["title"]);
    expect(r.requests.some((e) => e.url.includes("mbed-tls"))).toBe(true);
  });

  it("--out binds the scoped plan to the head manifests; the text shows the split", async () => {
    const r = await run(["plan", "head", "--base", "base", "--out", "pr.json"]);
    expect(r.code, r.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(join(dir, "pr.json"), "utf8")) as Plan;
    expect(saved.scope).toEqual(["project/ci-tools"]);
    expect(Object.keys(saved.manifests!.files)).toContain("projects/ci-tools.yaml");
    expect(saved.entriesDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(r.stdout).toContain("project/ci-tools/repo/dashboards");
    expect(r.stdout).not.toContain("mbed-tls");
  });

  it("unchanged manifests: the change touches nothing, nothing is read", async () => {
    const r = await run(["plan", "base", "--base", "base", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("phctl: the change touches nothing phctl manages");
    const plan = JSON.parse(r.stdout) as Plan;
    expect([plan.entries, plan.scope, r.requests.length]).toEqual([[], [], 0]);
  });

  it("an error in the base is reported as the base's, and nothing is planned", async () => {
    const bad = join(dir, "bad");
    cpSync(join(dir, "base"), bad, { recursive: true });
    edit(join(bad, "teams.yaml"), "members: [bwong, lchen]", "members: bwong");
    const r = await run(["plan", "head", "--base", "bad"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^base: bad\/teams\.yaml:\d+:\d+ Team ci-operators: spec\.members must be a list/m,
    );
    expect(r.stderr).toMatch(/phctl: 1 error in the base config bad; nothing was planned/);
    expect(r.requests).toEqual([]);
  });
});

describe("--target scopes the read", () => {
  it("a target matching nothing declared is an error", async () => {
    const r = await run(["plan", "head", "--target", "project/nope"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "phctl: --target project/nope matches nothing declared; declared keys look like project/<slug>, user/<name>",
    );
  });

  it("one targeted project reads that project, not every project", async () => {
    const r = await run(["plan", "head", "--target", "project/mbed-tls", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as Plan;
    // The organization its update depends on is pulled in (read from the list; in sync).
    expect(plan.scope).toEqual(["organization/linaro-partner", "project/mbed-tls"]);
    expect(plan.entries.map((e) => e.key)).toEqual(["project/mbed-tls"]);
    expect(r.requests.filter((e) => e.url.includes("ci-tools"))).toEqual([]);
  });

  it("apply --target is not refused because of a project outside it (single inactive admin)", async () => {
    const fresh = await startServer();
    try {
      const cfg = join(dir, "fresh");
      cpSync(join(dir, "base"), cfg, { recursive: true });
      // mbed-tls, which ci-tools does not depend on, has one admin, an inactive user (an
      // inactive admin does not count: a full apply would be refused).
      writeFileSync(
        join(cfg, "users/idle.yaml"),
        "apiVersion: phctl/v1\nkind: User\nmetadata: { name: idle }\nspec:\n  firstName: I\n  lastName: Dle\n  externalEmail: idle@example.org\n  status: inactive\n",
      );
      edit(join(cfg, "projects/mbed-tls.yaml"), "admins: [pkumar, jdoe]", "admins: [idle]");
      const env2 = { PHCTL_API_URL: fresh.url, PHCTL_TOKEN: TOKENS.admin.secret };
      const r = await phctl(
        ["apply", "fresh", "--target", "project/ci-tools", "--auto-approve"],
        env2,
        dir,
      );
      expect(r.stderr).not.toContain("refusing");
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain("create project/trusted-firmware-a");
      expect(r.stdout).toContain("create project/ci-tools/repo/forks/tf-a-staging");
      expect(r.stdout).not.toContain("create project/mbed-tls");
    } finally {
      await fresh.close();
    }
  });
});
