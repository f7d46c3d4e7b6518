/**
 * Defaults layers in plans, end to end: the built CLI against the reference server on loopback
 * (and the fake GitHub for the comment). Six projects, three of them `tier: critical`; a
 * Repository layer gives the critical projects' repositories enableForking, an access layer
 * makes two users reporters everywhere. The change turns forking off in the layer:
 * - every output names the layer's line for the changed fields, and the layer's blast radius
 *   (6 repositories in 3 projects) above the entries;
 * - `plan --base` plans and reads exactly the projects the layer selects (p3 among them, whose
 *   own manifest keeps forking on), nothing of the others;
 * - the PR comment carries the blast radius above the details;
 * - dropping a user from the access layer is refused by the mass-removal rail, naming it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Plan } from "../../src/engine/plan.js";
import { phctl } from "../helpers/cli.js";
import { configFiles, userDoc } from "../helpers/config-files.js";
import { GITHUB_TOKENS, startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import { serverHolding, type LiveConfig } from "../helpers/live-config.js";
import type { TestServer } from "../helpers/server.js";
import { prEvent } from "../ci/helpers.js";

let t: TestServer;
let gh: FakeGitHub;
let live: LiveConfig | undefined;
let dir: string;
let env: Record<string, string>;

const { write, edit, variant } = configFiles(() => dir);

/** Project p<i>; p3 keeps forking on in its own manifest. */
const projectDoc = (i: number) => `apiVersion: phctl/v1
kind: Project
metadata:
  name: p${i}
  labels: { tier: ${i <= 3 ? "critical" : "standard"} }
spec:
  title: Project ${i}
  access:
    admins: [jdoe]
  git:
    repositories:
      - name: r1${i === 3 ? "\n        enableForking: true" : ""}
      - name: r2${i === 3 ? "\n        enableForking: true" : ""}
`;
const REPOS = `apiVersion: phctl/v1
kind: Defaults
metadata:
  name: repo-baseline
spec:
  select:
    kind: Repository
    matchLabels: { tier: critical }
  values:
    mergeRequests: enabled
    enableForking: true
`;
const ACCESS = `apiVersion: phctl/v1
kind: Defaults
metadata:
  name: access-baseline
spec:
  select:
    kind: Project
  values:
    access:
      reporters: [asmith, bwong]
`;

