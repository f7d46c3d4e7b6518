/**
 * The expiry issue (issue 38, item 3): `phctl drift --report github-issue|gitlab-issue` keeps,
 * besides the drift issue, one issue per key listing the access that has expired or ends
 * within 14 days — in sync too, when the drift issue is closed. End to end with the built
 * CLI against the reference server (the examples applied, lchen's developer access on
 * ci-tools ending 2026-06-10) and the fake GitHub / GitLab on loopback; PHCTL_NOW fixes
 * today. Through: ends in 5 days (drift exits 0, the expiry issue opens), the same run again
 * (nothing new), the day after its last day (due for removal: drift exits 2, the issue says
 * what now expired), apply (removed live: only the manifest entry is left), the entry
 * deleted (the issue closes), a new grant ending soon (the same issue reopens).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recorder } from "../ci/helpers.js";
import { phctl } from "../helpers/cli.js";
import { copyExamples } from "../helpers/examples.js";
import { GITHUB_TOKENS, startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import { GITLAB_TOKENS, startFakeGitLab, type FakeGitLab } from "../helpers/fake-gitlab.js";
import { gitlabPipeline, githubSchedule } from "../helpers/ci-env.js";
import { startServer, TOKENS } from "../helpers/server.js";

const tmp = mkdtempSync(join(tmpdir(), "phctl-expiry-issue-"));
const FILE = "projects/ci-tools.yaml";
const PLAIN = "developers: { users: [lchen] }";
const DATED = (date: string) => `developers: { users: [{ user: lchen, expires: ${date} }] }`;
const WHAT = "lchen on the developers of project ci-tools";
const { run, outputs } = recorder();

/** Replace text in the config's file. */
function edit(dir: string, from: string, to: string): void {
  const path = join(dir, FILE);
  const text = readFileSync(path, "utf8");
  if (!text.includes(from)) throw new Error(`${FILE}: nothing replaced`);
  writeFileSync(path, text.replace(from, to));
}

