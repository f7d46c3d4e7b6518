/**
 * The follow-up issue's life (src/ci/follow-up.ts) on an issue API held in memory, and the
 * stale comment (src/ci/stale.ts): what the workflow tests do not reach — a closed issue
 * reopened rather than a second one, other keys' issues left alone, error output with
 * backticks and JSON progress lines, a token in it, an earlier plan too long to keep whole.
 */
import { describe, expect, it } from "vitest";
import type { ApplyOutcome } from "../../src/engine/apply-outcome.js";
import { followUpMarker, keepFollowUp, type FollowUpInput } from "../../src/ci/follow-up.js";
import type { Issue, IssueApi, IssueEdit } from "../../src/ci/issues.js";
import { errorExcerpt, staleBody, STALE_END } from "../../src/ci/stale.js";
import { registerSecret } from "../../src/secrets.js";

function memory() {
  const issues: Issue[] = [];
  const comments: { n: number; body: string }[] = [];
  const api: IssueApi = {
    platform: "Test",
    listIssues: async (label) => issues.filter((i) => i.labels.includes(label)).map((i) => ({ ...i })), // prettier-ignore
    createIssue: async ({ title, body, label }) => {
      const i: Issue = { number: 101 + issues.length, title, body, state: "open", labels: [label] };
      issues.push(i);
      return { ...i };
    },
    editIssue: async (n: number, e: IssueEdit) => {
      const i = issues.find((x) => x.number === n)!;
      Object.assign(i, {
        ...(e.title !== undefined ? { title: e.title } : {}),
        ...(e.body !== undefined ? { body: e.body } : {}),
        ...(e.state ? { state: e.state } : {}),
      });
      return { ...i };
    },
    commentIssue: async (n, body) => {
      comments.push({ n, body });
      return { id: comments.length, body };
    },
  };
  return { api, issues, comments };
}

const outcome = (status: ApplyOutcome["status"], extra: Partial<ApplyOutcome> = {}): ApplyOutcome => ({ formatVersion: 1, status, planHash: "h", done: 0, failed: 0, skipped: 0, ...extra }); // prettier-ignore
const input = (o: ApplyOutcome, key = "default", n = 5): FollowUpInput => ({ key, outcome: o, platform: "github", pr: n, commit: "abcdef0123456789", run: { label: `run ${n}` } }); // prettier-ignore

describe("the follow-up issue", () => {
  it("one per key: opened, updated, closed when everything is applied, reopened — never a second", async () => {
    const m = memory();
    const refused = outcome("refused", { message: "the merged plan differs", differences: ["update project/x: title"] }); // prettier-ignore
    expect((await keepFollowUp(m.api, input(refused))).action).toBe("opened");
    expect(m.issues[0].body.startsWith(`${followUpMarker("default")}\n`)).toBe(true);
    expect(m.issues[0].title).toBe(
      "phctl: merged changes not applied: the apply of abcdef0 refused",
    );
    expect(m.issues[0].body).toContain("pull request #5");
    expect(m.issues[0].body).toContain("update project/x: title");
    const failed = outcome("failed", { failed: 1, failures: [{ key: "project/x", action: "update", error: "500 INTERNAL", next: "re-run the apply job" }] }); // prettier-ignore
    expect((await keepFollowUp(m.api, input(failed, "default", 6))).action).toBe("updated");
    expect(m.issues).toHaveLength(1);
    expect(m.issues[0].body).toContain("- update project/x: 500 INTERNAL — **next:** re-run the apply job"); // prettier-ignore
    // Another key's apply keeps its own issue.
    expect((await keepFollowUp(m.api, input(failed, "prod", 6))).action).toBe("opened");
    expect(m.issues.map((i) => i.title)).toEqual([expect.not.stringContaining("key prod"), expect.stringContaining("(key prod)")]); // prettier-ignore

    const done = await keepFollowUp(m.api, input(outcome("applied", { done: 2 }), "default", 7));
    expect(done).toMatchObject({ action: "closed", issue: { number: 101 } });
    expect(m.issues.map((i) => i.state)).toEqual(["closed", "open"]);
    expect(m.comments).toEqual([{ n: 101, body: "Carried out by run 7 (pull request #7): **Applied**: 2 done, 0 failed. Closing." }]); // prettier-ignore
    expect((await keepFollowUp(m.api, input(outcome("no-changes"), "default", 8))).action).toBe("none"); // prettier-ignore

    expect((await keepFollowUp(m.api, input(failed, "default", 9))).action).toBe("reopened");
    expect(m.issues).toHaveLength(2);
    expect(m.issues[0].state).toBe("open");
  });
});

describe("the stale comment", () => {
  const marker = "<!-- phctl:plan key=default -->";
  const i = { commit: "1234567890", run: { label: "run 3", url: "https://ci/3" }, request: "pull request" as const }; // prettier-ignore

  it("quotes the error (JSON progress lines left out, a token masked) in a fence longer than its backticks", () => {
    registerSecret("ghp_followUpTestToken0123456789");
    const errors = errorExcerpt(
      '{"event":"read-started","command":"plan"}\nphctl: error: `kind` Projekt with ghp_followUpTestToken0123456789\n```\n',
    );
    expect(errors).not.toContain("read-started");
    expect(errors).not.toContain("ghp_followUpTestToken0123456789");
    const body = staleBody(`${marker}\n### the plan`, marker, { ...i, errors }, 65_536);
    expect(body).toContain("> ````\n> phctl: error: `kind` Projekt with ***\n> ```\n> ````");
    expect(body).toContain("**This plan is stale: the plan of `1234567` failed** in [run 3](https://ci/3)"); // prettier-ignore
    expect(body.endsWith(`${STALE_END}\n\n### the plan\n`)).toBe(true);
  });

  it("replaces an earlier warning, cuts an earlier plan that would not fit, and without one says there is no plan", () => {
    const once = staleBody(`${marker}\n### the plan`, marker, { ...i, errors: "first" }, 65_536);
    const twice = staleBody(once, marker, { ...i, errors: "second" }, 65_536);
    expect(twice.match(/\[!WARNING\]/g)).toHaveLength(1);
    expect(twice).toContain("> second");
    expect(twice).not.toContain("> first");
    const long = staleBody(
      `${marker}\n${"x".repeat(70_000)}`,
      marker,
      { ...i, errors: "e" },
      65_536,
    );
    expect(long.length).toBeLessThanOrEqual(65_536);
    expect(long).toContain("… (the earlier plan is cut here)");
    const none = staleBody(undefined, marker, { ...i, errors: "" }, 65_536);
    expect(none).toContain("**No plan: the plan of `1234567` failed**");
    expect(none).toContain("its log says what failed");
  });
});
