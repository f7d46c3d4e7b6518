/**
 * Which CI platform phctl is on, read from the environment and GitHub's event file; and the
 * apply outcome line. Pure parts, no network.
 */
import { describe, expect, it } from "vitest";
import { detectContext } from "../../src/ci/platform.js";
import { outcomeLine, readOutcome } from "../../src/ci/outcome.js";
import { PhctlError } from "../../src/errors.js";
import { prEvent, tempDir, writeJson } from "./helpers.js";

const dir = tempDir();
const gh = (extra: Record<string, string | undefined> = {}) => ({
  GITHUB_ACTIONS: "true",
  GITHUB_REPOSITORY: "acme/config",
  GITHUB_TOKEN: "ghs_x1234",
  GITHUB_SHA: "9".repeat(40),
  ...extra,
});

describe("GitHub Actions", () => {
  it("reads the pull request, commits, run link and summary file", () => {
    const ctx = detectContext(
      gh({
        GITHUB_EVENT_NAME: "pull_request",
        GITHUB_EVENT_PATH: writeJson(dir, "pr.json", prEvent(12)),
        GITHUB_API_URL: "https://ghe.example/api/v3/",
        GITHUB_SERVER_URL: "https://ghe.example",
        GITHUB_RUN_ID: "555",
        GITHUB_RUN_NUMBER: "7",
        GITHUB_STEP_SUMMARY: "/tmp/summary.md",
      }),
    );
    expect(ctx).toEqual({
      platform: "github",
      name: "GitHub",
      apiUrl: "https://ghe.example/api/v3",
      project: "acme/config",
      token: "ghs_x1234",
      number: 12,
      sha: "9".repeat(40),
      footer: {
        baseCommit: "1".repeat(40),
        headCommit: "2".repeat(40),
        runUrl: "https://ghe.example/acme/config/actions/runs/555",
      },
      run: { label: "run 7", url: "https://ghe.example/acme/config/actions/runs/555" },
      stepSummary: "/tmp/summary.md",
      maxChars: 65_536,
    });
  });

  it("defaults to api.github.com; a push has no number and GITHUB_SHA as head", () => {
    const ctx = detectContext(gh({ GITHUB_EVENT_PATH: writeJson(dir, "push.json", {}) }));
    expect(ctx.apiUrl).toBe("https://api.github.com");
    expect(ctx.number).toBeUndefined();
    expect(ctx.footer).toEqual({ headCommit: "9".repeat(40) });
  });

  it("an issue_comment on a pull request names it; on an issue, marks it an issue", () => {
    const onPr = { issue: { number: 4, pull_request: { url: "x" } } };
    const onIssue = { issue: { number: 5 } };
    expect(detectContext(gh({ GITHUB_EVENT_PATH: writeJson(dir, "c1.json", onPr) }))).toMatchObject({ number: 4 }); // prettier-ignore
    const issue = detectContext(gh({ GITHUB_EVENT_PATH: writeJson(dir, "c2.json", onIssue) }));
    expect(issue).toMatchObject({ number: 5, isIssue: true });
  });

  it("a fork's pull request has no usable token, unless the event is pull_request_target", () => {
    const event = writeJson(dir, "fork.json", prEvent(3, { head: "mallory/config" }));
    const fork = detectContext(gh({ GITHUB_EVENT_NAME: "pull_request", GITHUB_EVENT_PATH: event }));
    expect(fork.token).toBeUndefined();
    expect(fork.noToken).toMatch(/fork mallory\/config.*read-only/);
    const target = detectContext(
      gh({ GITHUB_EVENT_NAME: "pull_request_target", GITHUB_EVENT_PATH: event }),
    );
    expect(target.token).toBe("ghs_x1234");
  });

  it("no token, a bad repository name, an unreadable event file: said plainly", () => {
    expect(detectContext(gh({ GITHUB_TOKEN: " " })).noToken).toBe("GITHUB_TOKEN is not set");
    expect(() => detectContext(gh({ GITHUB_REPOSITORY: "config" }))).toThrow(
      /GITHUB_REPOSITORY must be "owner\/name" \(got "config"\)/,
    );
    expect(() => detectContext(gh({ GITHUB_EVENT_PATH: `${dir}/missing.json` }))).toThrow(
      /cannot read the GitHub event file .*missing\.json \(GITHUB_EVENT_PATH\): ENOENT/,
    );
  });
});

