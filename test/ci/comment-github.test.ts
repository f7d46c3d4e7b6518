/**
 * `phctl comment` on GitHub, end to end: the built CLI against the fake GitHub on loopback
 * (GITHUB_API_URL), with the event file and step summary GitHub Actions would give it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { samplePlan } from "../fixtures/sample-plan.js";
import { GITHUB_TOKENS, startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import { startServer, TOKENS } from "../helpers/server.js";
import { bigPlan, prEvent, recorder, tempDir, writeJson } from "./helpers.js";
import { copyExamples } from "../helpers/examples.js";

const REPO = "acme/config";
const MARKER = "<!-- phctl:plan key=default -->";
let gh: FakeGitHub;
let dir: string;
let plan: string;
/** The sample plan plus one entry: a body that differs from the first run's. */
let plan2: string;
const { run, outputs } = recorder();
let n = 0;

/** The environment of a pull_request job on pull request `pr`, with a fresh summary file. */
function env(pr: number, extra: Record<string, string | undefined> = {}) {
  const summary = join(dir, `summary-${++n}.md`);
  return {
    GITHUB_ACTIONS: "true",
    GITHUB_API_URL: gh.url,
    GITHUB_SERVER_URL: "https://github.example",
    GITHUB_REPOSITORY: REPO,
    GITHUB_EVENT_NAME: "pull_request",
    GITHUB_EVENT_PATH: writeJson(dir, `event-${pr}.json`, prEvent(pr)),
    GITHUB_TOKEN: GITHUB_TOKENS.write,
    GITHUB_SHA: "9".repeat(40),
    GITHUB_RUN_ID: "123",
    GITHUB_RUN_NUMBER: "45",
    GITHUB_STEP_SUMMARY: summary,
    ...extra,
  };
}
const posts = () => gh.requests.filter((r) => r.method === "POST");

beforeAll(async () => {
  gh = await startFakeGitHub();
  dir = tempDir();
  plan = writeJson(dir, "plan.json", samplePlan());
  const p2 = samplePlan();
  const extra = { ...p2.entries[0], key: "project/tf-a/repo/second-run" };
  p2.entries = [...p2.entries, extra];
  p2.summary = { ...p2.summary, create: p2.summary.create + 1 };
  plan2 = writeJson(dir, "plan2.json", p2);
});
afterAll(async () => {
  await gh.close();
});

describe.concurrent("one sticky comment per key", () => {
  it("creates the comment on the first run and updates it on the second", async () => {
    const e = env(1);
    const first = await run(["comment", plan], e);
    expect(first.stderr).toMatch(
      /^phctl: created the plan comment on pull request #1 \(https:\/\/github\.example\/acme\/config\/pull\/1#issuecomment-\d+\)\n$/,
    );
    expect(first.code, first.stderr).toBe(0);
    const [c] = gh.comments(REPO, 1);
    expect(c.body.startsWith(MARKER)).toBe(true);
    expect(c.body).toContain("project/tf-a/access/developers/user/mallory");
    // The step summary gets the same markdown, also when the comment is posted.
    expect(readFileSync(e.GITHUB_STEP_SUMMARY, "utf8")).toBe(`${c.body}\n`);

    const second = await run(["comment", plan2], env(1));
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/^phctl: updated the plan comment on pull request #1 \(/);
    const after = gh.comments(REPO, 1);
    expect(after).toHaveLength(1);
    expect(after[0].id).toBe(c.id);
    expect(after[0].body).toContain("project/tf-a/repo/second-run");

    const third = await run(["comment", plan2], env(1));
    expect(third.stderr).toMatch(
      /^phctl: the plan comment on pull request #1 is already up to date/,
    );
    expect(gh.comments(REPO, 1)).toEqual(after);
  });

  it("the footer names the base and head commits and links to the run", async () => {
    const r = await run(["comment", plan], env(20));
    expect(r.code, r.stderr).toBe(0);
    const [c] = gh.comments(REPO, 20);
    expect(c.body).toContain("https://github.example/acme/config/actions/runs/123");
    expect(c.body).toMatch(/1111111/);
    expect(c.body).toMatch(/2222222/);
  });

  it("finds its comment on page 3 of 250 and leaves other keys' comments alone", async () => {
    const bodies = Array.from({ length: 250 }, (_, i) => `comment ${i}`);
    bodies[10] = "<!-- phctl:plan key=other -->\nanother directory's plan";
    bodies[230] = `${MARKER}\nan older plan`;
    gh.seed(REPO, 2, bodies);
    const r = await run(["comment", plan], env(2));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/updated the plan comment on pull request #2/);
    const lists = gh.requests.filter(
      (q) => q.method === "GET" && q.path.includes("/issues/2/comments"),
    );
    expect(lists.map((q) => new URL(q.path, gh.url).searchParams.get("page") ?? "1")).toEqual([
      "1",
      "2",
      "3",
    ]);
    expect(lists.every((q) => q.path.includes("per_page=100"))).toBe(true);
    const now = gh.comments(REPO, 2);
    expect(now).toHaveLength(250);
    expect(now[230].body).toMatch(/^<!-- phctl:plan key=default -->\n[^]*mallory/);
    expect(now[10].body).toBe("<!-- phctl:plan key=other -->\nanother directory's plan");
  });

  it("--key a and --key b make two comments; running --key a again updates its own", async () => {
    for (const key of ["a", "b", "a"]) {
      const r = await run(["comment", plan, "--key", key], env(3));
      expect(r.code, r.stderr).toBe(0);
    }
    const c = gh.comments(REPO, 3);
    expect(c.map((x) => x.body.split("\n")[0])).toEqual([
      "<!-- phctl:plan key=a -->",
      "<!-- phctl:plan key=b -->",
    ]);
  });

  it("with several marked comments (an older tool's), updates the newest and says so", async () => {
    gh.seed(REPO, 4, [`${MARKER}\nold 1`, "hello", `${MARKER}\nold 2`]);
    const r = await run(["comment", plan], env(4));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/2 comments on pull request #4 carry the marker .*updated the newest/);
    const c = gh.comments(REPO, 4);
    expect(c[0].body).toBe(`${MARKER}\nold 1`);
    expect(c[2].body).toContain("mallory");
  });

  it("rejects a --key that cannot be a marker", async () => {
    const r = await run(["comment", plan, "--key", "a b-->"], env(5));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^phctl: --key must be .*got "a b-->"/);
  });
});

