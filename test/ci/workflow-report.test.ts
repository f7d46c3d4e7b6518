/**
 * The example report workflow (examples/.github/workflows/phctl-report.yml, `mode: report` of
 * the action at the repository root) run step by step as GitHub would run it on its monthly
 * schedule: `phctl serve` holding the examples and synthetic activity as the service, the fake
 * GitHub (GITHUB_API_URL) for the issue. Asserted: each report read once and published as
 * HTML (the artifact) and markdown (the job summary), one "Access review YYYY-MM" issue; a
 * second run the same month updates that issue instead of opening another.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { loadManifests } from "../../src/pipeline/load.js";
import { GITHUB_TOKENS, startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import { populate } from "../helpers/populate.js";
import { startServer, type TestServer } from "../helpers/server.js";
import { configRepo, git, hostedActions, REPO, ROOT, runWorkflow, type ConfigRepo } from "./workflow-fixture.js"; // prettier-ignore

/** A token no report text holds (a short one would be masked inside words). */
const TOKEN = "phctl-report-workflow-8c41d2e07a";
let t: TestServer;
let gh: FakeGitHub;
let repo: ConfigRepo;
let sha: string;

beforeAll(async () => {
  t = await startServer({ tokens: [{ secret: TOKEN, role: "system-admin", parentOrganization: "acme" }] }); // prettier-ignore
  const api = new ApiClient({ apiUrl: t.url, token: TOKEN });
  const { state } = await loadManifests([join(ROOT, "examples")]);
  await populate(api, state!);
  await api.close();
  const seeded = await t.call("POST", "/_control/seed", { as: null, headers: { authorization: `Bearer ${TOKEN}` }, body: { activity: { seed: 3 } } }); // prettier-ignore
  expect(seeded.status).toBe(200);
  gh = await startFakeGitHub();
  repo = configRepo(t.url);
  sha = git(repo.seed, "rev-parse", "HEAD");
}, 60_000);
afterAll(async () => {
  await gh?.close();
  await t?.close();
});

async function reportRun(runId: string) {
  const hosted = hostedActions();
  const files = new Map<string, string>(); // artifact file name → text
  // upload-artifact of a directory: every file in it.
  const emulate: Parameters<typeof runWorkflow>[0]["emulate"] = (uses, inputs, env) => {
    if (uses.startsWith("actions/upload-artifact@") && statSync(inputs.path).isDirectory()) {
      for (const f of readdirSync(inputs.path)) files.set(f, readFileSync(join(inputs.path, f), "utf8")); // prettier-ignore
      return;
    }
    return hosted.emulate(uses, inputs, env);
  };
  const run = await runWorkflow({
    repo,
    workflow: "phctl-report.yml",
    job: "report",
    sha,
    event: { schedule: "23 5 1 * *", repository: { full_name: REPO } },
    eventName: "schedule",
    githubApiUrl: gh.url,
    githubToken: GITHUB_TOKENS.write,
    secrets: { GITHUB_TOKEN: GITHUB_TOKENS.write, PHCTL_READ_TOKEN: TOKEN, PHCTL_GIT_TOKEN: TOKEN },
    runId,
    emulate,
  });
  return { ...run, files };
}

describe("the report workflow on its monthly schedule", () => {
  it("reports as JSON, uploads the HTML, writes the markdown to the summary, opens the month's issue", async () => {
    const { job, failed, files } = await reportRun("6001");
    expect(failed).toEqual([]);
    expect(job.status).toBe("success");
    expect([...files.keys()].sort()).toEqual(["access-review.html", "access-review.json", "access-review.md", "delivery-metrics.html", "delivery-metrics.json", "delivery-metrics.md"]); // prettier-ignore
    for (const f of ["access-review.html", "delivery-metrics.html"]) {
      expect(files.get(f)).toMatch(/^<!doctype html>/);
      expect(files.get(f)).toContain("<svg");
    }
    expect(job.summary).toContain(files.get("access-review.md")!.trim());
    expect(job.summary).toContain(files.get("delivery-metrics.md")!.trim());
    const month = JSON.parse(files.get("access-review.json")!).generatedAt.slice(0, 7);
    const issues = gh.issues.list(REPO);
    expect(issues.map((i) => [i.title, i.state, i.labels])).toEqual([[`Access review ${month}`, "open", ["phctl-access-review"]]]); // prettier-ignore
    expect(issues[0].body).toContain(files.get("access-review.md")!.split("\n")[0]);
  });

  it("a second run the same month updates that issue; nothing else is opened", async () => {
    const { job, failed } = await reportRun("6002");
    expect(failed).toEqual([]);
    expect(job.status).toBe("success");
    const issues = gh.issues.list(REPO);
    expect(issues).toHaveLength(1);
    expect(issues[0].state).toBe("open");
  });
});
