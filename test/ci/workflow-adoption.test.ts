/**
 * The README's one-hour adoption path, run as written against the reference server and a
 * fake GitHub: a new repository (one empty commit), the bootstrap pull request (the service
 * exported as manifests with `phctl export`, the example workflows with `config: config`)
 * whose plan shows no changes and whose apply records the first applied commit; then a merge
 * whose apply is refused, its follow-up issue, and the recovery the issue gives — an empty
 * pull request whose plan shows the change under "Merged but not applied" and whose apply
 * carries it and closes the issue.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { loadManifests } from "../../src/pipeline/load.js";
import { phctl } from "../helpers/cli.js";
import { GITHUB_TOKENS, startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import { populate } from "../helpers/populate.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { git, hostedActions, REPO, ROOT, runWorkflow, startGitHubFront, type ConfigRepo, type GitHubFront } from "./workflow-fixture.js"; // prettier-ignore

let t: TestServer;
let gh: FakeGitHub;
let front: GitHubFront;
let repo: ConfigRepo;
const actions = hostedActions();
const pullsOf = new Map<string, object[]>();
const runsOf = new Map<string, object[]>();
let run = 9000;

beforeAll(async () => {
  t = await startServer();
  const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret });
  const { state } = await loadManifests([join(ROOT, "examples")]);
  await populate(api, state!); // the service, before any config repository
  await api.close();
  gh = await startFakeGitHub();
  front = await startGitHubFront(gh.url, { pullsOf, runsOf });
  // 1. The repository: one empty commit on main (nothing runs on it).
  const tmp = mkdtempSync(join(tmpdir(), "phctl-adoption-"));
  const seed = join(tmp, "seed");
  git(tmp, "init", "-q", "-b", "main", seed);
  git(seed, "commit", "-q", "--allow-empty", "-m", "Start");
  const origin = join(tmp, "origin.git");
  git(tmp, "clone", "-q", "--bare", seed, origin);
  repo = {
    tmp,
    seed,
    origin,
    commit(file, from, to, message, branch = "main") {
      const path = join(seed, file);
      writeFileSync(path, readFileSync(path, "utf8").replace(from, to));
      git(seed, "commit", "-qam", message);
      git(seed, "push", "-q", origin, `HEAD:${branch}`);
      return git(seed, "rev-parse", "HEAD");
    },
  };
});
afterAll(async () => {
  await front?.close();
  await gh?.close();
  await t?.close();
});

const common = () => ({ repo, githubApiUrl: front.url, githubToken: GITHUB_TOKENS.write, emulate: actions.emulate }); // prettier-ignore

async function plan(n: number, head: string) {
  const base = git(repo.seed, "rev-parse", "main");
  const runId = String(++run);
  const r = await runWorkflow({
    ...common(),
    workflow: "phctl-plan.yml",
    job: "plan",
    sha: head,
    event: { action: "opened", number: n, pull_request: { number: n, base: { ref: "main", sha: base, repo: { full_name: REPO } }, head: { ref: `pr-${n}`, sha: head, repo: { full_name: REPO } } } }, // prettier-ignore
    eventName: "pull_request",
    secrets: { PHCTL_READ_TOKEN: TOKENS.member.secret },
    runId,
  });
  expect(r.failed).toEqual([]);
  runsOf.set(head, [{ id: Number(runId) }]);
  return gh.comments(REPO, n)[0].body;
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

const followUps = () => gh.issues.list(REPO).filter((i) => i.labels.includes("phctl-follow-up"));

describe("the README's adoption path", () => {
  it("bootstrap, a refused apply, and the recovery its follow-up issue gives", async () => {
    // 2. Bootstrap: a pull request holding the exported service and the workflows.
    git(repo.seed, "switch", "-q", "-c", "pr-1");
    // (The test's server runs in this process: the CLI is run without blocking it.)
    const exported = await phctl(["export", "--organization", "acme", "--out", "config"], { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.member.secret }, repo.seed); // prettier-ignore
    expect(exported.code, exported.stderr).toBe(0);
    writeFileSync(join(repo.seed, ".gitignore"), ".phctl/\n");
    const wf = join(repo.seed, ".github/workflows");
    mkdirSync(wf, { recursive: true });
    cpSync(join(ROOT, "examples/.github/workflows"), wf, { recursive: true });
    for (const f of readdirSync(wf))
      writeFileSync(join(wf, f), readFileSync(join(wf, f), "utf8").replace("https://hosting.example.org/api", t.url).replaceAll("config: .", "config: config")); // prettier-ignore
    git(repo.seed, "add", "-A");
    git(repo.seed, "commit", "-qm", "phctl: manage acme");
    git(repo.seed, "push", "-q", repo.origin, "HEAD:pr-1");
    const boot = git(repo.seed, "rev-parse", "HEAD");
    git(repo.seed, "switch", "-q", "main");
    expect(await plan(1, boot)).toMatch(/no changes/i);
    const first = await mergeAndApply(1, boot);
    expect(first.failed).toEqual([]);
    expect(first.job.steps.map((s) => s.stderr).join("")).toMatch(/recorded [0-9a-f]{12} as applied/); // prettier-ignore

    // A change whose apply is refused: live state moved after the review.
    git(repo.seed, "switch", "-q", "-c", "pr-2");
    const change = repo.commit("config/projects/ci-tools.yaml", "title: CI tools", "title: CI tooling", "retitle", "pr-2"); // prettier-ignore
    git(repo.seed, "switch", "-q", "main");
    await plan(2, change);
    await t.call("PATCH", "/v1/projects/ci-tools", { body: { name: "Edited live" } });
    const refused = await mergeAndApply(2, change);
    expect(refused.job.status).toBe("failure");
    expect(gh.comments(REPO, 2)[0].body).toMatch(/Apply refused/);
    expect(followUps()).toHaveLength(1);
    expect(followUps()[0].body).toContain("git commit --allow-empty");

    // 3. Recovery, reviewed: an empty pull request from main, as the issue says.
    git(repo.seed, "switch", "-q", "-c", "pr-3");
    git(repo.seed, "commit", "-q", "--allow-empty", "-m", "Carry the changes the refused apply left"); // prettier-ignore
    git(repo.seed, "push", "-q", repo.origin, "HEAD:pr-3");
    const carry = git(repo.seed, "rev-parse", "HEAD");
    git(repo.seed, "switch", "-q", "main");
    const body = await plan(3, carry);
    expect(body).toContain("#### Merged but not applied");
    expect(body).toContain("`project/ci-tools`");
    const carried = await mergeAndApply(3, carry);
    expect(carried.failed).toEqual([]);
    expect((await t.call("GET", "/v1/projects/ci-tools")).body.data.name).toBe("CI tooling");
    expect(followUps()).toHaveLength(1);
    expect(followUps()[0].state).toBe("closed");
  }, 300_000);
});
