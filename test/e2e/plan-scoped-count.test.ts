/**
 * A scoped plan's log and its comment's footer give the same count of objects planned (issue
 * 36, item 8): the objects in scope pull in what they need (the users of their access, their
 * organization, fork sources), and the log said only "planning the 1 object the change
 * touches" while the footer said "scoped to the 8 objects the change touches". The built CLI
 * against a fresh reference server on loopback, where nothing the project needs exists yet.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { phctl } from "../helpers/cli.js";
import { copyExamples } from "../helpers/examples.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

let t: TestServer;
let dir: string;

beforeAll(async () => {
  t = await startServer();
  dir = mkdtempSync(join(tmpdir(), "phctl-scoped-count-"));
  copyExamples(join(dir, "base"));
  copyExamples(join(dir, "head"));
  const ci = join(dir, "head/projects/ci-tools.yaml");
  writeFileSync(ci, readFileSync(ci, "utf8").replace("title: CI tools", "title: CI tooling"));
});
afterAll(async () => t.close());

describe("plan --base on a service that lacks what the change needs", () => {
  it("says on stderr how many objects it planned, as many as the footer", async () => {
    const env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
    const r = await phctl(["plan", "head", "--base", "base", "--format", "markdown"], env, dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      "phctl: planning the 1 object the change touches (project/ci-tools)",
    );
    const logged = /^phctl: planned (\d+) objects: those and (\d+) objects they need \(([^)]*)\)$/m.exec(r.stderr); // prettier-ignore
    expect(logged, r.stderr).not.toBeNull();
    const footer = /scoped to (\d+) objects: what the change touches, and what those need/.exec(r.stdout); // prettier-ignore
    expect(footer, r.stdout.slice(-400)).not.toBeNull();
    expect(Number(logged![1])).toBe(Number(footer![1]));
    expect(Number(logged![1])).toBe(1 + Number(logged![2]));
    expect(Number(logged![2])).toBeGreaterThan(0);
    expect(logged![3]).toMatch(/user\/|organization\//);
  });
});
