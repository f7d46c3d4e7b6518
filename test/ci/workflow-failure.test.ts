/**
 * Failures reach the pull request, through the example workflows and the action on a fake
 * GitHub and the reference server:
 *
 * - an apply the service fails (one write answered 429 for an hour) posts the failed object
 *   with its error and next step as an `::error` annotation, in `--result` and in the pull
 *   request's comment, and opens ONE follow-up issue that the next apply closes once it has
 *   carried the change out;
 * - a plan that fails after a good one (a typo pushed to the pull request) marks the standing
 *   comment stale, with the error, the earlier plan kept below; the next good plan replaces it;
 * - the plan and apply jobs leave no git worktree behind, also when they fail.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { loadManifests } from "../../src/pipeline/load.js";
import { GITHUB_TOKENS, startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import { populate } from "../helpers/populate.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { configRepo, git, hostedActions, REPO, ROOT, runWorkflow, startGitHubFront, type ConfigRepo, type GitHubFront, type WorkflowRun } from "./workflow-fixture.js"; // prettier-ignore

let t: TestServer;
let gh: FakeGitHub;
let front: GitHubFront;
let repo: ConfigRepo;
const actions = hostedActions();
const pullsOf = new Map<string, object[]>();
const runsOf = new Map<string, object[]>();
let run = 8000;

beforeAll(async () => {
  t = await startServer();
  const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret });
  const { state } = await loadManifests([join(ROOT, "examples")]);
  await populate(api, state!); // live state matches main
  await api.close();
  gh = await startFakeGitHub();
  front = await startGitHubFront(gh.url, { pullsOf, runsOf });
  repo = configRepo(t.url);
});
afterAll(async () => {
  await front?.close();
  await gh?.close();
  await t?.close();
});

const common = () => ({
  repo,
  githubApiUrl: front.url,
  githubToken: GITHUB_TOKENS.write,
  emulate: actions.emulate,
});

/** phctl-plan.yml on pull request `n` at `head`. */
async function plan(n: number, head: string) {
  const base = git(repo.seed, "rev-parse", "main");
  const runId = String(++run);
  const r = await runWorkflow({
    ...common(),
    workflow: "phctl-plan.yml",
    job: "plan",
    sha: head,
    event: { action: "synchronize", number: n, pull_request: { number: n, base: { ref: "main", sha: base, repo: { full_name: REPO } }, head: { ref: `pr-${n}`, sha: head, repo: { full_name: REPO } } } }, // prettier-ignore
    eventName: "pull_request",
    secrets: { PHCTL_READ_TOKEN: TOKENS.member.secret },
    runId,
  });
  if (r.job.status === "success") runsOf.set(head, [{ id: Number(runId) }]);
  return r;
}

/** A branch `pr-n` from main with one edit, planned. */
async function pullRequest(n: number, file: string, from: string, to: string) {
  git(repo.seed, "checkout", "-q", "-b", `pr-${n}`, "main");
  const head = repo.commit(file, from, to, `pull request #${n}`, `pr-${n}`);
  git(repo.seed, "checkout", "-q", "main");
  const r = await plan(n, head);
  expect(r.failed).toEqual([]);
  return head;
}

async function mergeAndApply(n: number, head: string) {
  git(repo.seed, "merge", "-q", "--no-ff", "-m", `Merge pull request #${n}`, `pr-${n}`);
  git(repo.seed, "push", "-q", repo.origin, "HEAD:main");
  const merge = git(repo.seed, "rev-parse", "HEAD");
  pullsOf.set(merge, [{ number: n, merged_at: "2026-01-02T00:00:00Z", merge_commit_sha: merge, head: { sha: head } }]); // prettier-ignore
  return runWorkflow({
    ...common(),
    workflow: "phctl-apply.yml",
    job: "apply",
    sha: merge,
    event: { ref: "refs/heads/main", after: merge },
    eventName: "push",
    secrets: { PHCTL_TOKEN: TOKENS.admin.secret },
    runId: String(++run),
  });
}

const step = (r: WorkflowRun, name: string) => r.job.steps.find((s) => s.name === name)!;
const worktrees = (r: WorkflowRun) =>
  git(r.workspace, "worktree", "list", "--porcelain").match(/^worktree /gm)!.length;
const followUps = () => gh.issues.list(REPO).filter((i) => i.labels.includes("phctl-follow-up"));

