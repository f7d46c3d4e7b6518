/**
 * No credential in any output or file (issue 26, defect 0), end to end: the built CLI
 * against the reference server, the fake GitHub and a webhook on loopback. Live values hold
 * every credential phctl knows — PHCTL_TOKEN, the --token-file's token, PHCTL_GIT_TOKEN,
 * GITHUB_TOKEN, PHCTL_GITLAB_TOKEN — and GitHub/GitLab tokens it does not know; api, plan
 * (text, markdown, json, --out, --verbose), comment (with and without tokens), drift
 * (issue, webhook, metrics, state), export, doctor and apply (saved and reviewed plans,
 * journal, --result) run over them, and every stdout, stderr, file, issue and message is
 * searched. Masked plans still apply, and a credential-shaped desired value is applied as
 * it is written, never as its mask.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prEvent, recorder, writeJson } from "../ci/helpers.js";
import { startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import { converged, startWebhook, type Converged, type Webhook } from "./drift-fixture.js";

const k = (prefix: string, seed: string, n: number) => `${prefix}${seed.repeat(n)}`;
/** What phctl knows: the environment's tokens and the token file's. */
const KNOWN = {
  PHCTL_TOKEN: "phctl-e2e-api-Qm7Lz2Rk9Vw4",
  tokenFile: "phctl-e2e-file-Hp3Xc8Tn1Jd6",
  PHCTL_GIT_TOKEN: "phctl-e2e-git-Bv5Ns0Wq2Ye7",
  GITHUB_TOKEN: k("ghs_", "GhEnvTok3n", 4),
  PHCTL_GITLAB_TOKEN: "phctl-e2e-gitlab-Ku4Fm9Gr6Sa1",
};
/** Well-known shapes nobody registered (pasted by hand). */
const SHAPES = {
  ghp: k("ghp_", "Pa5tedClassic", 3),
  ghs: k("ghs_", "Pa5tedAppTok", 3),
  pat: `github_pat_11AAAAAAA0${"fIneGra1ned".repeat(2)}_${"Z9".repeat(20)}`,
  glpat: "glpat-Pa5ted_GitLab-tok3n42x",
};
const ALL = { ...KNOWN, ...SHAPES };
const REPO = "acme/config";

let c: Converged;
let gh: FakeGitHub;
let hook: Webhook;
const { run, outputs } = recorder();
let tokenFile: string;

/** The job's environment: the service, every token, GitHub Actions around it. */
const env = (extra: Record<string, string | undefined> = {}) => ({
  PHCTL_API_URL: c.t.url,
  PHCTL_TOKEN: KNOWN.PHCTL_TOKEN,
  PHCTL_GIT_TOKEN: KNOWN.PHCTL_GIT_TOKEN,
  GITHUB_TOKEN: KNOWN.GITHUB_TOKEN,
  PHCTL_GITLAB_TOKEN: KNOWN.PHCTL_GITLAB_TOKEN,
  GITHUB_ACTIONS: "true",
  GITHUB_EVENT_NAME: "schedule",
  GITHUB_API_URL: gh.url,
  GITHUB_SERVER_URL: "https://github.example",
  GITHUB_REPOSITORY: REPO,
  GITHUB_RUN_ID: "77",
  ...extra,
});
/** phctl with the token file (its token is the one used; PHCTL_TOKEN is set too). */
const cli = (args: string[], extra: Record<string, string | undefined> = {}) =>
  run(["--token-file", tokenFile, ...args], env(extra), c.dir);

/** Live values holding every credential: two projects' descriptions. */
async function paste(): Promise<void> {
  await c.describe("ci-tools", `known: ${Object.values(KNOWN).join(" ")}`);
  await c.describe("mbed-tls", `pasted: ${Object.values(SHAPES).join(" | ")}`);
}
/** A project's answer as JSON text (whatever its envelope). */
const live = async (slug: string) => JSON.stringify((await c.t.call("GET", `/v1/projects/${slug}`)).body); // prettier-ignore
const described = (text: string) => `"description":${JSON.stringify(text)}`;

