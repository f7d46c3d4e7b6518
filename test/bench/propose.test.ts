/**
 * Smoke run of the propose benchmark (bench/propose.ts) at size S: the built CLI's access
 * review, then `--propose` twice, against a seeded server in a child process and the fake
 * GitHub. The service sees exactly the review's calls each time; the first run opens pull
 * requests at five or six platform writes each (tree, commit, ref, pull, label, and
 * reviewers when the project has any), the second writes nothing.
 */
import { describe, expect, it } from "vitest";
import { proposeBench } from "../../bench/propose-run.js";

describe("report access --propose (bench smoke)", () => {
  it("size S: the review's service calls, writes per pull request, none the second time", async () => {
    const r = await proposeBench({ size: "S", grants: 5, latency: 0, maxRequests: 1000 });
    expect(r.review).toBeGreaterThan(0);
    expect([r.propose, r.again]).toEqual([r.review, r.review]);
    expect(r.opened).toBeGreaterThan(5);
    const by = r.first.byRoute;
    for (const route of [
      "POST /git/trees",
      "POST /git/commits",
      "POST /git/refs",
      "POST /pulls",
      "POST /issues/N/labels",
    ])
      // prettier-ignore
      expect(by[route], route).toBe(r.opened);
    expect(by["POST /pulls/N/requested_reviewers"]).toBeLessThanOrEqual(r.opened);
    // The open pull requests, the base's ref and commit, and each new branch's last closed one.
    expect(r.first.reads).toBe(3 + r.opened);
    expect(r.second).toEqual({ reads: 1, writes: 0, byRoute: { "GET /pulls": 1 } });
    expect(r.againLine).toBe(
      `propose: 0 opened, 0 refreshed, ${r.opened} unchanged, 0 closed, 0 declined before, 0 failed`,
    );
    expect(r.within).toBe(true);
  }, 180_000);
});
