/**
 * A failed apply in a GitLab job, end to end: the built CLI against the reference server (one
 * write answered 429 for an hour), then `phctl comment --outcome --follow-up` against the fake
 * GitLab. The job log gets one plain line per failed object (GitLab reads no `::error`),
 * `--result` carries it, the merge request's note lists it with its next step, and one
 * follow-up issue stays open until an apply carries everything.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { copyExamples } from "../helpers/examples.js";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { loadManifests } from "../../src/pipeline/load.js";
import { samplePlan } from "../fixtures/sample-plan.js";
import { phctl } from "../helpers/cli.js";
import { GITLAB_TOKENS, startFakeGitLab, type FakeGitLab } from "../helpers/fake-gitlab.js";
import { populate } from "../helpers/populate.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { writeJson } from "./helpers.js";

const ROOT = resolve(import.meta.dirname, "../..");
const PROJECT = "42";
let t: TestServer;
let gl: FakeGitLab;
let dir: string;

beforeAll(async () => {
  t = await startServer();
  const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret });
  const { state } = await loadManifests([join(ROOT, "examples")]);
  await populate(api, state!);
  await api.close();
  gl = await startFakeGitLab();
  dir = mkdtempSync(join(tmpdir(), "phctl-apply-failure-"));
  copyExamples(join(dir, "config"));
});
afterAll(async () => {
  await gl?.close();
  await t?.close();
});

const job = {
  CI: "true",
  GITLAB_CI: "true",
  CI_API_V4_URL: "",
  CI_PROJECT_ID: PROJECT,
  CI_PROJECT_URL: "https://gitlab.example/acme/config",
  CI_COMMIT_SHA: "3".repeat(40),
  CI_PIPELINE_ID: "880",
  CI_PIPELINE_URL: "https://gitlab.example/acme/config/-/pipelines/880",
};

describe("a failed apply on GitLab", () => {
  it("says each failed object in the job log and the note; one follow-up issue, closed by the next full apply", async () => {
    const file = join(dir, "config/projects/ci-tools.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("Shared continuous-integration tooling", "Reviewed CI tooling")); // prettier-ignore
    await t.call("POST", "/_control/faults", {
      body: { faults: [{ kind: "status429", operation: "projects.patch", retryAfter: 3600, times: 5 }] }, // prettier-ignore
    });
    const env = { ...job, PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
    const result = join(dir, "phctl-apply.json");
    const applied = await phctl(["apply", "config", "--auto-approve", "--journal", join(dir, "journal.jsonl"), "--result", result], env, dir); // prettier-ignore
    await t.call("DELETE", "/_control/faults");
    expect(applied.code).toBe(1);
    // The job log: one line for people per failed object, beside the JSON lines.
    expect(applied.stderr).toMatch(/^phctl: failed update project\/ci-tools: .*429.* — next: the service did not take it: re-run the apply job/m); // prettier-ignore
    expect(applied.stderr).not.toContain("::error");
    expect(applied.stderr + applied.stdout).not.toContain(TOKENS.admin.secret);
    const outcome = JSON.parse(readFileSync(result, "utf8"));
    expect(outcome.failures).toEqual([
      { key: "project/ci-tools", action: "update", error: expect.stringContaining("429"), next: expect.stringContaining("re-run the apply job") }, // prettier-ignore
    ]);

    const plan = writeJson(dir, "reviewed-plan.json", samplePlan());
    const glEnv = { ...job, CI_API_V4_URL: gl.apiUrl, PHCTL_GITLAB_TOKEN: GITLAB_TOKENS.write };
    const said = await phctl(["comment", plan, "--pr", "9", "--outcome", result, "--follow-up"], glEnv); // prettier-ignore
    expect(said.code, said.stderr).toBe(0);
    const note = gl.notes(PROJECT, 9)[0].body;
    expect(note).toMatch(/\*\*Apply failed\*\* in \[pipeline 880\]\([^)]*\): \d+ done, 1 failed\./);
    expect(note).toMatch(/^- update project\/ci-tools: .*429.* — \*\*next:\*\* the service did not take it/m); // prettier-ignore
    expect(said.stderr).toMatch(/opened the follow-up issue #\d+ of key default/);
    const issues = () => gl.issues.list(PROJECT).filter((i) => i.labels.includes("phctl-follow-up")); // prettier-ignore
    expect(issues()).toHaveLength(1);
    expect(issues()[0].body).toContain("merge request !9");
    expect(issues()[0].body).toContain("retry the `phctl-apply` job of [pipeline 880]");
    expect(issues()[0].body).toContain("git push -u origin HEAD -o merge_request.create");

    // Failed again: the same issue, updated.
    const again = await phctl(["comment", plan, "--pr", "9", "--outcome", result, "--follow-up"], glEnv); // prettier-ignore
    expect(again.stderr).toMatch(/updated the follow-up issue/);
    expect(issues()).toHaveLength(1);

    // The retried job applies everything: the issue is closed.
    const retried = await phctl(["apply", "config", "--auto-approve", "--journal", join(dir, "journal.jsonl"), "--result", result], env, dir); // prettier-ignore
    expect(retried.code, retried.stderr).toBe(0);
    const closed = await phctl(["comment", plan, "--pr", "9", "--outcome", result, "--follow-up"], glEnv); // prettier-ignore
    expect(closed.stderr).toMatch(/closed the follow-up issue/);
    expect(issues()).toHaveLength(1);
    expect(issues()[0].state).toBe("closed");
    expect(gl.notes(PROJECT, 9)[0].body).toMatch(/\*\*Applied\*\* in \[pipeline 880\]/);
  }, 120_000);
});
