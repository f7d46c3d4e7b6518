/**
 * Issue 34, defect 3, end to end: a token is masked by its own shape wherever it starts.
 * Live values hold tokens glued to a letter, a digit, `_`, `%3D` (a URL-encoded `=`), a
 * newline and a tab — and a credential phctl is using, URL-encoded — and the built CLI,
 * against the reference server and the fake GitHub, prints and writes none of them: plan
 * (text, markdown, json, the saved plan), the pull-request comment, the drift issue,
 * `phctl api`, export. `drift --adopt` copies no token (after a newline or a tab) and no
 * mask into a manifest, and says why for each project.
 */
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prEvent, recorder, writeJson } from "../ci/helpers.js";
import { startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import { TOKENS } from "../helpers/server.js";
import { converged, type Converged } from "./drift-fixture.js";

/** Bodies, each distinct, to search for (a body shown without its prefix is a leak too). */
const BODY = {
  ghp: "G1uedClassicTok3nAbCdEfGhIjKlMnOpQrSt",
  ghs: "G1uedAppTok3nZyXwVuTsRqPoNmLkJiHgFeDc",
  pat: `11GLUED0000${"fIneGra1ned"}_${"Z9".repeat(25)}`,
  glpat: "G1ued_GitLab-tok3n42xYz",
  phdev: "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b",
};
const TOKEN = {
  ghp: `ghp_${BODY.ghp}`,
  ghs: `ghs_${BODY.ghs}`,
  pat: `github_pat_${BODY.pat}`,
  glpat: `glpat-${BODY.glpat}`,
  phdev: `phdev_${BODY.phdev}`,
};
/** The token the CLI uses (with characters a URL encodes). */
const MINE = "phctl-e2e/glued+Qm7Lz2Rk9Vw4==";
const REPO = "acme/config";

/** Each shape glued to what comes before it, in the outputs' project (mbed-tls). */
const GLUED = [
  `key${TOKEN.ghp}`,
  `v2${TOKEN.pat}`,
  `TOKEN_${TOKEN.glpat}`,
  `https://ci.example/hook?token%3D${TOKEN.ghs}`,
  `line\n${TOKEN.phdev}`,
  `col\t${TOKEN.ghp}`,
  `?t=${encodeURIComponent(MINE)}`,
].join(" ");

let c: Converged;
let gh: FakeGitHub;
const { run, outputs } = recorder();

const env = (extra: Record<string, string | undefined> = {}) => ({
  PHCTL_API_URL: c.t.url,
  PHCTL_TOKEN: MINE,
  GITHUB_TOKEN: "gh-glued-test-Bv5Ns0Wq2Ye7",
  GITHUB_ACTIONS: "true",
  GITHUB_EVENT_NAME: "schedule",
  GITHUB_API_URL: gh.url,
  GITHUB_SERVER_URL: "https://github.example",
  GITHUB_REPOSITORY: REPO,
  GITHUB_RUN_ID: "78",
  ...extra,
});
const cli = (args: string[], extra: Record<string, string | undefined> = {}) =>
  run(args, env(extra), c.dir);

/** What leaked into `text`: any body, or the token phctl uses in any form. */
const leaks = (text: string) =>
  [
    ...Object.entries(BODY).filter(([, b]) => text.includes(b)),
    ...[MINE, encodeURIComponent(MINE), "Qm7Lz2Rk9Vw4"]
      .filter((m) => text.includes(m))
      .map((m) => ["mine", m]),
  ].map(([what]) => what);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}
const manifests = () =>
  files(join(c.dir, "examples"))
    .map((f) => readFileSync(f, "utf8"))
    .join("\n");

beforeAll(async () => {
  gh = await startFakeGitHub({ tokens: { write: ["gh-glued-test-Bv5Ns0Wq2Ye7"] } });
  c = await converged({
    tokens: [{ secret: MINE, role: "system-admin", parentOrganization: "acme" }, TOKENS.admin],
  });
  mkdirSync(join(c.dir, "out"));
  await c.describe("mbed-tls", GLUED);
});
afterAll(async () => {
  await Promise.all([c?.close(), gh?.close()]);
});