describe.concurrent("what goes in the comment", () => {
  it("publishes a plan saved by `phctl plan --out` against the reference server", async () => {
    const t = await startServer();
    try {
      copyExamples(join(dir, "examples"));
      const env0 = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
      const made = await run(["plan", "examples", "--out", "real.json"], env0, dir);
      expect(made.code, made.stderr).toBe(0);
      const r = await run(["comment", "real.json"], { ...env(21), ...env0 }, dir);
      expect(r.code, r.stderr).toBe(0);
      const [c] = gh.comments(REPO, 21);
      expect(c.body).toContain("project/trusted-firmware-a");
      expect(outputs()).not.toContain(TOKENS.admin.secret);
    } finally {
      await t.close();
    }
  });

  it("a plan of 3,000 entries fits in 65,536 characters and keeps every deletion", async () => {
    const big = bigPlan(600, 2400);
    const r = await run(["comment", writeJson(dir, "big.json", big)], env(6));
    expect(r.code, r.stderr).toBe(0);
    const [c] = gh.comments(REPO, 6);
    expect(c.body.length).toBeLessThanOrEqual(65_536);
    // Every deletion is named: its whole key, or (grouped) its parent path and its own name
    // on one line.
    const lines = c.body.split("\n");
    const named = (key: string) => {
      const cut = key.lastIndexOf("/") + 1;
      const [parent, leaf] = [key.slice(0, cut), key.slice(cut)];
      return lines.some(
        (l) => l.includes(key) || (l.includes(parent) && l.includes(`\`${leaf}\``)),
      );
    };
    const missing = big.entries.filter((e) => e.action === "delete" && !named(e.key));
    expect(missing.map((e) => e.key)).toEqual([]);
  });

  it("--outcome puts the apply's outcome in the comment", async () => {
    const result = writeJson(dir, "result.json", {
      formatVersion: 1,
      status: "applied",
      planHash: "abc",
      done: 40,
      failed: 0,
      skipped: 0,
    });
    const r = await run(["comment", plan, "--outcome", result], env(7));
    expect(r.code, r.stderr).toBe(0);
    expect(gh.comments(REPO, 7)[0].body).toContain(
      "**Applied** in [run 45](https://github.example/acme/config/actions/runs/123): 40 done, 0 failed.",
    );
  });

  it("a bad --outcome file or plan file is one line naming the file", async () => {
    const result = writeJson(dir, "bad-result.json", { formatVersion: 1, status: "done" });
    const r = await run(["comment", plan, "--outcome", result], env(8));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^phctl: .*bad-result\.json is not an apply result.*status must be/);
    const p = await run(["comment", writeJson(dir, "notplan.json", { hello: 1 })], env(8));
    expect(p.code, p.stderr).toBe(1);
    expect(p.stderr).toMatch(/^phctl: .*notplan\.json is not a phctl plan/);
    expect(p.stderr.trim().split("\n")).toHaveLength(1);
    expect(gh.comments(REPO, 8)).toHaveLength(0);
  });
});