/** The reference server with the examples applied, lchen's developer access ending on `date`. */
async function applied(name: string, date: string) {
  const t = await startServer();
  const dir = join(tmp, name);
  copyExamples(dir);
  edit(dir, PLAIN, DATED(date));
  const env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
  const r = await phctl(["apply", ".", "--auto-approve"], { ...env, PHCTL_NOW: "2026-06-05" }, dir); // prettier-ignore
  expect(r.code, r.stderr).toBe(0);
  return { t, dir, env };
}

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("on GitHub: one expiry issue through ending soon, expired, removed and deleted", () => {
  const REPO = "acme/config";
  let s: Awaited<ReturnType<typeof applied>>;
  let gh: FakeGitHub;
  let runId = 500;
  beforeAll(async () => {
    [s, gh] = await Promise.all([applied("github", "2026-06-10"), startFakeGitHub()]);
  }, 120_000);
  afterAll(async () => Promise.all([s?.t.close(), gh?.close()]));

  const drift = (today: string, token: string = GITHUB_TOKENS.write) =>
    run(["drift", ".", "--report", "github-issue"], {
      ...s.env,
      PHCTL_NOW: today,
      ...githubSchedule({ apiUrl: gh.url, repo: REPO, token, runId: ++runId, runNumber: runId - 500 }),
    }, s.dir); // prettier-ignore
  const issues = () => gh.issues.list(REPO);
  const expiry = () => issues().filter((i) => i.labels.includes("phctl-expiry"));
  const comments = () => gh.comments(REPO, 101).map((c) => c.body);
  const writes = () => gh.requests.filter((q) => q.method !== "GET").length;

  it("in sync, a grant ending in 5 days: drift exits 0, no drift issue, the expiry issue opens", async () => {
    const r = await drift("2026-06-05");
    expect(r.code, r.stderr).toBe(0);
    // validate's warning, then a line per issue.
    expect(r.stderr).toBe(
      `${FILE}:15:51 warning: Project ci-tools: ${WHAT} expires on 2026-06-10 (in 5 days) (renew it with a later expires, or let it end)\n` + // prettier-ignore
        "phctl: in sync: no open drift issue (key default)\n" +
        "phctl: opened expiry issue #101 (key default): 1 ends within 14 days (https://github.example/acme/config/issues/101)\n", // prettier-ignore
    );
    expect(issues()).toHaveLength(1);
    const [issue] = issues();
    expect(issue).toMatchObject({ number: 101, state: "open", labels: ["phctl-expiry"], title: "Access expiring: 1 ends within 14 days in organization acme" }); // prettier-ignore
    expect(issue.body.startsWith("<!-- phctl:expiry key=default -->\n<!-- phctl:expiry-state digest=")).toBe(true); // prettier-ignore
    expect(issue.body).toContain("by [run 1](https://github.example/acme/config/actions/runs/501): 1 ends within 14 days."); // prettier-ignore
    expect(issue.body).toContain(`**Expires soon** (1):\n- ${WHAT}: expires on 2026-06-10 (\`${FILE}:15\`)`); // prettier-ignore
    expect(issue.body).toContain("- **Expires soon**: to keep it, renew it by changing the date in a pull request"); // prettier-ignore
    expect(issue.body).not.toContain("2030-06-30"); // lchen's maintainer grant on mbed-tls: years away
    expect(gh.issues.labels(REPO)).toEqual(["phctl-expiry"]);
  });

  it("the same run again: the body is replaced, nothing else: no comment, no second issue", async () => {
    const r = await drift("2026-06-05");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("phctl: updated expiry issue #101 (key default): 1 ends within 14 days (https://github.example/acme/config/issues/101)\n"); // prettier-ignore
    expect(r.stderr).not.toContain("commented");
    expect(issues()).toHaveLength(1);
    expect(issues()[0].body).toContain("actions/runs/502");
    expect(comments()).toEqual([]);
  });

  it("past its last day: drift exits 2, and the expiry issue says it now expired, due for removal", async () => {
    const r = await drift("2026-06-11");
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("phctl: opened drift issue #102 (key default)");
    expect(r.stderr).toContain("phctl: updated expiry issue #101 (key default): 1 expired (https://github.example/acme/config/issues/101); the list changed: commented\n"); // prettier-ignore
    expect(expiry()).toHaveLength(1);
    expect(expiry()[0]).toMatchObject({ state: "open", title: "Access expiring: 1 expired in organization acme" }); // prettier-ignore
    expect(expiry()[0].body).toContain(`**Expired, due for removal** (1):\n- ${WHAT}: expired on 2026-06-10 (\`${FILE}:15\`)`); // prettier-ignore
    expect(expiry()[0].body).toContain("- **Expired, due for removal**: the next apply removes it");
    const untimed = comments().map((c) =>
      c.replace(/ at \d{4}-\d\d-\d\d \d\d:\d\d UTC /, " at TIME "),
    );
    expect(untimed).toEqual([
      `**Expiring access changed** at TIME ([run 3](https://github.example/acme/config/actions/runs/503)): now 1 expired.\n\n` +
        `- now expired, due for removal: ${WHAT} (expired on 2026-06-10, \`${FILE}:15\`)\n\n` +
        "The description shows the current list.",
    ]);
  });

  it("after apply removed it live: in sync again, the issue says only the manifest entry is left", async () => {
    const a = await phctl(["apply", ".", "--auto-approve"], { ...s.env, PHCTL_NOW: "2026-06-11" }, s.dir); // prettier-ignore
    expect(a.code, a.stderr).toBe(0);
    const r = await drift("2026-06-11");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("phctl: closed drift issue #102 (key default): in sync again");
    expect(r.stderr).toContain("phctl: updated expiry issue #101 (key default): 1 expired (https://github.example/acme/config/issues/101); the list changed: commented\n"); // prettier-ignore
    expect(expiry()[0].body).toContain(`**Expired and removed: delete the manifest entry** (1):\n- ${WHAT}: expired on 2026-06-10`); // prettier-ignore
    expect(expiry()[0].body).toContain("delete the manifest entry in a pull request, or run `phctl report access --propose`"); // prettier-ignore
    expect(comments()[1]).toContain(`- removed live: delete the manifest entry: ${WHAT} (expired on 2026-06-10`); // prettier-ignore
  });

  it("the manifest entry deleted: the expiry issue closes with a comment; the next run sends nothing", async () => {
    edit(s.dir, DATED("2026-06-10"), "developers: { users: [] }");
    const r = await drift("2026-06-11");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      "phctl: in sync: no open drift issue (key default)\n" +
        "phctl: closed expiry issue #101 (key default): no access expired or ending within 14 days (https://github.example/acme/config/issues/101)\n", // prettier-ignore
    );
    expect(expiry()).toMatchObject([{ number: 101, state: "closed", stateReason: "completed", title: "Access expiring: none within 14 days in organization acme" }]); // prettier-ignore
    expect(comments()[2]).toMatch(/^\*\*Nothing expiring\*\* at .* \(\[run 5\]\(.*\)\): no grant has expired or ends within 14 days\. Closing\.$/); // prettier-ignore
    const before = writes();
    const quiet = await drift("2026-06-11");
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toContain("phctl: no access expired or ending within 14 days: no open expiry issue (key default)\n"); // prettier-ignore
    expect(writes()).toBe(before);
  });

  it("a new grant ending soon reopens the same issue, with a comment", async () => {
    edit(s.dir, "developers: { users: [] }", DATED("2026-06-20"));
    const a = await phctl(["apply", ".", "--auto-approve"], { ...s.env, PHCTL_NOW: "2026-06-11" }, s.dir); // prettier-ignore
    expect(a.code, a.stderr).toBe(0);
    const r = await drift("2026-06-11");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("phctl: reopened expiry issue #101 (key default): 1 ends within 14 days"); // prettier-ignore
    expect(expiry()).toMatchObject([{ number: 101, state: "open" }]);
    expect(comments()[3]).toMatch(/^\*\*Access expiring again\*\* at .*: 1 ends within 14 days\. Reopened; the description lists them\.$/); // prettier-ignore
  });

  it("a token that may not write issues: one line with what to do, and drift's exit code stays 0", async () => {
    const r = await drift("2026-06-12", GITHUB_TOKENS.read);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("phctl: cannot keep the expiry issue on GitHub (key default): 403 Resource not accessible by integration — give the job `issues: write` in its permissions\n"); // prettier-ignore
    expect(expiry()).toMatchObject([{ number: 101, state: "open" }]);
  });

  it("no token is ever sent or printed", () => {
    const text = outputs() + JSON.stringify([issues(), comments()]);
    for (const secret of [GITHUB_TOKENS.write, GITHUB_TOKENS.read, TOKENS.admin.secret])
      expect(text).not.toContain(secret);
  });
});

