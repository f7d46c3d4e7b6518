/**
 * `phctl apply CONFIG --reviewed PLAN.json`, end to end against phctl serve: the apply after
 * merge carries out what was reviewed on the pull request, refuses anything else with
 * nothing sent, is safe to run again, and always writes its --result.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestLogEntry } from "../../src/server/app.js";
import { phctl } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { copyExamples } from "../helpers/examples.js";

const writes = (log: readonly RequestLogEntry[]) => log.filter((e) => e.method !== "GET");

function edit(file: string, from: string | RegExp, to: string): void {
  const text = readFileSync(file, "utf8");
  const next = text.replace(from, to);
  if (next === text) throw new Error(`${file}: nothing replaced`);
  writeFileSync(file, next);
}

describe("apply --reviewed", () => {
  let t: TestServer;
  let dir: string;
  let env: Record<string, string>;
  const result = () => JSON.parse(readFileSync(join(dir, "result.json"), "utf8"));

  beforeAll(async () => {
    t = await startServer({ requestLog: true });
    env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
    dir = mkdtempSync(join(tmpdir(), "phctl-reviewed-"));
    copyExamples(join(dir, "config"));
    const first = await phctl(["apply", "config", "--auto-approve"], env, dir);
    expect(first.code, first.stderr).toBe(0);
  });
  afterAll(() => t.close());

  it("applies the reviewed plan when the merged commit plans the same, then finds it in place", async () => {
    edit(join(dir, "config/projects/ci-tools.yaml"), "title: CI tools", "title: CI tooling");
    const plan = await phctl(["plan", "config", "--out", "reviewed.json"], env, dir);
    expect(plan.code, plan.stderr).toBe(0);
    const before = writes(t.server.requestLog).length;
    const run = await phctl(
      ["apply", "config", "--reviewed", "reviewed.json", "--result", "result.json"],
      env,
      dir,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("plans what was reviewed");
    expect(writes(t.server.requestLog).length).toBeGreaterThan(before);
    const r = result();
    expect(r).toMatchObject({ status: "applied", done: 1, failed: 0 });
    expect(r.planHash).toMatch(/^[0-9a-f]{64}$/);
    // The same job run again (a re-run in CI): everything is in place, nothing is sent.
    const again = before + 1;
    const rerun = await phctl(
      ["apply", "config", "--reviewed", "reviewed.json", "--result", "result.json"],
      env,
      dir,
    );
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain("already in place");
    expect(writes(t.server.requestLog)).toHaveLength(again);
    expect(result().status).toBe("no-changes");
  });

  it("refuses a merged commit that plans more than was reviewed, naming the field; nothing sent", async () => {
    edit(
      join(dir, "config/projects/ci-tools.yaml"),
      "description: Shared continuous-integration tooling",
      "description: Reviewed description",
    );
    expect((await phctl(["plan", "config", "--out", "reviewed.json"], env, dir)).code).toBe(0);
    // After review, the default branch moved: another field of the same project changed.
    edit(join(dir, "config/projects/ci-tools.yaml"), "title: CI tooling", "title: Other title");
    const before = writes(t.server.requestLog).length;
    const run = await phctl(
      ["apply", "config", "--reviewed", "reviewed.json", "--result", "result.json"],
      env,
      dir,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/differs from the one reviewed on the pull request/);
    expect(run.stderr).toContain("project/ci-tools");
    expect(run.stderr).toContain(
      'title not reviewed (live "CI tooling", apply would set "Other title")',
    );
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(writes(t.server.requestLog)).toHaveLength(before);
    const r = result();
    expect(r.status).toBe("refused");
    expect(r.differences).toEqual([
      'update project/ci-tools: title not reviewed (live "CI tooling", apply would set "Other title")',
    ]);
  });

  it("refuses a reviewed value that changed before merge", async () => {
    edit(join(dir, "config/projects/ci-tools.yaml"), "title: Other title", "title: CI tooling");
    // Reviewed: description "Reviewed description"; merged: another description.
    edit(
      join(dir, "config/projects/ci-tools.yaml"),
      "description: Reviewed description",
      "description: Merged description",
    );
    const run = await phctl(["apply", "config", "--reviewed", "reviewed.json"], env, dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'description reviewed "Reviewed description", apply would now set "Merged description" (live "Shared continuous-integration tooling")',
    );
  });

  it("refuses an edited reviewed plan and a saved plan given with it", async () => {
    const plan = JSON.parse(readFileSync(join(dir, "reviewed.json"), "utf8"));
    plan.entries[0].changes[0].after = "edited";
    writeFileSync(join(dir, "edited.json"), JSON.stringify(plan));
    const edited = await phctl(
      ["apply", "config", "--reviewed", "edited.json", "--result", "result.json"],
      env,
      dir,
    );
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain("was edited after phctl made it");
    expect(result().status).toBe("refused");
    const both = await phctl(["apply", "reviewed.json", "--reviewed", "reviewed.json"], env, dir);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain("does not take a saved plan too");
  });

  it("a result file that cannot be written never hides why the apply stopped", async () => {
    const refused = await phctl(
      ["apply", "config", "--reviewed", "edited.json", "--result", "config/phctl.yaml/result.json"],
      env,
      dir,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("was edited after phctl made it");
    expect(refused.stderr).toMatch(
      /^phctl: cannot write config\/phctl\.yaml\/result\.json: E[A-Z]+: the --result file was not written/m,
    );
    // Nothing to do and done: the run says the result is missing, and fails for it (CI reads it).
    const done = await phctl(
      ["apply", "config", "--auto-approve", "--result", "config/phctl.yaml/result.json"],
      env,
      dir,
    );
    expect(done.code).toBe(1);
    expect(done.stderr).toMatch(
      /^phctl: the apply finished, but cannot write config\/phctl\.yaml\/result\.json: E[A-Z]+: the --result file was not written/m,
    );
  });
});

describe("apply --reviewed of a plan that nothing moved (issue 27, defect 1)", () => {
  let t: TestServer;
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    t = await startServer();
    env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
    dir = mkdtempSync(join(tmpdir(), "phctl-reviewed-same-"));
    copyExamples(join(dir, "config"));
    const first = await phctl(["apply", "config", "--auto-approve"], env, dir);
    expect(first.code, first.stderr).toBe(0);
  });
  afterAll(() => t.close());

  it("applies a user written the examples' way (no displayName, `git: {}`): the fields defaults leave out compare equal", async () => {
    const file = join(dir, "config/users/acme.yaml");
    writeFileSync(
      file,
      `${readFileSync(file, "utf8")}---\napiVersion: phctl/v1\nkind: User\nmetadata:\n  name: mgarcia\nspec:\n  firstName: Maria\n  lastName: Garcia\n  externalEmail: maria.garcia@example.org\n  services:\n    git: {}\n`,
    );
    const plan = await phctl(["plan", "config", "--out", "same.json"], env, dir);
    expect(plan.code, plan.stderr).toBe(0);
    const run = await phctl(
      ["apply", "config", "--reviewed", "same.json", "--auto-approve"],
      env,
      dir,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain("differs");
    expect((await t.call("GET", "/v1/users/mgarcia")).status).toBe(200);
  });

  it("refuses when the live value of a reviewed field moved since the review, naming both values", async () => {
    edit(
      join(dir, "config/projects/mbed-tls.yaml"),
      // Its issue tracking comes from a Defaults layer: the project overrides it.
      "      - name: mbedtls #",
      "      - name: mbedtls\n        issueTracking: private #",
    );
    const plan = await phctl(["plan", "config", "--out", "moved.json"], env, dir);
    expect(plan.code, plan.stderr).toBe(0);
    // After the review, someone turns issue tracking off by hand.
    const repos = await t.call("GET", "/v1/projects/mbed-tls/git/repo");
    const repo = (repos.body.data as { name: string; gitRepoID: number }[]).find(
      (r) => r.name === "mbedtls",
    )!;
    const patched = await t.call("PATCH", `/v1/projects/mbed-tls/git/repo/${repo.gitRepoID}`, {
      body: { issueTracking: "disabled" },
    });
    expect(patched.status).toBeLessThan(300);
    const before = writes(t.server.requestLog).length;
    const run = await phctl(
      ["apply", "config", "--reviewed", "moved.json", "--auto-approve"],
      env,
      dir,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /update project\/mbed-tls\/repo\/mbedtls: issueTracking was "enabled" live at review \("enabled" → "private" was reviewed\), now "disabled"/,
    );
    // Two different hashes, never the same one twice.
    const [, a, b] =
      /\(([0-9a-f]{12})\) differs from the one reviewed on the pull request \(([0-9a-f]{12})\)/.exec(
        run.stderr,
      ) ?? [];
    expect(a).toBeDefined();
    expect(a).not.toBe(b);
    expect(writes(t.server.requestLog)).toHaveLength(before);
  });
});