describe("a token glued to what comes before it, in a live value", () => {
  it("plan: text, markdown, json and the saved plan show masks, no token", async () => {
    for (const format of ["text", "markdown", "json"]) {
      const r = await cli(["plan", "examples", "--format", format, "--verbose"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain("ghp_***");
      expect(leaks(r.stdout + r.stderr), format).toEqual([]);
    }
    const r = await cli(["plan", "examples", "--out", "out/plan.json"]);
    expect(r.code, r.stderr).toBe(0);
    const saved = readFileSync(join(c.dir, "out/plan.json"), "utf8");
    for (const mask of ["keyghp_***", "v2github_pat_***", "TOKEN_glpat-***", "%3Dghs_***"])
      expect(saved).toContain(mask);
    expect(saved).toContain("line\\nphdev_***");
    expect(saved).toContain("col\\tghp_***");
    expect(leaks(saved)).toEqual([]);
  }, 90_000);

  it("the pull-request comment", async () => {
    const p = await cli(["plan", "examples", "--out", "out/plan-pr.json"]);
    expect(p.code, p.stderr).toBe(0);
    const r = await cli(["comment", join(c.dir, "out/plan-pr.json")], {
      GITHUB_EVENT_NAME: "pull_request",
      GITHUB_EVENT_PATH: writeJson(join(c.dir, "out"), "event.json", prEvent(7)),
      GITHUB_STEP_SUMMARY: join(c.dir, "out/summary.md"),
    });
    expect(r.code, r.stderr).toBe(0);
    const [comment] = gh.comments(REPO, 7);
    expect(comment.body).toContain("ghp_***");
    expect(leaks(comment.body + readFileSync(join(c.dir, "out/summary.md"), "utf8"))).toEqual([]);
  });

  it("the drift issue", async () => {
    const r = await cli(["drift", "examples", "--report", "github-issue"]);
    expect(r.code, r.stderr).toBe(2);
    const [issue] = gh.issues.list(REPO);
    expect(issue.body).toContain("ghp_***");
    expect(leaks(JSON.stringify(gh.issues.list(REPO)))).toEqual([]);
  });

  it("phctl api: the answer is masked, and still JSON", async () => {
    const r = await cli(["api", "GET", "/v1/projects/mbed-tls"]);
    expect(r.code, r.stderr).toBe(0);
    const masked =
      "keyghp_*** v2github_pat_*** TOKEN_glpat-*** https://ci.example/hook?token%3Dghs_*** line\nphdev_*** col\tghp_*** ?t=***";
    // The answer's envelope is the API's: the description is somewhere in it.
    expect(JSON.stringify(JSON.parse(r.stdout))).toContain(
      `"description":${JSON.stringify(masked)}`,
    );
    expect(leaks(r.stdout + r.stderr)).toEqual([]);
  });

  it("export: the files hold masks, and say so", async () => {
    const r = await cli(["export", "--organization", "acme", "--out", "out/export"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("Project mbed-tls: a live value holds a credential; written masked");
    const text = files(join(c.dir, "out/export"))
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    expect(text).toContain("keyghp_***");
    expect(leaks(text)).toEqual([]);
  });

  it("drift --adopt: a token after a newline or a tab is not adopted, and says why", async () => {
    await c.describe("ci-tools", `rotate me\n${TOKEN.ghp}`);
    await c.describe("mbed-tls", `rotate me\t${TOKEN.pat}`);
    await c.describe("trusted-firmware-a", `rotate me\n${TOKEN.glpat}`);
    const before = manifests();
    const r = await cli(["drift", "examples", "--adopt"]);
    expect(r.code, r.stderr).toBe(2);
    for (const [slug, what] of [
      ["ci-tools", "a GitHub token (ghp_…)"],
      ["mbed-tls", "a GitHub token (github_pat_…)"],
      ["trusted-firmware-a", "a GitLab token (glpat-…)"],
    ])
      expect(r.stderr).toMatch(
        new RegExp(
          `not adopted: project/${slug} \\(Project\\): its live value holds ${what.replace(/[()]/g, "\\$&")}`,
        ),
      );
    expect(manifests()).toBe(before);
    expect(leaks(manifests())).toEqual([]);
  });

  it("drift --adopt: a value that holds a mask is not adopted either", async () => {
    await c.describe("ci-tools", "copied from a plan: ghp_***");
    await c.describe("mbed-tls", "Portable TLS and cryptography library");
    await c.describe("trusted-firmware-a", "see glpat-*** in the wiki");
    const before = manifests();
    const r = await cli(["drift", "examples", "--adopt"]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      "not adopted: project/ci-tools (Project): its live value holds a masked GitHub token (ghp_***)",
    );
    expect(r.stderr).toContain(
      "not adopted: project/trusted-firmware-a (Project): its live value holds a masked GitLab token (glpat-***)",
    );
    expect(manifests()).toBe(before);
  });

  it("no token in any output of any run", () => {
    expect(leaks(outputs())).toEqual([]);
  });
});
