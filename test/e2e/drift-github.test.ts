/**
 * `phctl drift --report github-issue --notify URL --heartbeat --metrics-file FILE` end to
 * end: the built CLI against the reference server (converged on the examples) and the fake
 * GitHub on loopback, as a scheduled GitHub Actions job runs it. One issue through drift,
 * the same drift, changed drift, `phctl apply`, and drift again; a webhook receiver hears
 * each run; failing reporting never changes the exit code; no token is ever sent or written.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GITHUB_TOKENS, startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import { githubSchedule } from "../helpers/ci-env.js";
import { phctl } from "../helpers/cli.js";
import { TOKENS } from "../helpers/server.js";
import { recorder } from "../ci/helpers.js";
import { converged, DESCRIPTIONS, startWebhook, type Converged, type Webhook } from "./drift-fixture.js"; // prettier-ignore

const REPO = "acme/config";
const MARKER = "<!-- phctl:drift key=default -->";
/** The expiry issue's line: nothing in the examples ends within 14 days. */
const NO_EXPIRY = "phctl: no access expired or ending within 14 days: no open expiry issue (key default)\n"; // prettier-ignore
const parse = createRequire(import.meta.url)("parse-prometheus-text-format") as (s: string) => { name: string; metrics: { value: string; labels?: Record<string, string> }[] }[]; // prettier-ignore
let c: Converged;
let gh: FakeGitHub;
let hook: Webhook;
const { run, outputs } = recorder();
let runId = 300;

/** A scheduled job's environment, with the next run id. */
const env = (extra: Record<string, string> = {}) => ({
  ...c.env,
  ...githubSchedule({ apiUrl: gh.url, repo: REPO, token: GITHUB_TOKENS.write, runId: ++runId, runNumber: runId - 300 }), // prettier-ignore
  ...extra,
});
const drift = (extra: Record<string, string> = {}, flags: string[] = []) =>
  run(["drift", "examples", "--report", "github-issue", "--notify", hook.url, "--heartbeat", "--metrics-file", "drift.prom", ...flags], env(extra), c.dir); // prettier-ignore
const metric = (name: string, labels: Record<string, string> = {}) =>
  parse(readFileSync(join(c.dir, "drift.prom"), "utf8"))
    .find((f) => f.name === name)
    ?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))?.value;
const issues = () => gh.issues.list(REPO);
const comments = () => gh.comments(REPO, 101).map((x) => x.body);
/** Issue texts as they were after a run (later runs replace bodies). */
const seen: string[] = [];

beforeAll(async () => {
  [c, gh, hook] = await Promise.all([converged(), startFakeGitHub(), startWebhook()]);
});
afterAll(async () => {
  await Promise.all([c?.close(), gh?.close(), hook?.close()]);
});

