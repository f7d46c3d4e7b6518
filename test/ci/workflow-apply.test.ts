/**
 * The example apply workflow (examples/.github/workflows/phctl-apply.yml, action at the root)
 * after a merge, run step by step: it finds the merged pull request and the plan run reviewed
 * on it, downloads that plan, restores the journal, applies with the write token, saves the
 * journal and reports the outcome on the pull request's comment. A direct push applies
 * nothing, and the scheduled drift workflow then reports it (the job fails, one tracking issue
 * opens, the metrics file is written). GitHub is the fake of test/helpers, behind the front
 * of workflow-fixture.ts (a commit's pull requests, a workflow's runs).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { loadManifests } from "../../src/pipeline/load.js";
import { GITHUB_TOKENS, startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import { populate } from "../helpers/populate.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { cachedFiles, configRepo, git, hostedActions, REPO, ROOT, runWorkflow, startGitHubFront, type ConfigRepo, type GitHubFront } from "./workflow-fixture.js"; // prettier-ignore

const PR = 12;
const PLAN_RUN = "5001";
let t: TestServer;
let gh: FakeGitHub;
let front: GitHubFront;
let frontUrl: string;
let repo: ConfigRepo;
const actions = hostedActions();
/** What the front answers: merge commit → pull requests; PR head sha → successful plan runs. */
const pullsOf = new Map<string, object[]>();
const runsOf = new Map<string, object[]>();

beforeAll(async () => {
  t = await startServer();
  const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret });
  const { state } = await loadManifests([join(ROOT, "examples")]);
  await populate(api, state!);
  await api.close();
  gh = await startFakeGitHub();
  front = await startGitHubFront(gh.url, { pullsOf, runsOf });
  frontUrl = front.url;
  repo = configRepo(t.url);
});
afterAll(async () => {
  await front?.close();
  await gh?.close();
  await t?.close();
});

const github = { githubApiUrl: "", githubToken: GITHUB_TOKENS.write };
const writes = () => t.server.requestLog.filter((e) => e.method !== "GET").length;
const description = async () =>
  (await t.call("GET", "/v1/projects/ci-tools")).body.data.description as string;

