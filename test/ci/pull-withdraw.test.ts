/**
 * Withdrawing a request (src/propose/open.ts, `report access --propose`) closes it first and
 * comments after: when the comment gets no answer, the request is already closed — its body
 * says why — and the next run, which lists only open requests, never posts the comment again.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { GitHubPullClient } from "../../src/ci/github-pulls.js";
import { GITHUB_TOKENS, startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";

const REPO = "acme/config";
const FAST = { maxRetries: 0, maxRateLimitRetries: 0, baseDelayMs: 1, maxWaitMs: 1, timeoutMs: 5_000 }; // prettier-ignore

let gh: FakeGitHub;
beforeAll(async () => {
  gh = await startFakeGitHub();
  gh.git.seedBranch(REPO, "main", { "projects/alpha.yaml": "before\n" });
});
afterAll(async () => gh.close());

it("a comment lost after the close is not sent again: the closed request is not listed again", async () => {
  const client = new GitHubPullClient({ apiUrl: gh.url, repository: REPO, token: GITHUB_TOKENS.write, policy: FAST }); // prettier-ignore
  try {
    const opened = await client.open({
      branch: "phctl/access-review/alpha",
      base: "main",
      title: "Access review: project alpha",
      body: "the proposal",
      files: [{ path: "projects/alpha.yaml", content: "after\n" }],
      message: "Access review: project alpha",
      label: "phctl-access-review",
      reviewers: [],
    });
    gh.failNext("POST", /\/issues\/\d+\/comments$/, 502, { message: "Bad gateway" });
    await expect(client.withdraw(opened, "why", "closed: why\n\nthe proposal")).rejects.toMatchObject({ ambiguous: true }); // prettier-ignore
    expect(gh.git.pulls(REPO).map((p) => [p.state, p.body])).toEqual([["closed", "closed: why\n\nthe proposal"]]); // prettier-ignore
    expect(await client.listOpen("phctl-access-review", "phctl/access-review/")).toEqual([]);
    expect(gh.comments(REPO, opened.number)).toEqual([]);
  } finally {
    await client.close();
  }
});
