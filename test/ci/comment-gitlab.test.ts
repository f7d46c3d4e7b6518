/**
 * `phctl comment` on GitLab, end to end: the built CLI against the fake GitLab notes API on
 * loopback (CI_API_V4_URL), with the variables a merge-request pipeline has.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { samplePlan } from "../fixtures/sample-plan.js";
import { GITLAB_TOKENS, startFakeGitLab, type FakeGitLab } from "../helpers/fake-gitlab.js";
import { recorder, tempDir, writeJson } from "./helpers.js";

const PROJECT = "42";
const MARKER = "<!-- phctl:plan key=default -->";
let gl: FakeGitLab;
let plan: string;
let plan2: string;
const { run, outputs } = recorder();

function env(iid: number | undefined, extra: Record<string, string | undefined> = {}) {
  return {
    GITLAB_CI: "true",
    CI_API_V4_URL: gl.apiUrl,
    CI_PROJECT_ID: PROJECT,
    CI_PROJECT_URL: "https://gitlab.example/acme/config",
    CI_MERGE_REQUEST_IID: iid === undefined ? undefined : String(iid),
    CI_MERGE_REQUEST_DIFF_BASE_SHA: "1".repeat(40),
    CI_COMMIT_SHA: "2".repeat(40),
    CI_PIPELINE_ID: "777",
    CI_PIPELINE_URL: "https://gitlab.example/acme/config/-/pipelines/777",
    PHCTL_GITLAB_TOKEN: GITLAB_TOKENS.write,
    ...extra,
  };
}
const notesCalls = (iid: number) =>
  gl.requests.filter((q) => q.path.startsWith(`/api/v4/projects/${PROJECT}/merge_requests/${iid}/notes`)); // prettier-ignore

beforeAll(async () => {
  gl = await startFakeGitLab();
  const dir = tempDir();
  plan = writeJson(dir, "plan.json", samplePlan());
  const p2 = samplePlan();
  p2.entries = [...p2.entries, { ...p2.entries[0], key: "project/tf-a/repo/second-run" }];
  p2.summary = { ...p2.summary, create: p2.summary.create + 1 };
  plan2 = writeJson(dir, "plan2.json", p2);
});
afterAll(async () => {
  await gl.close();
});

describe.concurrent("phctl comment on a GitLab merge request", () => {
  it("creates the note on the first run and updates it on the second", async () => {
    const first = await run(["comment", plan], env(1));
    expect(first.stderr).toBe(
      "phctl: created the plan comment on merge request !1 (https://gitlab.example/acme/config/-/merge_requests/1#note_" +
        `${gl.notes(PROJECT, 1)[0]?.id})\n`,
    );
    expect(first.code, first.stderr).toBe(0);
    const second = await run(["comment", plan2], env(1));
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/^phctl: updated the plan comment on merge request !1/);
    const notes = gl.notes(PROJECT, 1);
    expect(notes).toHaveLength(1);
    expect(notes[0].body.startsWith(MARKER)).toBe(true);
    expect(notes[0].body).toContain("project/tf-a/repo/second-run");
    expect(notesCalls(1).map((q) => q.method)).toEqual(["GET", "POST", "GET", "PUT"]);
  });

  it("reads every page (X-Next-Page) to find its note", async () => {
    const bodies = Array.from({ length: 150 }, (_, i) => `note ${i}`);
    bodies[120] = `${MARKER}\nan older plan`;
    gl.seed(PROJECT, 2, bodies);
    const r = await run(["comment", plan], env(2));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/updated the plan comment on merge request !2/);
    const gets = notesCalls(2).filter((q) => q.method === "GET");
    expect(gets.map((q) => new URL(q.path, gl.url).searchParams.get("page"))).toEqual(["1", "2"]);
    expect(gets.every((q) => /per_page=100/.test(q.path) && /sort=asc/.test(q.path))).toBe(true);
    const notes = gl.notes(PROJECT, 2);
    expect(notes).toHaveLength(150);
    expect(notes[120].body).toMatch(/^<!-- phctl:plan key=default -->\n[^]*mallory/);
  });

  it("a refused token: exit 1 with GitLab's message and what to do", async () => {
    const bad = await run(["comment", plan], env(3, { PHCTL_GITLAB_TOKEN: "glpat-notAToken0000" }));
    expect(bad.code, bad.stderr).toBe(1);
    expect(bad.stderr).toBe(
      "phctl: cannot comment on GitLab merge request !3: 401 Unauthorized — set PHCTL_GITLAB_TOKEN to a token with api scope\n",
    );
    const ro = await run(["comment", plan], env(3, { PHCTL_GITLAB_TOKEN: GITLAB_TOKENS.read }));
    expect(ro.code, ro.stderr).toBe(1);
    expect(ro.stderr).toMatch(
      /^phctl: cannot comment on GitLab merge request !3: 403 Forbidden — /,
    );
    expect(notesCalls(3).filter((q) => q.method === "POST")).toHaveLength(1);
  });

  it("after a merge, finds the merge request of the commit; GITLAB_TOKEN works too", async () => {
    const sha = "5".repeat(40);
    gl.setCommitMergeRequests(PROJECT, sha, [4]);
    const r = await run(
      ["comment", plan],
      env(undefined, {
        CI_COMMIT_SHA: sha,
        PHCTL_GITLAB_TOKEN: undefined,
        GITLAB_TOKEN: GITLAB_TOKENS.write,
      }),
    );
    expect(r.stderr).toMatch(/created the plan comment on merge request !4/);
    expect(r.code, r.stderr).toBe(0);
    expect(gl.notes(PROJECT, 4)).toHaveLength(1);
  });

  it("without a token: the markdown on stdout, said on stderr, exit 0", async () => {
    const r = await run(["comment", plan], env(5, { PHCTL_GITLAB_TOKEN: undefined }));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      "phctl: no token to comment with (neither PHCTL_GITLAB_TOKEN nor GITLAB_TOKEN is set): the plan is on stdout\n",
    );
    expect(r.stdout.startsWith(MARKER)).toBe(true);
    expect(notesCalls(5)).toEqual([]);
  });

  it("says merge request, never pull request (a plan made with --base)", async () => {
    const p = samplePlan();
    const based = writeJson(tempDir(), "based.json", { ...p, drift: [p.entries[1].key] });
    const r = await run(["comment", based], env(11));
    expect(r.code, r.stderr).toBe(0);
    const [note] = gl.notes(PROJECT, 11);
    expect(note.body).toContain("#### Changes in this merge request — ");
    expect(note.body).not.toMatch(/pull request/i);
  });

  it("a create answered 500 after it landed is not sent again", async () => {
    gl.failNext("POST", /merge_requests\/6\/notes$/, 500, { message: "500 Internal Server Error" }, { landed: true }); // prettier-ignore
    const r = await run(["comment", plan], env(6));
    expect(r.code, r.stderr).toBe(0);
    expect(gl.notes(PROJECT, 6)).toHaveLength(1);
    expect(notesCalls(6).map((q) => `${q.method} ${q.status}`)).toEqual([
      "GET 200",
      "POST 500",
      "GET 200",
    ]);
  });

  it("a notes list that is not one (a proxy's page answered 200) posts nothing and says which URL to check", async () => {
    gl.failNext("GET", /merge_requests\/9\/notes$/, 200, "<html>Sign in to continue</html>");
    const r = await run(["comment", plan], env(9));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is not what the platform's API answers \(got text \("<html>Sign in to continue<\/html>"\)\): check that CI_API_V4_URL is the API's base URL; nothing was posted\n$/); // prettier-ignore
    expect(notesCalls(9).map((q) => q.method)).toEqual(["GET"]);
    expect(gl.notes(PROJECT, 9)).toEqual([]);
  });
});

describe("after every run", () => {
  it("the token never appears in anything phctl printed", () => {
    const all = outputs();
    expect(all).toContain("phctl:");
    for (const t of [GITLAB_TOKENS.write, GITLAB_TOKENS.read, "glpat-notAToken0000"])
      expect(all).not.toContain(t);
  });
});
