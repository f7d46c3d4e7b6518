/**
 * `phctl export --factor` end to end: the built CLI against the reference server on loopback.
 * The factored config holds defaults.yaml, each object only what differs, and validates and
 * plans to no changes; a bad share is a one-line error.
 */
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../bench/generate.js";
import { seed } from "../../src/server/seed.js";
import { phctl } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

let t: TestServer;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  t = await startServer();
  const org = generate({ users: 20, teams: 2, projects: 6, repos: 30 });
  // Every repository requires DCO but one: the Repository layer, and one override.
  for (const p of org.seed.projects ?? [])
    for (const r of p.git?.repositories ?? [])
      r.requiresDCO = !(p.slug === "p2" && r.name === "repo3");
  seed(t.server.ctx, org.seed);
  dir = mkdtempSync(join(tmpdir(), "phctl-export-factor-"));
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
});
afterAll(() => t.close());

describe("phctl export --factor", () => {
  it("writes Defaults for shared values; validate passes and plan shows no changes", async () => {
    const r = await phctl(
      ["export", "--organization", "acme", "--factor", "--out", "config"],
      env,
      dir,
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /Exported 20 users, 2 teams and 6 projects of acme to config\/ \(4 Defaults in defaults.yaml, /,
    );
    expect(readdirSync(join(dir, "config"))).toContain("defaults.yaml");
    const defaults = readFileSync(join(dir, "config", "defaults.yaml"), "utf8");
    expect(defaults).toMatch(/select:\n {4}kind: Repository\n {2}values:\n {4}requiresDCO: true\n/);
    const p2 = readFileSync(join(dir, "config", "projects", "p2.yaml"), "utf8");
    expect(p2).toMatch(/- name: repo3\n {8}requiresDCO: false\n/);
    expect(p2).not.toMatch(/licenses|subgroups:/);

    const v = await phctl(["validate", "config"], env, dir);
    expect(v.stderr).toBe("");
    expect(v.code).toBe(0);
    const p = await phctl(["plan", "config", "--detailed-exitcode"], env, dir);
    expect(p.stdout).toContain("No changes. Live state matches the manifests.");
    expect(p.code).toBe(0);
  });

  it("a share of 50 % or less is a one-line error, before anything is read", async () => {
    const r = await phctl(
      ["export", "--organization", "acme", "--factor", "50", "--out", "x"],
      env,
      dir,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^phctl: --factor takes a percentage over 50 and at most 100 .*got 50\n$/,
    );
  });
});
