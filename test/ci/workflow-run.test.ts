/**
 * The example plan workflow (examples/.github/workflows/phctl-plan.yml, with the action at the
 * repository root) run step by step as GitHub would run it on a pull request whose head commit
 * changes one project: a shallow checkout, the event file, the runner's files, `phctl serve`
 * (matching the base commit) as the service with a read-only token, the fake GitHub for the
 * comment. Asserted: one comment with the marker, the step summary, the plan artifact scoped
 * to the one project; a second push updates the comment; a fork's pull request plans nothing.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { loadManifests } from "../../src/pipeline/load.js";
import { GITHUB_TOKENS, startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import { populate } from "../helpers/populate.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import {
  configRepo,
  git,
  hostedActions,
  REPO,
  ROOT,
  runWorkflow,
  type ConfigRepo,
} from "./workflow-fixture.js";

const PR = 7;
let t: TestServer;
let gh: FakeGitHub;
let repo: ConfigRepo;
let base: string;
let head: string;

beforeAll(async () => {
  t = await startServer();
  const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret });
  const { state } = await loadManifests([join(ROOT, "examples")]);
  await populate(api, state!); // the service matches the base commit
  await api.close();
  gh = await startFakeGitHub();
  repo = configRepo(t.url);
  base = git(repo.seed, "rev-parse", "HEAD");
  head = repo.commit("projects/ci-tools.yaml", "Shared continuous-integration tooling", "Shared CI tooling for every team", "ci-tools: a clearer description"); // prettier-ignore
});
afterAll(async () => {
  await gh?.close();
  await t?.close();
});

async function planRun(opts: { headRepo?: string; readToken?: string } = {}) {
  const { emulate, artifacts } = hostedActions();
  const pull = {
    number: PR,
    base: { ref: "main", sha: base, repo: { full_name: REPO } },
    head: { ref: "ci-tools", sha: head, repo: { full_name: opts.headRepo ?? REPO } },
  };
  const secrets: Record<string, string> = { GITHUB_TOKEN: GITHUB_TOKENS.write };
  if (opts.readToken !== "") secrets.PHCTL_READ_TOKEN = TOKENS.member.secret; // read-only role
  const run = await runWorkflow({
    repo,
    workflow: "phctl-plan.yml",
    job: "plan",
    sha: head,
    event: { action: "synchronize", number: PR, pull_request: pull, repository: { full_name: REPO } }, // prettier-ignore
    eventName: "pull_request",
    githubApiUrl: gh.url,
    githubToken: GITHUB_TOKENS.write,
    secrets,
    runId: "4242",
    emulate,
  });
  return { ...run, artifacts };
}

const outcome = (job: { steps: { name: string; outcome: string }[] }, name: string) =>
  job.steps.find((s) => s.name === name)?.outcome;

describe("the plan workflow on a pull request", () => {
  it("plans only the changed project, uploads the plan and posts one comment", async () => {
    const { job, artifacts, failed } = await planRun();
    expect(failed).toEqual([]);
    expect(job.status).toBe("success");
    const ran = job.steps.filter((s) => s.outcome === "success").map((s) => s.name);
    expect(ran).toEqual(expect.arrayContaining(["Install phctl", "Check out the base commit", "Plan", "Comment on the pull request"])); // prettier-ignore

    const plan = JSON.parse(artifacts.get("4242/phctl-plan-default")!);
    expect(plan.scope).toEqual(["project/ci-tools"]);
    expect(plan.entries.map((e: { key: string }) => e.key)).toEqual(["project/ci-tools"]);

    const comments = gh.comments(REPO, PR);
    expect(comments).toHaveLength(1);
    expect(comments[0].body).toMatch(/^<!-- phctl/);
    expect(comments[0].body).toContain("`project/ci-tools`");
    expect(comments[0].body).toContain("Shared CI tooling for every team");
    expect(job.summary).toContain(comments[0].body.trim());
  });

  it("a second push updates the same comment", async () => {
    head = repo.commit("projects/ci-tools.yaml", "title: CI tools", "title: CI tooling", "ci-tools: title too"); // prettier-ignore
    const { job, failed } = await planRun();
    expect(failed).toEqual([]);
    expect(job.status).toBe("success");
    const comments = gh.comments(REPO, PR);
    expect(comments).toHaveLength(1);
    expect(comments[0].body).toContain('"CI tooling"');
    expect(gh.requests.filter((r) => r.method === "PATCH")).toHaveLength(1);
    expect(gh.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("a change a deny policy rule breaks: the plan uploaded and commented on, then the job fails", async () => {
    // The examples' two-admins policy denies on projects labelled tier: critical: ci-tools
    // becomes critical and keeps one admin.
    head = repo.commit("projects/ci-tools.yaml", "  labels: { tier: tooling }\n", "  labels: { tier: critical }\n", "ci-tools: critical"); // prettier-ignore
    head = repo.commit("projects/ci-tools.yaml", "admins: [jdoe, asmith]", "admins: [jdoe]", "ci-tools: one admin"); // prettier-ignore
    const { job, artifacts, failed } = await planRun();
    expect(failed.map((f) => f.split(":")[0])).toEqual(["Fail on a policy denial"]);
    expect(job.status).toBe("failure");
    expect(outcome(job, "Validate the manifests")).toBe("success");
    expect(outcome(job, "Plan")).toBe("success");
    expect(outcome(job, "Comment on the pull request")).toBe("success");
    expect(outcome(job, "Fail on a policy denial")).toBe("failure");
    const plan = JSON.parse(artifacts.get("4242/phctl-plan-default")!);
    expect(plan.violations).toEqual([
      expect.objectContaining({
        policy: "two-admins",
        key: "project/ci-tools",
        enforcement: "deny",
      }),
    ]);
    const [comment] = gh.comments(REPO, PR);
    expect(comment.body).toContain("· policy: 1 denied, 0 warnings ·");
    expect(comment.body).toContain("#### Policy violations — 1 denied, 0 warnings");
  });

  it("a pull request from a fork (no secrets) plans nothing and says so in the summary", async () => {
    const before = gh.requests.length;
    const { job, artifacts } = await planRun({ headRepo: "someone/config", readToken: "" });
    expect(job.status).toBe("success");
    expect(job.summary).toContain("a pull request from a fork (someone/config) gets no service credentials"); // prettier-ignore
    expect(job.steps.find((s) => s.name === "Plan")?.outcome).toBe("skipped");
    expect(artifacts.size).toBe(0);
    expect(gh.requests.length).toBe(before);
  });
});
