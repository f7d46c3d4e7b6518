/**
 * The pull-request clients (src/ci/github-pulls.ts, gitlab-pulls.ts) against the fakes on
 * loopback, when an answer has another shape than the platform's API gives — a proxy's
 * page, an error object answered 200: a branch is never pointed at `undefined` and a
 * reviewer is never dropped as "not a member". Each is a one-line PLATFORM_SHAPE error
 * naming the call and the URL setting, and no write follows it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GitHubPullClient } from "../../src/ci/github-pulls.js";
import { GitLabPullClient } from "../../src/ci/gitlab-pulls.js";
import type { RequestInput } from "../../src/ci/pull-requests.js";
import { GITHUB_TOKENS, startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import { GITLAB_TOKENS, startFakeGitLab, type FakeGitLab } from "../helpers/fake-gitlab.js";

const INPUT: RequestInput = {
  branch: "phctl/access-review/alpha",
  base: "main",
  title: "Access review: project alpha",
  body: "body",
  files: [{ path: "projects/alpha.yaml", content: "changed\n" }],
  message: "Access review: project alpha",
  label: "phctl-access-review",
  reviewers: ["alice"],
};
const FAST = {
  maxRetries: 0,
  maxRateLimitRetries: 0,
  baseDelayMs: 1,
  maxWaitMs: 1,
  timeoutMs: 5_000,
};

let gh: FakeGitHub;
let gl: FakeGitLab;
beforeAll(async () => {
  [gh, gl] = await Promise.all([startFakeGitHub(), startFakeGitLab()]);
  gh.git.seedBranch("acme/config", "main", { "projects/alpha.yaml": "before\n" });
  gl.git.seedBranch("acme/config", "main", { "projects/alpha.yaml": "before\n" });
});
afterAll(async () => {
  await Promise.all([gh.close(), gl.close()]);
});

const writes = (requests: readonly { method: string }[]) =>
  requests.filter((r) => r.method !== "GET").length;

describe("another shape than the platform's", () => {
  it("GitHub: a branch answered without object.sha stops before any write", async () => {
    const client = new GitHubPullClient({
      apiUrl: gh.url,
      repository: "acme/config",
      token: GITHUB_TOKENS.write,
      policy: FAST,
    });
    gh.failNext("GET", /\/git\/ref\//, 200, { message: "ok" });
    const before = writes(gh.requests);
    await expect(client.open(INPUT)).rejects.toMatchObject({
      code: "PLATFORM_SHAPE",
      message: expect.stringMatching(/git\/ref\/\{ref\} has no object\.sha .*GITHUB_API_URL/),
    });
    expect(writes(gh.requests)).toBe(before);
    expect(gh.git.branches("acme/config")).toEqual(["main"]);
  });

  it("GitLab: a member list answered as an object is an error, not 'no such member'", async () => {
    const client = new GitLabPullClient({
      apiUrl: gl.apiUrl,
      projectId: "acme/config",
      token: GITLAB_TOKENS.write,
      policy: FAST,
    });
    gl.failNext("GET", /\/members\/all$/, 200, { message: "ok" });
    await expect(client.open(INPUT)).rejects.toMatchObject({
      code: "PLATFORM_SHAPE",
      message: expect.stringContaining("GET /members/all"),
    });
    expect(gl.git.pulls("acme/config")).toEqual([]);
    expect(gl.git.branches("acme/config")).toEqual(["main"]);
    await client.close();
  });

  it("a pull or merge request listed without its branch is an error, never a request of no branch", async () => {
    const github = new GitHubPullClient({ apiUrl: gh.url, repository: "acme/config", token: GITHUB_TOKENS.write, policy: FAST }); // prettier-ignore
    gh.failNext("GET", /\/pulls$/, 200, [{ number: 1, title: "Access review: project alpha" }]);
    await expect(
      github.listOpen("phctl-access-review", "phctl/access-review/"),
    ).rejects.toMatchObject({
      code: "PLATFORM_SHAPE",
      message: expect.stringMatching(/GET \/repos\/\{owner\}\/\{repo\}\/pulls .*item 0/),
    });
    gh.failNext("GET", /\/pulls$/, 200, [{ number: 1, title: "t", head: {} }]);
    await expect(github.lastDeclined("phctl/access-review/alpha")).rejects.toMatchObject({ code: "PLATFORM_SHAPE" }); // prettier-ignore
    await github.close();
    const gitlab = new GitLabPullClient({ apiUrl: gl.apiUrl, projectId: "acme/config", token: GITLAB_TOKENS.write, policy: FAST }); // prettier-ignore
    gl.failNext("GET", /\/merge_requests$/, 200, [
      { iid: 1, title: "Access review: project alpha" },
    ]);
    await expect(gitlab.listOpen("phctl-access-review")).rejects.toMatchObject({
      code: "PLATFORM_SHAPE",
      message: expect.stringContaining("GET /merge_requests"),
    });
    await gitlab.close();
  });
});