beforeAll(async () => {
  gh = await startFakeGitHub();
  dir = mkdtempSync(join(tmpdir(), "phctl-layers-plan-"));
  write("base/phctl.yaml", "organization: acme\nmaxRemovals: 25%\n");
  write("base/users.yaml", ["jdoe", "asmith", "bwong"].map((n) => userDoc(n)).join("---\n"));
  for (let i = 1; i <= 6; i++) write(`base/projects/p${i}.yaml`, projectDoc(i));
  write("base/defaults/repositories.yaml", REPOS);
  write("base/defaults/access.yaml", ACCESS);
  variant("head");
  edit("head/defaults/repositories.yaml", "enableForking: true", "enableForking: false");
  variant("dropped");
  edit("dropped/defaults/access.yaml", "[asmith, bwong]", "[asmith]");
  ({ t, env } = live = await serverHolding(join(dir, "base"), { requestLog: true }));
}, 60_000);
afterAll(async () => {
  await Promise.all([live?.close(), gh?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** Run the CLI in the test's directory against the server (and `extra` variables). */
const run = (args: string[], extra: Record<string, string> = {}) =>
  phctl(args, { ...env, ...extra }, dir);

const LAYER_LINE = "head/defaults/repositories.yaml:11";

describe("a plan whose changed fields come from a layer", () => {
  it("JSON: each change names the layer and its line; the plan lists the layer's reach", async () => {
    const r = await run(["plan", "head", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as Plan;
    expect(plan.formatVersion).toBe(3);
    // p3's own manifest keeps forking on: only p1's and p2's repositories change.
    expect(plan.entries.map((e) => e.key).sort()).toEqual([
      "project/p1/repo/r1",
      "project/p1/repo/r2",
      "project/p2/repo/r1",
      "project/p2/repo/r2",
    ]);
    for (const e of plan.entries) {
      expect(e.changes).toEqual([
        {
          field: "enableForking",
          before: true,
          after: false,
          source: { file: "head/defaults/repositories.yaml", line: 11, column: 5 },
          layer: "repo-baseline",
        },
      ]);
    }
    expect(plan.layers).toEqual([
      {
        name: "repo-baseline",
        source: { file: "head/defaults/repositories.yaml", line: 1, column: 1 },
        kind: "Repository",
        objects: 6,
        projects: 3,
      },
    ]);
  });

  it("text and markdown: the layer's line and name by the field, its reach above the entries", async () => {
    const [text, md] = await Promise.all([
      run(["plan", "head"]),
      run(["plan", "head", "--format", "markdown"]),
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      `    ${LAYER_LINE}, Defaults repo-baseline\n      ~ enableForking: true → false\n`,
    );
    const radius =
      "Defaults that give changed values (and what each selects):\n  head/defaults/repositories.yaml:1  Defaults repo-baseline: 6 repositories in 3 projects\n\nphctl will perform these actions:";
    expect(text.stdout).toContain(radius);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain(
      `  project/p1/repo/r1 (Repository)  # ${LAYER_LINE}, Defaults repo-baseline\n-   enableForking: true\n+   enableForking: false\n`,
    );
    expect(md.stdout).toContain(
      "- `head/defaults/repositories.yaml:1` Defaults **repo-baseline**: 6 repositories in 3 projects",
    );
  });
});

describe("a pull request that changes one Defaults document", () => {
  it("plans and reads exactly the projects the layer selects", async () => {
    t.server.requestLog.length = 0;
    const r = await run(["plan", "head", "--base", "base", "--format", "json"]);
    const requests = [...t.server.requestLog];
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as Plan;
    // p3 is selected (its effective repositories do not change): it is in scope all the same.
    expect(plan.scope).toEqual(["project/p1", "project/p2", "project/p3"]);
    expect(r.stderr).toContain("planning the 3 objects the change touches");
    expect(plan.entries).toHaveLength(4);
    expect(plan.drift).toEqual([]);
    expect(plan.layers).toEqual([
      {
        name: "repo-baseline",
        source: { file: "head/defaults/repositories.yaml", line: 1, column: 1 },
        kind: "Repository",
        objects: 6,
        projects: 3,
        change: "changed",
      },
    ]);
    // Nothing of the projects the layer does not select is read.
    expect(requests.filter((q) => /\/projects\/p[456]\b/.test(q.url))).toEqual([]);
    expect(requests.some((q) => /\/projects\/p3\b/.test(q.url))).toBe(true);
    const full = await run(["plan", "head", "--format", "json"]);
    const fullPlan = JSON.parse(full.stdout) as Plan;
    expect(plan.stats.objectsRead).toBeLessThan(fullPlan.stats.objectsRead);
  });

  it("the PR comment says what the changed layer selects, above the details", async () => {
    const p = await run(["plan", "head", "--base", "base", "--out", "pr.json"]);
    expect(p.code, p.stderr).toBe(0);
    expect(p.stdout).toContain(
      "Defaults this change touches (each changes what it selects):\n  head/defaults/repositories.yaml:1  Defaults repo-baseline (changed): 6 repositories in 3 projects\n",
    );
    writeFileSync(join(dir, "event.json"), JSON.stringify(prEvent(7)));
    const c = await run(["comment", "pr.json"], {
      GITHUB_ACTIONS: "true",
      GITHUB_API_URL: gh.url,
      GITHUB_SERVER_URL: "https://github.example",
      GITHUB_REPOSITORY: "acme/config",
      GITHUB_EVENT_NAME: "pull_request",
      GITHUB_EVENT_PATH: join(dir, "event.json"),
      GITHUB_TOKEN: GITHUB_TOKENS.write,
      GITHUB_SHA: "9".repeat(40),
    });
    expect(c.code, c.stderr).toBe(0);
    const [comment] = gh.comments("acme/config", 7);
    const line =
      "- `head/defaults/repositories.yaml:1` Defaults **repo-baseline** (changed): 6 repositories in 3 projects";
    expect(comment.body).toContain(line);
    expect(comment.body.indexOf(line)).toBeLessThan(comment.body.indexOf("<details"));
    expect(comment.body).toContain(`# ${LAYER_LINE}, Defaults repo-baseline`);
  });
});

describe("the mass-removal rail", () => {
  it("refuses a user dropped from a layer's access list in every project, naming the layer", async () => {
    const r = await run(["apply", "dropped", "--auto-approve"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "refusing a mass removal: Defaults access-baseline (dropped/defaults/access.yaml:1) selects 6 projects, and the plan removes access/reporters/user/bwong from 6 of them (100 %, more than maxRemovals 25 %): project/p1/access/reporters/user/bwong,",
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // Nothing was sent: the plan still removes bwong everywhere.
    const again = await run(["plan", "dropped", "--format", "json"]);
    expect((JSON.parse(again.stdout) as Plan).summary.delete).toBe(6);
  });
});
