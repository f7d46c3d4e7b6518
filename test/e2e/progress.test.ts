/**
 * Progress of `plan`, `drift` and `export` for CI: with `--json` or `CI=true`, JSON events
 * on stderr, one per line (read-started … read-done with the objects read, the calls and
 * the time), stdout unchanged; without a terminal and without either, nothing on stderr.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/seed.js";
import { richOrganization } from "../export/fixtures.js";
import { phctl } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { copyExamples } from "../helpers/examples.js";

let t: TestServer;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  t = await startServer();
  dir = mkdtempSync(join(tmpdir(), "phctl-progress-"));
  copyExamples(join(dir, "examples"));
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
});
afterAll(() => t.close());

/** The reads' JSON events among stderr's lines (others: notes, the client's metrics). */
function events(stderr: string): Record<string, unknown>[] {
  return stderr
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((e) => String(e.event).startsWith("read-"));
}

function expectReadEvents(stderr: string, command: string) {
  const e = events(stderr);
  expect(e.length).toBeGreaterThanOrEqual(2);
  expect(e[0]).toMatchObject({ event: "read-started", command });
  expect(typeof e[0].time).toBe("string");
  const done = e.at(-1)!;
  expect(done).toMatchObject({ event: "read-done", command, ok: true });
  expect(done.objects).toEqual(expect.any(Number));
  expect(done.calls as number).toBeGreaterThan(0);
  expect(done.elapsedMs).toEqual(expect.any(Number));
  expect(e.slice(1, -1).every((x) => x.event === "read-progress")).toBe(true);
  return done;
}

describe("progress events for plan, drift and export", () => {
  it("plan --json: events on stderr, the plan on stdout as before", async () => {
    const r = await phctl(["plan", "examples", "--json"], env, dir);
    expect(r.code, r.stderr).toBe(0);
    expectReadEvents(r.stderr, "plan");
    expect(r.stdout).toMatch(/^Plan: \d+ to create, 0 to update, 0 to delete/m);
    expect(r.stdout).not.toContain('"event"');

    const asJson = await phctl(
      ["plan", "examples", "--format", "json"],
      { ...env, CI: "true" },
      dir,
    );
    expect(asJson.code).toBe(0);
    expect(JSON.parse(asJson.stdout)).toHaveProperty("entries");
    expectReadEvents(asJson.stderr, "plan");
  });

  it("without a terminal, --json or CI, no progress at all", async () => {
    const r = await phctl(["plan", "examples"], env, dir);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("{");
    expect(r.stderr).not.toContain("\u001b[");
  });

  it("drift and export with CI=true: the same events, named by the command", async () => {
    seed(t.server.ctx, richOrganization());
    const drift = await phctl(["drift", "examples"], { ...env, CI: "true" }, dir);
    expect(drift.code, drift.stderr).toBe(2);
    expect((expectReadEvents(drift.stderr, "drift").objects as number) > 0).toBe(true);

    const exp = await phctl(
      ["export", "--organization", "acme", "--out", "exported", "--json"],
      env,
      dir,
    );
    expect(exp.code, exp.stderr).toBe(0);
    const done = expectReadEvents(exp.stderr, "export");
    expect(done.objects as number).toBeGreaterThan(10);
    expect(exp.stdout).toMatch(/^Exported \d+ users, \d+ teams and \d+ projects of acme/);
  });
});