describe("one tracking issue through drift and recovery", () => {
  it("in sync: no issue, a heartbeat, in_sync 1 in the metrics", async () => {
    const r = await drift();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`phctl: in sync: no open drift issue (key default)\n${NO_EXPIRY}phctl: notified 1 webhook (in-sync)\n`); // prettier-ignore
    expect(issues()).toEqual([]);
    expect(hook.messages.at(-1)).toMatchObject({
      status: "in-sync",
      key: "default",
      organization: "acme",
      previous: "in-sync",
      runUrl: "https://github.example/acme/config/actions/runs/301",
      text: "phctl: organization acme is in sync — run https://github.example/acme/config/actions/runs/301", // prettier-ignore
    });
    expect(metric("phctl_drift_in_sync", { key: "default" })).toBe("1");
  });

  it("in sync, drift's markdown (the job summary) says in sync, not a plan of no changes", async () => {
    const r = await run(["drift", "examples", "--format", "markdown"], c.env, c.dir);
    expect(r.code, r.stderr).toBe(0);
    // The examples' two-admins policy warns on three projects: the verdict counts it.
    expect(r.stdout.split("\n")[0]).toBe("### phctl drift: in sync — live state matches the manifests · acme"); // prettier-ignore
  });

  it("drift opens one issue with the label and the marker; the webhook hears it", async () => {
    await c.describe("ci-tools", "Edited by hand");
    const r = await drift();
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toContain("~ project/ci-tools (Project) will be updated in place");
    expect(r.stderr).toContain("phctl: opened drift issue #101 (key default) (https://github.example/acme/config/issues/101)\n"); // prettier-ignore
    const [issue, ...more] = issues();
    expect(more).toEqual([]);
    expect(issue).toMatchObject({ state: "open", labels: ["phctl-drift"], title: "Drift: 1 difference in organization acme" }); // prettier-ignore
    expect(issue.body.startsWith(`${MARKER}\n`)).toBe(true);
    expect(issue.body).toContain("by [run 2](https://github.example/acme/config/actions/runs/302)"); // prettier-ignore
    expect(issue.body).toContain("Edited by hand");
    expect(gh.issues.labels(REPO)).toEqual(["phctl-drift"]);
    const m = hook.messages.at(-1);
    expect(m).toMatchObject({ status: "drift", changed: true, previous: "in-sync", issueUrl: issue.url }); // prettier-ignore
    expect(m.counts).toMatchObject({ total: 1, byKind: { Project: { update: 1 } } });
    expect(m.apiCalls).toBeGreaterThan(5);
    expect(m.durationMs).toBeGreaterThan(0);
    expect(m.text).toBe(`phctl: drift in organization acme: 1 difference: 1 to update — issue ${issue.url} · run https://github.example/acme/config/actions/runs/302`); // prettier-ignore
    expect(metric("phctl_drift_in_sync")).toBe("0");
    expect(metric("phctl_drift_entries", { kind: "Project", action: "update" })).toBe("1");
  });

  it("the same drift again: the body is replaced, no comment", async () => {
    const r = await drift();
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("phctl: updated drift issue #101 (key default)");
    expect(issues()).toHaveLength(1);
    expect(issues()[0].body).toContain("actions/runs/303");
    expect(comments()).toEqual([]);
    expect(hook.messages.at(-1)).toMatchObject({ status: "drift", changed: false, previous: "drift" }); // prettier-ignore
  });

  it("the same field drifted to another live value: one comment saying it changed", async () => {
    await c.describe("ci-tools", "Edited by hand, then once more");
    const r = await drift();
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("phctl: updated drift issue #101 (key default)");
    expect(r.stderr).toContain("; the drift changed: commented");
    expect(issues()[0].title).toBe("Drift: 1 difference in organization acme");
    expect(issues()[0].body).toContain("Edited by hand, then once more");
    expect(comments()).toHaveLength(1);
    expect(comments()[0]).toMatch(/^\*\*Drift changed\*\* at .* \(\[run 4\]\(.*\)\): now 1 difference: 1 to update \(plan `[0-9a-f]{12}` → `[0-9a-f]{12}`\)\./); // prettier-ignore
    expect(hook.messages.at(-1)).toMatchObject({ status: "drift", changed: true, previous: "drift" }); // prettier-ignore
    // The same again: nothing new to say.
    const same = await drift();
    expect(same.code, same.stderr).toBe(2);
    expect(same.stderr).not.toContain("commented");
    expect(comments()).toHaveLength(1);
    expect(hook.messages.at(-1)).toMatchObject({ status: "drift", changed: false });
  });

  it("other drift: still one issue, and one comment saying it changed", async () => {
    // A live value holding the tokens: the issue shows the value, never the tokens.
    await c.describe("mbed-tls", `leaked ${TOKENS.admin.secret} ${GITHUB_TOKENS.write}`);
    const r = await drift();
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("; the drift changed: commented");
    expect(issues()).toHaveLength(1);
    expect(issues()[0].title).toBe("Drift: 2 differences in organization acme");
    expect(issues()[0].body).toContain("leaked ***");
    seen.push(JSON.stringify(issues()));
    expect(comments()).toHaveLength(2);
    expect(comments()[1]).toMatch(/^\*\*Drift changed\*\* at .* \(\[run 6\]\(.*\)\): now 2 differences: 2 to update/); // prettier-ignore
  });

  it("after phctl apply the next run closes it with a comment; the webhook hears the recovery", async () => {
    // (apply's own output is not drift's to check: run it outside the recorder)
    const applied = await phctl(["apply", "examples", "--auto-approve"], c.env, c.dir);
    expect(applied.code, applied.stderr).toBe(0);
    const r = await drift();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("phctl: closed drift issue #101 (key default): in sync again");
    expect(issues()).toMatchObject([{ number: 101, state: "closed", stateReason: "completed" }]);
    expect(comments()[2]).toMatch(/^\*\*In sync again\*\* at .*\[run 7\]/);
    expect(hook.messages.at(-1)).toMatchObject({ status: "recovered", previous: "drift" });
    expect(hook.messages.at(-1).text).toMatch(
      /^phctl: organization acme is in sync again — issue /,
    );
    expect(metric("phctl_drift_in_sync")).toBe("1");
  });

  it("a new drift reopens the same issue: exactly one", async () => {
    await c.describe("ci-tools", "Edited by hand again");
    const r = await drift();
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("phctl: reopened drift issue #101 (key default)");
    expect(issues()).toMatchObject([{ number: 101, state: "open", stateReason: "reopened" }]);
    expect(comments()[3]).toMatch(/^\*\*Drift again\*\* at /);
    expect(hook.messages.at(-1)).toMatchObject({ status: "drift", changed: true });
  });

  it("two runs at the same time leave one open issue", async () => {
    const [a, b] = await Promise.all([drift({}, ["--key", "race"]), drift({}, ["--key", "race"])]);
    expect([a.code, b.code]).toEqual([2, 2]);
    const race = issues().filter((i) => i.body.startsWith("<!-- phctl:drift key=race -->"));
    expect(race.filter((i) => i.state === "open")).toHaveLength(1);
  });
});