describe("a failed apply", () => {
  it("posts each failed object with its error and next step; one follow-up issue, closed by the apply that carries it", async () => {
    // The bootstrap (README): a first pull request that changes nothing live; its apply
    // records the first applied commit, from which later plans show what waits.
    const first = await pullRequest(40, "projects/ci-tools.yaml", "# Shared CI tooling", "# Shared CI tooling (managed by phctl)"); // prettier-ignore
    const boot = await mergeAndApply(40, first);
    expect(boot.failed).toEqual([]);
    expect(step(boot, "Apply").stderr).toMatch(/recorded [0-9a-f]{12} as applied/);
    expect(followUps()).toEqual([]);

    const head = await pullRequest(41, "projects/ci-tools.yaml", "Shared continuous-integration tooling", "Reviewed CI tooling"); // prettier-ignore
    // The service answers the one write "retry in an hour": the apply fails that object.
    await t.call("POST", "/_control/faults", {
      body: { faults: [{ kind: "status429", operation: "projects.patch", retryAfter: 3600, times: 5 }] }, // prettier-ignore
    });
    const failed = await mergeAndApply(41, head);
    await t.call("DELETE", "/_control/faults");
    expect(failed.job.status).toBe("failure");

    // The annotation, in the apply step's log.
    const apply = step(failed, "Apply");
    expect(apply.outcome).toBe("failure");
    expect(apply.stderr).toMatch(/^::error title=phctl apply%3A update project\/ci-tools failed::.*429.* — next: the service did not take it: re-run the apply job/m); // prettier-ignore

    // --result carries it: key, action, error, next step.
    const result = JSON.parse(readFileSync(join(failed.runnerTemp, "phctl-apply-default.json"), "utf8")); // prettier-ignore
    expect(result).toMatchObject({ status: "failed", failed: 1 });
    expect(result.failures).toEqual([
      { key: "project/ci-tools", action: "update", error: expect.stringContaining("429"), next: expect.stringContaining("re-run the apply job") }, // prettier-ignore
    ]);

    // The comment: the outcome line, then the object, its error and the next step.
    const body = gh.comments(REPO, 41)[0].body;
    expect(body).toMatch(/\*\*Apply failed\*\* in \[run \d+\]\([^)]*\): \d+ done, 1 failed\./);
    expect(body).toMatch(/^- update project\/ci-tools: .*429.* — \*\*next:\*\* the service did not take it/m); // prettier-ignore
    expect(body).not.toContain(TOKENS.admin.secret);

    // One follow-up issue: why, and the reviewed ways to carry the change — no apply by hand.
    expect(followUps()).toHaveLength(1);
    const [issue] = followUps();
    expect(issue.state).toBe("open");
    expect(issue.body).toContain("pull request #41");
    expect(issue.body).toContain("update project/ci-tools");
    expect(issue.body).toContain('"Merged but not applied"');
    expect(issue.body).toContain("git commit --allow-empty");
    expect(issue.body).not.toMatch(/`phctl apply \./);
    expect(worktrees(failed)).toBe(1);

    // The next pull request's plan shows the change as merged but not applied; its apply
    // carries it out and closes the follow-up issue (never a second one).
    const next = await pullRequest(42, "projects/mbed-tls.yaml", "title: Mbed TLS", "title: Mbed TLS library"); // prettier-ignore
    expect(gh.comments(REPO, 42)[0].body).toContain("#### Merged but not applied");
    const applied = await mergeAndApply(42, next);
    expect(applied.failed).toEqual([]);
    expect((await t.call("GET", "/v1/projects/ci-tools")).body.data.description).toBe("Reviewed CI tooling"); // prettier-ignore
    expect(followUps()).toHaveLength(1);
    expect(followUps()[0].state).toBe("closed");
    expect(gh.comments(REPO, issue.number).at(-1)?.body).toMatch(/^Carried out by \[run \d+\].*pull request #42/); // prettier-ignore
    expect(worktrees(applied)).toBe(1);
  }, 240_000);
});

describe("a failed re-plan", () => {
  it("marks the standing comment stale with the error; the next good plan replaces it", async () => {
    const good = await pullRequest(43, "projects/ci-tools.yaml", "title: CI tools", "title: CI tooling"); // prettier-ignore
    const before = gh.comments(REPO, 43)[0].body;
    expect(before).toContain("`project/ci-tools`");

    // A typo pushed to the same pull request: validate fails, no plan.
    git(repo.seed, "checkout", "-q", "pr-43");
    const typo = repo.commit("projects/ci-tools.yaml", "kind: Project", "kind: Projekt", "typo", "pr-43"); // prettier-ignore
    git(repo.seed, "checkout", "-q", "main");
    const failed = await plan(43, typo);
    expect(failed.job.status).toBe("failure");
    expect(step(failed, "Mark the plan comment stale").outcome).toBe("success");
    const comments = gh.comments(REPO, 43);
    expect(comments).toHaveLength(1);
    const stale = comments[0].body;
    expect(stale.startsWith("<!-- phctl:plan key=default -->\n> [!WARNING]\n")).toBe(true);
    expect(stale).toContain(`**This plan is stale: the plan of \`${typo.slice(0, 7)}\` failed** in [run ${run}]`); // prettier-ignore
    expect(stale).toMatch(/^> .*projects\/ci-tools\.yaml.*Projekt/m); // the error, quoted
    // The earlier plan stays below the warning.
    expect(stale.slice(stale.indexOf("<!-- phctl:stale-end -->"))).toContain("`project/ci-tools`");
    expect(worktrees(failed)).toBe(1);

    // A second failure replaces the warning (one, not two).
    const again = await plan(43, typo);
    expect(again.job.status).toBe("failure");
    expect(gh.comments(REPO, 43)[0].body.match(/\[!WARNING\]/g)).toHaveLength(1);

    // Fixed: the plan replaces the whole comment.
    git(repo.seed, "checkout", "-q", "pr-43");
    const fixed = repo.commit("projects/ci-tools.yaml", "kind: Projekt", "kind: Project", "fix", "pr-43"); // prettier-ignore
    git(repo.seed, "checkout", "-q", "main");
    expect((await plan(43, fixed)).failed).toEqual([]);
    const body = gh.comments(REPO, 43)[0].body;
    expect(body).not.toContain("stale");
    expect(body).toContain("`project/ci-tools`");
    expect(good).not.toBe(fixed);
  }, 240_000);
});
