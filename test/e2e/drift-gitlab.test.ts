/**
 * `phctl drift --report gitlab-issue` end to end against the fake GitLab (CI_API_V4_URL) and
 * the reference server: one issue through drift, changed drift, recovery and drift again,
 * with notes; GitLab refusing leaves the exit code alone. And `--notify` without an issue:
 * the state file tells a recovery; a failed check posts its error and writes its metrics.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GITLAB_TOKENS, startFakeGitLab, type FakeGitLab } from "../helpers/fake-gitlab.js";
import { gitlabPipeline } from "../helpers/ci-env.js";
import { recorder } from "../ci/helpers.js";
import { converged, DESCRIPTIONS, startWebhook, type Converged, type Webhook } from "./drift-fixture.js"; // prettier-ignore

const PROJECT = "42";
let c: Converged;
let gl: FakeGitLab;
let hook: Webhook;
const { run, outputs } = recorder();
let pipeline = 700;

const env = (extra: Record<string, string> = {}) => ({
  ...c.env,
  ...gitlabPipeline({ apiUrl: gl.apiUrl, project: PROJECT, pipeline: ++pipeline, token: GITLAB_TOKENS.write }), // prettier-ignore
  ...extra,
});
const drift = (extra: Record<string, string> = {}) =>
  run(["drift", "examples", "--report", "gitlab-issue"], env(extra), c.dir);
const issues = () => gl.issues.list(PROJECT);
const notes = () => gl.issueNotes(PROJECT, 101).map((n) => n.body);

beforeAll(async () => {
  [c, gl, hook] = await Promise.all([converged(), startFakeGitLab(), startWebhook()]);
});
afterAll(async () => {
  await Promise.all([c?.close(), gl?.close(), hook?.close()]);
});

describe("one GitLab issue per key", () => {
  it("opens on drift, is updated, gets a note when the drift changes", async () => {
    await c.describe("ci-tools", "Edited on GitLab's watch");
    const first = await drift();
    expect(first.code, first.stderr).toBe(2);
    expect(first.stderr).toContain("phctl: opened drift issue #101 (key default) (https://gitlab.example/42/-/issues/101)"); // prettier-ignore
    expect(issues()).toMatchObject([{ number: 101, state: "open", labels: ["phctl-drift"], title: "Drift: 1 difference in organization acme" }]); // prettier-ignore
    expect(issues()[0].body).toMatch(/^<!-- phctl:drift key=default -->\n[^]*by \[pipeline 701\]\(https:\/\/gitlab\.example\/acme\/config\/-\/pipelines\/701\)/); // prettier-ignore
    expect(gl.issues.labels(PROJECT)).toEqual(["phctl-drift"]);
    const list = gl.requests.find((q) => q.method === "GET" && q.path.includes("/issues?"));
    expect(list?.path).toMatch(/^\/api\/v4\/projects\/42\/issues\?labels=phctl-drift&.*per_page=100/); // prettier-ignore
    expect(list?.path).not.toContain("state=");

    const same = await drift();
    expect(same.code, same.stderr).toBe(2);
    expect(notes()).toEqual([]);
    await c.describe("mbed-tls", "Also edited");
    const other = await drift();
    expect(other.code, other.stderr).toBe(2);
    expect(issues()).toHaveLength(1);
    expect(issues()[0].body).toContain("pipelines/703");
    expect(notes()).toHaveLength(1);
    expect(notes()[0]).toMatch(/^\*\*Drift changed\*\* .*now 2 differences/);
  });

  it("closes with a note when in sync, and reopens the same issue on new drift", async () => {
    await c.describe("ci-tools", DESCRIPTIONS["ci-tools"]);
    await c.describe("mbed-tls", DESCRIPTIONS["mbed-tls"]);
    const synced = await drift();
    expect(synced.code, synced.stderr).toBe(0);
    expect(issues()[0].state).toBe("closed");
    expect(notes()[1]).toMatch(/^\*\*In sync again\*\* .*\[pipeline 704\]/);

    await c.describe("ci-tools", "Edited once more");
    const again = await drift();
    expect(again.code, again.stderr).toBe(2);
    expect(again.stderr).toContain("phctl: reopened drift issue #101");
    expect(issues()).toMatchObject([{ number: 101, state: "open" }]);
    expect(notes()[2]).toMatch(/^\*\*Drift again\*\*/);
  });

  it("GitLab refusing the token: one line with its message, exit 2 stays", async () => {
    const r = await drift({ PHCTL_GITLAB_TOKEN: "glpat-notAToken00000" });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("phctl: cannot report drift on GitLab (key default): 401 Unauthorized — set PHCTL_GITLAB_TOKEN to a token with api scope\n"); // prettier-ignore
    const none = await drift({ PHCTL_GITLAB_TOKEN: "" });
    expect(none.code, none.stderr).toBe(2);
    expect(none.stderr).toContain("phctl: cannot report drift on GitLab: no token (neither PHCTL_GITLAB_TOKEN nor GITLAB_TOKEN is set)\n"); // prettier-ignore
  });
});