describe("reporting that fails leaves the exit code as the drift says", () => {
  it("drift: a token that may not write issues and a webhook answering 500 → exit 2", async () => {
    hook.fail(2, 500);
    const r = await drift({ GITHUB_TOKEN: GITHUB_TOKENS.read });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toContain("project/ci-tools");
    const port = new URL(hook.url).port;
    expect(r.stderr).toBe(
      "phctl: drift: 1 difference between the manifests and live state\n" +
        "phctl: cannot report drift on GitHub (key default): 403 Resource not accessible by integration — give the job `issues: write` in its permissions\n" + // prettier-ignore
        NO_EXPIRY +
        `phctl: cannot notify http://127.0.0.1:${port}/…: 500 no_service (tried twice)\n`,
    );
  });

  it("in sync: GitHub down and the webhook failing → exit 0; the next run closes the issue", async () => {
    await c.describe("ci-tools", DESCRIPTIONS["ci-tools"]);
    for (let i = 0; i < 3; i++) gh.failNext("GET", /\/issues$/, 502, { message: "Bad Gateway" });
    hook.fail(2, 503);
    const r = await drift();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^phctl: cannot report drift on GitHub \(key default\): 502 Bad Gateway — GitHub may be having trouble: the next run tries again\nphctl: no access expired or ending within 14 days: no open expiry issue \(key default\)\nphctl: cannot notify .*: 503 no_service \(tried twice\)\n$/); // prettier-ignore
    expect(issues()[0].state).toBe("open");
    const next = await drift();
    expect(next.code, next.stderr).toBe(0);
    expect(issues()[0].state).toBe("closed");
  });

  it("no token is ever sent, written or printed", () => {
    const sent = JSON.stringify([seen, issues(), comments(), hook.raw]);
    const written = readFileSync(join(c.dir, "drift.prom"), "utf8") + readFileSync(join(c.dir, "examples/.phctl/drift-state.json"), "utf8"); // prettier-ignore
    expect(sent).toContain("leaked ***");
    for (const secret of [
      TOKENS.admin.secret,
      GITHUB_TOKENS.write,
      GITHUB_TOKENS.read,
      hook.secret,
    ])
      // prettier-ignore
      for (const text of [sent, written, outputs()]) expect(text).not.toContain(secret);
  });
});