describe("GitLab CI", () => {
  it("reads the merge request, token, commits and pipeline", () => {
    const ctx = detectContext({
      GITLAB_CI: "true",
      CI_SERVER_URL: "https://gitlab.example",
      CI_PROJECT_ID: "42",
      CI_MERGE_REQUEST_IID: "8",
      GITLAB_TOKEN: "glpat-abcd",
      CI_COMMIT_SHA: "c".repeat(40),
      CI_MERGE_REQUEST_DIFF_BASE_SHA: "b".repeat(40),
      CI_PIPELINE_ID: "99",
      CI_PIPELINE_URL: "https://gitlab.example/p/-/pipelines/99",
    });
    expect(ctx).toMatchObject({
      platform: "gitlab",
      apiUrl: "https://gitlab.example/api/v4",
      project: "42",
      token: "glpat-abcd",
      number: 8,
      footer: { baseCommit: "b".repeat(40), headCommit: "c".repeat(40) },
      run: { label: "pipeline 99", url: "https://gitlab.example/p/-/pipelines/99" },
      maxChars: 1_000_000,
    });
    expect(ctx.stepSummary).toBeUndefined();
  });

  it("PHCTL_GITLAB_TOKEN wins over GITLAB_TOKEN; CI_API_V4_URL over the server URL", () => {
    const ctx = detectContext({
      CI_API_V4_URL: "http://127.0.0.1:9/api/v4",
      CI_PROJECT_ID: "1",
      PHCTL_GITLAB_TOKEN: "mine",
      GITLAB_TOKEN: "theirs",
    });
    expect(ctx).toMatchObject({ apiUrl: "http://127.0.0.1:9/api/v4", token: "mine" });
  });
});

describe("neither", () => {
  it("is a user error naming the variables to set", () => {
    let err: unknown;
    try {
      detectContext({ PATH: "/bin" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PhctlError);
    expect((err as Error).message).toMatch(
      /not in GitHub Actions or GitLab CI: set GITHUB_REPOSITORY/,
    );
  });
});

describe("the apply outcome line", () => {
  const base = { formatVersion: 1, planHash: "h", done: 40, failed: 0, skipped: 0 } as const;
  const run = { label: "run 123", url: "https://ci/runs/123" };

  it("says how the apply went, linked to its run", () => {
    expect(outcomeLine({ ...base, status: "applied" }, run)).toBe(
      "**Applied** in [run 123](https://ci/runs/123): 40 done, 0 failed.",
    );
    expect(
      outcomeLine({ ...base, status: "refused", differences: ["a", "b", "c", "d"] }, run),
    ).toBe(
      "**Apply refused** in [run 123](https://ci/runs/123): the merged plan differs from the reviewed one (4 differences: a; b; c; …). Nothing was applied.",
    );
    expect(
      outcomeLine({
        ...base,
        status: "failed",
        done: 38,
        failed: 2,
        skipped: 3,
        message: "see *log*",
      }),
    ).toBe("**Apply failed**: 38 done, 2 failed, 3 skipped. see \\*log\\*");
    expect(outcomeLine({ ...base, status: "no-changes" })).toMatch(/^\*\*Nothing to apply\*\*/);
  });

  it("a file of another shape is named with the field that is wrong", () => {
    const f = writeJson(dir, "r.json", { ...base, status: "applied", done: -1 });
    expect(() => readOutcome(f)).toThrow(/r\.json is not an apply result .*: done must be >= 0/);
    const g = writeJson(dir, "s.json", { ...base, status: "refused", differences: [1] });
    expect(() => readOutcome(g)).toThrow(/differences\.0 must be string/);
    expect(readOutcome(writeJson(dir, "ok.json", { ...base, status: "applied" })).done).toBe(40);
  });
});