describe.concurrent("where the comment goes", () => {
  it("after a merge (push), finds the pull request through commits/{sha}/pulls", async () => {
    const sha = "7".repeat(40);
    gh.setCommitPulls(REPO, sha, [9]);
    const event = writeJson(dir, "push.json", { ref: "refs/heads/main", after: sha });
    const r = await run(
      ["comment", plan],
      env(0, { GITHUB_EVENT_NAME: "push", GITHUB_EVENT_PATH: event, GITHUB_SHA: sha }),
    );
    expect(r.stderr).toMatch(/created the plan comment on pull request #9/);
    expect(r.code, r.stderr).toBe(0);
    expect(gh.requests.some((q) => q.path.startsWith(`/repos/${REPO}/commits/${sha}/pulls?`))).toBe(
      true,
    );
    expect(gh.comments(REPO, 9)).toHaveLength(1);
  });

  it("without a pull request to find, exits 1 saying how to pass --pr", async () => {
    const event = writeJson(dir, "push2.json", { ref: "refs/heads/main" });
    const r = await run(
      ["comment", plan],
      env(0, { GITHUB_EVENT_NAME: "push", GITHUB_EVENT_PATH: event, GITHUB_SHA: "8".repeat(40) }),
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^phctl: no pull request to comment on: .*--pr N\n$/);
  });

  it("--pr wins over the event", async () => {
    const r = await run(["comment", plan, "--pr", "10"], env(11));
    expect(r.code, r.stderr).toBe(0);
    expect(gh.comments(REPO, 10)).toHaveLength(1);
    expect(gh.comments(REPO, 11)).toHaveLength(0);
  });
});

describe.concurrent("without a usable token, and when GitHub says no", () => {
  it("no token: writes the step summary, says so, exits 0", async () => {
    const e = env(12, { GITHUB_TOKEN: undefined });
    const r = await run(["comment", plan], e);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      "phctl: no token to comment with (GITHUB_TOKEN is not set): the plan is in the step summary\n",
    );
    expect(readFileSync(e.GITHUB_STEP_SUMMARY, "utf8")).toContain(MARKER);
    expect(gh.requests.filter((q) => q.path.includes("/issues/12/"))).toEqual([]);
  });

  it("a pull request from a fork: summary, exit 0, no call with its read-only token", async () => {
    const e = env(13, {
      GITHUB_EVENT_PATH: writeJson(dir, "fork.json", prEvent(13, { head: "mallory/config" })),
      GITHUB_TOKEN: GITHUB_TOKENS.read,
    });
    const r = await run(["comment", plan], e);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /no token to comment with \(pull request from the fork mallory\/config/,
    );
    expect(readFileSync(e.GITHUB_STEP_SUMMARY, "utf8")).toContain("mallory");
    expect(gh.requests.filter((q) => q.path.includes("/issues/13/"))).toEqual([]);
  });

  it("a read-only token: exit 1 with GitHub's message and what to do, POST sent once", async () => {
    const r = await run(["comment", plan], env(15, { GITHUB_TOKEN: GITHUB_TOKENS.read }));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toBe(
      "phctl: cannot comment on GitHub pull request #15: 403 Resource not accessible by integration — give the job `pull-requests: write` (and `issues: write`) in its permissions\n",
    );
    expect(posts().filter((q) => q.path.includes("/issues/15/"))).toHaveLength(1);
  });

  it("a bad token: exit 1 with 401 Bad credentials", async () => {
    const r = await run(["comment", plan], env(16, { GITHUB_TOKEN: "ghs_notAToken99999" }));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      /^phctl: cannot comment on GitHub pull request #16: 401 Bad credentials/,
    );
  });
});

describe.concurrent("never a write twice", () => {
  it("a create answered 502 after it landed is found again, not sent again", async () => {
    gh.failNext("POST", /\/issues\/17\/comments$/, 502, { message: "Bad Gateway" }, { landed: true }); // prettier-ignore
    const r = await run(["comment", plan], env(17));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/created the plan comment .*had landed; it was not sent twice/);
    expect(gh.comments(REPO, 17)).toHaveLength(1);
    expect(posts().filter((q) => q.path.includes("/issues/17/"))).toHaveLength(1);
  });

  it("a create dropped before it landed is sent once more after a look", async () => {
    gh.failNext("POST", /\/issues\/18\/comments$/, 0);
    const r = await run(["comment", plan], env(18));
    expect(r.code, r.stderr).toBe(0);
    expect(gh.comments(REPO, 18)).toHaveLength(1);
    const calls = gh.requests.filter((q) => q.path.includes("/issues/18/"));
    expect(calls.map((q) => `${q.method} ${q.status}`)).toEqual([
      "GET 200",
      "POST 0",
      "GET 200",
      "POST 201",
    ]);
  });

  it("a rate limit (Retry-After) is waited out; a 500 on a read is retried", async () => {
    gh.failNext("GET", /\/issues\/19\/comments$/, 500, { message: "Server Error" });
    gh.failNext("POST", /\/issues\/19\/comments$/, 403, { message: "You have exceeded a secondary rate limit" }, { headers: { "retry-after": "1" } }); // prettier-ignore
    const r = await run(["comment", plan], env(19));
    expect(r.code, r.stderr).toBe(0);
    expect(gh.comments(REPO, 19)).toHaveLength(1);
    const calls = gh.requests.filter((q) => q.path.includes("/issues/19/"));
    expect(calls.map((q) => `${q.method} ${q.status}`)).toEqual([
      "GET 500",
      "GET 200",
      "POST 403",
      "POST 201",
    ]);
  });
});

describe("after every run", () => {
  it("the token never appears in anything phctl printed", () => {
    const all = outputs();
    expect(all.length).toBeGreaterThan(1000);
    for (const t of [GITHUB_TOKENS.write, GITHUB_TOKENS.read, "ghs_notAToken99999"])
      expect(all).not.toContain(t);
  });
});