/** Every file under the work directory but the manifests (which the test writes). */
function written(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (relative(c.dir, p) === "examples") return [];
    return statSync(p).isDirectory() ? written(p) : [p];
  });
}

beforeAll(async () => {
  const token = (secret: string) => ({
    secret,
    role: "system-admin" as const,
    parentOrganization: "acme",
  });
  gh = await startFakeGitHub({ tokens: { write: [KNOWN.GITHUB_TOKEN] } });
  c = await converged({
    tokens: [token(KNOWN.PHCTL_TOKEN), token(KNOWN.tokenFile), token("t-admin")],
  });
  hook = await startWebhook();
  tokenFile = join(c.dir, "token.txt");
  writeFileSync(tokenFile, `${KNOWN.tokenFile}\n`);
  mkdirSync(join(c.dir, "out"));
  await paste();
});
afterAll(async () => {
  await Promise.all([c?.close(), gh?.close(), hook?.close()]);
});

describe("a credential in a live value", () => {
  it("api: the answer is masked, and still JSON", async () => {
    const r = await cli(["api", "GET", "/v1/projects/mbed-tls"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(r.stdout))).toContain(
      described("pasted: ghp_*** | ghs_*** | github_pat_*** | glpat-***"),
    );
    const known = await cli(["api", "GET", "/v1/projects/ci-tools", "--verbose"]);
    expect(JSON.stringify(JSON.parse(known.stdout))).toContain(
      described(`known: ${"*** ".repeat(5).trim()}`),
    );
  });

  it("plan: text, markdown, json, --verbose and the saved plan are masked", async () => {
    for (const format of ["text", "markdown", "json"]) {
      const r = await cli(["plan", "examples", "--format", format, "--verbose"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain("ghp_***");
    }
    const r = await cli(["plan", "examples", "--out", "out/plan.json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(c.dir, "out/plan.json"), "utf8")).toContain("github_pat_***");
  });

  it("comment: the step summary and the pull-request comment, with and without tokens", async () => {
    const plan = join(c.dir, "out/plan.json");
    const bare = await run(["comment", plan], {
      GITHUB_ACTIONS: "true",
      GITHUB_REPOSITORY: REPO,
      GITHUB_STEP_SUMMARY: join(c.dir, "out/summary-bare.md"),
    });
    expect(bare.code, bare.stderr).toBe(0);
    expect(readFileSync(join(c.dir, "out/summary-bare.md"), "utf8")).toContain("glpat-***");
    const posted = await cli(["comment", plan], {
      GITHUB_EVENT_NAME: "pull_request",
      GITHUB_EVENT_PATH: writeJson(join(c.dir, "out"), "event.json", prEvent(5)),
      GITHUB_STEP_SUMMARY: join(c.dir, "out/summary.md"),
    });
    expect(posted.code, posted.stderr).toBe(0);
    expect(gh.comments(REPO, 5)).toHaveLength(1);
    expect(gh.comments(REPO, 5)[0].body).toContain("ghs_***");
  });

  it("drift: output, tracking issue, webhook, metrics and state are masked", async () => {
    const reported = await cli(
      ["drift", "examples", "--report", "github-issue", "--notify", hook.url, "--metrics-file", "out/drift.prom"], // prettier-ignore
    );
    expect(reported.code, reported.stderr).toBe(2);
    expect(gh.issues.list(REPO)[0].body).toContain("ghp_***");
    for (const format of ["json", "markdown"]) {
      const r = await cli(
        ["drift", "examples", "--format", format, "--notify", hook.url, "--state", "out/state.json"], // prettier-ignore
      );
      expect(r.code, r.stderr).toBe(2);
    }
    expect(hook.raw.length).toBeGreaterThan(0);
  });

  it("drift --adopt adopts no credential into a manifest", async () => {
    const before = readFileSync(join(c.dir, "examples/projects/mbed-tls.yaml"), "utf8");
    const r = await cli(["drift", "examples", "--adopt"]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      "not adopted: project/mbed-tls (Project): its live value holds a GitHub token (ghp_…)",
    );
    expect(readFileSync(join(c.dir, "examples/projects/mbed-tls.yaml"), "utf8")).toBe(before);
  });

  it("export: the files hold the masks, and say so", async () => {
    const r = await cli(["export", "--organization", "acme", "--out", "out/export"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("Project mbed-tls: a live value holds a credential; written masked");
    const text = readFileSync(join(c.dir, "out/export/projects/mbed-tls.yaml"), "utf8");
    expect(text).toContain("ghp_***");
  });

  it("doctor: its probes are masked", async () => {
    for (const format of ["text", "json"]) {
      const r = await cli(["doctor", "examples", "--format", format, "--verbose"]);
      expect(r.stdout.length).toBeGreaterThan(0);
    }
  });

  it("apply --reviewed: the masked plan is what the merged commit plans; it is applied", async () => {
    const r = await cli(
      ["apply", "examples", "--reviewed", "out/plan.json", "--result", "out/result-reviewed.json", "--journal", "out/journal.jsonl"], // prettier-ignore
    );
    expect(r.code, r.stderr).toBe(0);
    expect(await live("mbed-tls")).toContain(described("Portable TLS and cryptography library"));
  });

  it("apply plan.json: a masked saved plan still applies (and its journal and result are masked)", async () => {
    await paste();
    const p = await cli(["plan", "examples", "--out", "out/plan2.json"]);
    expect(p.code, p.stderr).toBe(0);
    const r = await cli(
      ["apply", "out/plan2.json", "examples", "--result", "out/result.json", "--journal", "out/journal.jsonl", "--json"], // prettier-ignore
    );
    expect(r.code, r.stderr).toBe(0);
    expect(await live("ci-tools")).toContain(described("Shared continuous-integration tooling"));
    expect(JSON.parse(readFileSync(join(c.dir, "out/result.json"), "utf8"))).toMatchObject({
      status: "applied",
    });
  });

  it("a credential-shaped desired value: validate warns; the plan masks it; apply sends it as written", async () => {
    const desired = k("ghp_", "De5iredVal", 4);
    const file = join(c.dir, "examples/projects/trusted-firmware-a.yaml");
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.replace(/description: .*/, `description: "deploy ${desired}"`));
    try {
      const v = await run(["validate", "examples"], env(), c.dir);
      expect(v.code, v.stderr).toBe(0);
      expect(v.stdout + v.stderr).toContain(
        "spec.description holds a GitHub token (ghp_…): a manifest is committed",
      );
      const p = await cli(["plan", "examples", "--out", "out/plan3.json"]);
      expect(p.stdout).toContain("deploy ghp_***");
      const r = await cli(["apply", "out/plan3.json", "examples"]);
      expect(r.code, r.stderr).toBe(0);
      expect(await live("trusted-firmware-a")).toContain(described(`deploy ${desired}`));
      expect(outputs() + written(c.dir).map((f) => readFileSync(f, "utf8")).join("")).not.toContain(desired); // prettier-ignore
    } finally {
      writeFileSync(file, text);
    }
  });

  it("no credential anywhere: every output, every file, every issue, comment and message", () => {
    const places: [string, string][] = [
      ["outputs", outputs()],
      ...written(c.dir)
        .filter((f) => f !== tokenFile)
        .map((f): [string, string] => [relative(c.dir, f), readFileSync(f, "utf8")]),
      ["issues", JSON.stringify(gh.issues.list(REPO))],
      ["comments", JSON.stringify([gh.comments(REPO, 5), gh.comments(REPO, 101)])],
      ["webhook", hook.raw.join("\n")],
    ];
    const leaks = places.flatMap(([where, text]) =>
      Object.entries(ALL)
        .filter(([, secret]) => text.includes(secret))
        .map(([what]) => `${what} in ${where}`),
    );
    expect(leaks).toEqual([]);
    // Everything expected was written (a missing file would hide a leak).
    const names = places.map(([n]) => n);
    const expected = ["out/plan.json", "out/summary.md", "out/summary-bare.md", "out/drift.prom", "out/state.json", "out/result.json", "out/result-reviewed.json", "out/journal.jsonl", "out/export/projects/mbed-tls.yaml"]; // prettier-ignore
    for (const f of expected) expect(names).toContain(f);
  });
});