describe("--notify without an issue", () => {
  it("the state file tells a recovery from a plain in-sync run", async () => {
    const args = ["drift", "examples", "--key", "hook", "--notify", hook.url, "--state", "state.json"]; // prettier-ignore
    const drifted = await run(args, c.env, c.dir);
    expect(drifted.code, drifted.stderr).toBe(2);
    expect(hook.messages.at(-1)).toMatchObject({ status: "drift", key: "hook", previous: "unknown" }); // prettier-ignore
    expect(JSON.parse(readFileSync(join(c.dir, "state.json"), "utf8")).keys.hook.status).toBe("drift"); // prettier-ignore
    // The same field, another live value: the drift changed; the same again: it did not.
    await c.describe("ci-tools", "Edited by hand, once more");
    const other = await run(args, c.env, c.dir);
    expect(other.code, other.stderr).toBe(2);
    expect(hook.messages.at(-1)).toMatchObject({ status: "drift", previous: "drift", changed: true }); // prettier-ignore
    expect((await run(args, c.env, c.dir)).code).toBe(2);
    expect(hook.messages.at(-1)).toMatchObject({ status: "drift", changed: false });
    await c.describe("ci-tools", DESCRIPTIONS["ci-tools"]);
    const back = await run(args, c.env, c.dir);
    expect(back.code, back.stderr).toBe(0);
    expect(hook.messages.at(-1)).toMatchObject({ status: "recovered", previous: "drift" });
    const count = hook.messages.length;
    const quiet = await run(args, c.env, c.dir);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(hook.messages).toHaveLength(count); // in sync, no --heartbeat: nothing posted
  });

  it("a failed check posts its error and writes success 0; exit 1", async () => {
    const r = await run(
      ["drift", "examples", "--notify", hook.url, "--metrics-file", "m/drift.prom"],
      { ...c.env, PHCTL_TOKEN: "wrong-token-1234" },
      c.dir,
    );
    expect(r.code, r.stderr).toBe(1);
    const m = hook.messages.at(-1);
    expect(m).toMatchObject({ status: "error", key: "default" });
    expect(m.text).toMatch(/^phctl: the drift check failed: /);
    expect(readFileSync(join(c.dir, "m/drift.prom"), "utf8")).toMatch(/^phctl_drift_last_run_success\{key="default"\} 0$/m); // prettier-ignore
    expect(readdirSync(join(c.dir, "m"))).toEqual(["drift.prom"]); // written whole: no temp file left
    expect(JSON.stringify(hook.raw) + outputs()).not.toContain("wrong-token-1234");
  });

  it("bad flags are usage errors before anything is planned", async () => {
    const bad = await run(["drift", "examples", "--report", "jira"], c.env, c.dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('phctl: --report must be github-issue or gitlab-issue (got "jira")\n');
    const url = await run(["drift", "examples", "--notify", "ftp://x/secret"], c.env, c.dir);
    expect(url.stderr).toBe("phctl: --notify must be an http(s) URL (a webhook)\n");
    const hb = await run(["drift", "examples", "--heartbeat"], c.env, c.dir);
    expect(hb.stderr).toMatch(/^phctl: --heartbeat needs --notify URL/);
  });
});