describe("on GitLab: the expiry issue opens, and closes once the grant is renewed", () => {
  const PROJECT = "42";
  let s: Awaited<ReturnType<typeof applied>>;
  let gl: FakeGitLab;
  let pipeline = 900;
  beforeAll(async () => {
    [s, gl] = await Promise.all([applied("gitlab", "2026-06-10"), startFakeGitLab()]);
  }, 120_000);
  afterAll(async () => Promise.all([s?.t.close(), gl?.close()]));

  const drift = () =>
    run(["drift", ".", "--report", "gitlab-issue"], {
      ...s.env,
      PHCTL_NOW: "2026-06-05",
      ...gitlabPipeline({ apiUrl: gl.apiUrl, project: PROJECT, pipeline: ++pipeline, token: GITLAB_TOKENS.write }),
    }, s.dir); // prettier-ignore

  it("opens with the grant and its line; a later date in the manifests closes it with a note", async () => {
    const r = await drift();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("phctl: opened expiry issue #101 (key default): 1 ends within 14 days (https://gitlab.example/42/-/issues/101)\n"); // prettier-ignore
    expect(gl.issues.list(PROJECT)).toMatchObject([{ number: 101, state: "open", labels: ["phctl-expiry"] }]); // prettier-ignore
    expect(gl.issues.list(PROJECT)[0].body).toContain(`- ${WHAT}: expires on 2026-06-10 (\`${FILE}:15\`)`); // prettier-ignore
    expect(gl.issues.list(PROJECT)[0].body).toContain("by [pipeline 901](https://gitlab.example/acme/config/-/pipelines/901)"); // prettier-ignore

    edit(s.dir, DATED("2026-06-10"), DATED("2026-12-31")); // renewed in a pull request
    const renewed = await drift();
    expect(renewed.code, renewed.stderr).toBe(0);
    expect(renewed.stderr).toContain("phctl: closed expiry issue #101 (key default): no access expired or ending within 14 days"); // prettier-ignore
    expect(gl.issues.list(PROJECT)).toMatchObject([{ number: 101, state: "closed" }]);
    expect(gl.issueNotes(PROJECT, 101).map((n) => n.body)).toEqual([
      expect.stringMatching(/^\*\*Nothing expiring\*\* at .*\[pipeline 902\]/),
    ]);
  });
});
