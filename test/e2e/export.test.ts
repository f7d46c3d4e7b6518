/**
 * `phctl export` end to end: the built CLI against the reference server on loopback. A rich
 * organization is seeded, exported, and the export must validate and plan to no changes.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/seed.js";
import { richOrganization } from "../export/fixtures.js";
import { phctl } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

let t: TestServer;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  t = await startServer({ requestLog: true });
  seed(t.server.ctx, richOrganization());
  dir = mkdtempSync(join(tmpdir(), "phctl-export-"));
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
});
afterAll(() => t.close());

const writes = () => t.server.requestLog.filter((e) => e.method !== "GET");

describe("phctl export", () => {
  it("writes a config repository that validates and plans to no changes", async () => {
    const before = writes().length;
    const r = await phctl(["export", "--organization", "acme", "--out", "config"], env, dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Exported 4 users, 2 teams and 4 projects of acme to config\//);
    expect(writes().length).toBe(before); // export never writes to the service
    expect(readdirSync(join(dir, "config")).sort()).toEqual([
      ".gitignore",
      "organizations.yaml",
      "phctl.yaml",
      "projects",
      "schemas",
      "teams.yaml",
      "users.yaml",
    ]);
    expect(readdirSync(join(dir, "config", "projects")).sort()).toEqual([
      "ci-tools.yaml",
      "no-git.yaml",
      "secret-sauce.yaml",
      "trusted-firmware-a.yaml",
    ]);

    // The state a plan or apply keeps beside phctl.yaml is never committed.
    expect(readFileSync(join(dir, "config", ".gitignore"), "utf8").split("\n")).toContain(
      ".phctl/",
    );

    const v = await phctl(["validate", "config"], env, dir);
    expect(v.stderr).toBe("");
    expect(v.code).toBe(0);
    const p = await phctl(["plan", "config", "--detailed-exitcode"], env, dir);
    expect(p.stdout).toContain("No changes. Live state matches the manifests.");
    expect(p.code).toBe(0);
  });

  it("refuses a non-empty directory without --force: one line, exit 1, nothing written", async () => {
    const out = join(dir, "busy");
    mkdirSync(out);
    writeFileSync(join(out, "README.md"), "mine\n");
    const r = await phctl(["export", "--organization", "acme", "--out", "busy"], env, dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^phctl: busy is not empty; .*--force.*\n$/);
    expect(readdirSync(out)).toEqual(["README.md"]);
    expect(readdirSync(dir).filter((f) => f.includes("phctl-export"))).toEqual([]);
  });

  it("--force replaces what export writes and keeps other files; --format json lists the files", async () => {
    const out = join(dir, "busy");
    mkdirSync(join(out, "projects"), { recursive: true });
    writeFileSync(join(out, "projects", "stale.yaml"), "stale\n");
    const r = await phctl(
      [
        "export",
        "--organization",
        "acme",
        "--out",
        "busy",
        "--force",
        "--format",
        "json",
        "--split",
        "per-kind",
      ],
      env,
      dir,
    );
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.files.map((f: { path: string }) => f.path)).toEqual([
      ".gitignore",
      "organizations.yaml",
      "phctl.yaml",
      "projects.yaml",
      "schemas/config.schema.json",
      "schemas/manifest.schema.json",
      "teams.yaml",
      "users.yaml",
    ]);
    expect(json.counts).toEqual({ organizations: 1, users: 4, teams: 2, projects: 4, defaults: 0 });
    expect(typeof json.apiCalls).toBe("number");
    expect(readFileSync(join(out, "README.md"), "utf8")).toBe("mine\n");
    expect(existsSync(join(out, "projects", "stale.yaml"))).toBe(true); // not ours: kept
    expect(existsSync(join(out, "projects.yaml"))).toBe(true);
  });

  it("an unknown organization or a bad --split is a one-line error", async () => {
    const a = await phctl(["export", "--organization", "nope", "--out", "x1"], env, dir);
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(/^phctl: organization nope is not visible to this token.*\n$/);
    expect(existsSync(join(dir, "x1"))).toBe(false);
    const b = await phctl(["export", "--organization", "acme", "--split", "nope"], env, dir);
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(/--split must be one of per-project, per-kind/);
  });
});