describe("the apply workflow after merge", () => {
  it("applies the plan reviewed on the merged pull request and reports it on its comment", async () => {
    github.githubApiUrl = frontUrl;
    const base = git(repo.seed, "rev-parse", "HEAD");
    git(repo.seed, "checkout", "-q", "-b", "ci-tools");
    const head = repo.commit("projects/ci-tools.yaml", "Shared continuous-integration tooling", "Shared CI tooling, reviewed", "ci-tools: description", "ci-tools"); // prettier-ignore
    const pull = { number: PR, base: { ref: "main", sha: base, repo: { full_name: REPO } }, head: { ref: "ci-tools", sha: head, repo: { full_name: REPO } } }; // prettier-ignore
    const plan = await runWorkflow({
      ...github,
      repo,
      workflow: "phctl-plan.yml",
      job: "plan",
      sha: head,
      event: { action: "opened", number: PR, pull_request: pull },
      eventName: "pull_request",
      secrets: { PHCTL_READ_TOKEN: TOKENS.member.secret },
      runId: PLAN_RUN,
      emulate: actions.emulate,
    });
    expect(plan.failed).toEqual([]);

    git(repo.seed, "checkout", "-q", "main");
    git(repo.seed, "merge", "-q", "--no-ff", "-m", `Merge pull request #${PR}`, "ci-tools");
    git(repo.seed, "push", "-q", repo.origin, "HEAD:main");
    const merge = git(repo.seed, "rev-parse", "HEAD");
    pullsOf.set(merge, [{ number: PR, merged_at: "2026-01-02T00:00:00Z", merge_commit_sha: merge, head: { sha: head } }]); // prettier-ignore
    runsOf.set(head, [{ id: Number(PLAN_RUN) }]);

    const before = writes();
    const apply = await runWorkflow({
      ...github,
      repo,
      workflow: "phctl-apply.yml",
      job: "apply",
      sha: merge,
      event: { ref: "refs/heads/main", after: merge, before: base },
      eventName: "push",
      secrets: { PHCTL_TOKEN: TOKENS.admin.secret },
      runId: "5002",
      emulate: actions.emulate,
    });
    expect(apply.failed).toEqual([]);
    expect(apply.job.status).toBe("success");
    expect(await description()).toBe("Shared CI tooling, reviewed");
    expect(writes()).toBeGreaterThan(before);
    const step = apply.job.steps.find((s) => s.name.startsWith("Find the plan reviewed"))!;
    expect(step.stdout).toContain(`pull request #${PR} (run ${PLAN_RUN} of phctl-plan.yml)`);

    const comments = gh.comments(REPO, PR);
    expect(comments).toHaveLength(1);
    expect(comments[0].body).toMatch(/Applied.*run 5002.*1 done, 0 failed/);
    expect([...actions.cache.keys()]).toEqual(["phctl-journal-default-5002-1"]);
    const saved = cachedFiles(actions.cache.get("phctl-journal-default-5002-1"));
    expect(saved[".phctl/default/journal.jsonl"]).toContain("project/ci-tools");
    expect(JSON.parse(saved[".phctl/default/applied.json"])).toMatchObject({ commit: merge });
  });

  it("a direct push, reviewed by no pull request, applies nothing and says why", async () => {
    const direct = repo.commit("projects/ci-tools.yaml", "title: CI tools", "title: CI tooling", "direct push"); // prettier-ignore
    const before = writes();
    const apply = await runWorkflow({
      ...github,
      repo,
      workflow: "phctl-apply.yml",
      job: "apply",
      sha: direct,
      event: { ref: "refs/heads/main", after: direct },
      eventName: "push",
      secrets: { PHCTL_TOKEN: TOKENS.admin.secret },
      runId: "5003",
      emulate: actions.emulate,
    });
    expect(apply.job.status).toBe("failure");
    const find = apply.job.steps.find((s) => s.name.startsWith("Find the plan reviewed"))!;
    expect(find.outcome).toBe("failure");
    expect(find.stdout).toContain(`${direct} is not the merge of a pull request (a direct push?)`);
    expect(apply.job.steps.find((s) => s.name === "Apply")?.outcome).toBe("skipped");
    expect(writes()).toBe(before);
    // Said where people look: one follow-up issue, the way to carry the push reviewed.
    const followUps = gh.issues.list(REPO).filter((i) => i.labels.includes("phctl-follow-up"));
    expect(followUps.map((i) => [i.state, i.title])).toEqual([
      ["open", `phctl: merged changes not applied: the apply of ${direct.slice(0, 7)} refused`],
    ]);
    expect(followUps[0].body).toContain(`${direct.slice(0, 7)} is not the merge of a reviewed pull request (a direct push?)`); // prettier-ignore
    expect(followUps[0].body).toContain("Re-running the apply job cannot help");
    expect(followUps[0].body).toContain("git commit --allow-empty");
    expect(find.stdout + find.stderr).toMatch(/opened the follow-up issue #\d+ of key default/);
  });

  it("the drift workflow fails on drift, names it, lists it in the summary, opens one issue", async () => {
    // The direct push above was never applied: live state differs from main.
    const sha = git(repo.seed, "rev-parse", "HEAD");
    const drift = await runWorkflow({
      ...github,
      repo,
      workflow: "phctl-drift.yml",
      job: "drift",
      sha,
      event: { schedule: "17 6 * * 1-5" },
      eventName: "schedule",
      secrets: { PHCTL_READ_TOKEN: TOKENS.member.secret },
      runId: "5004",
      emulate: actions.emulate,
    });
    expect(drift.job.status).toBe("failure");
    const step = drift.job.steps.find((s) => s.name === "Drift")!;
    expect(step.outcome).toBe("failure");
    expect(step.stdout).toContain("::error title=phctl drift::live state differs from .");
    expect(step.stdout).not.toContain("an error, not drift");
    expect(drift.job.summary).toContain("`project/ci-tools`");
    expect(drift.job.summary).toMatch(/^### phctl drift: 1 difference — /m);
    // One tracking issue on the repository, and the metrics file in the workspace.
    const [issue, ...more] = gh.issues.list(REPO).filter((i) => !i.labels.includes("phctl-follow-up")); // prettier-ignore
    expect(more).toEqual([]);
    expect(issue).toMatchObject({ state: "open", labels: ["phctl-drift"] });
    expect(issue.title).toBe("Drift: 1 difference in organization acme");
    expect(issue.body).toMatch(/^<!-- phctl:drift key=default -->\n[^]*\[run 5004\]\(https:\/\/github\.example\/acme\/config\/actions\/runs\/5004\)/); // prettier-ignore
    expect(step.stderr).toContain(`opened drift issue #${issue.number} (key default)`);
    expect(readFileSync(join(drift.workspace, "phctl-drift.prom"), "utf8")).toMatch(/^phctl_drift_in_sync\{key="default"\} 0$/m); // prettier-ignore
    expect(drift.job.steps.at(-1)).toMatchObject({ name: "Push the metrics to a Pushgateway", outcome: "skipped" }); // prettier-ignore
  });
});
