/**
 * `--outage-timeout` is an upper bound against services that hang rather than refuse: one
 * that accepts connections and never answers, one that sends headers and stalls the body,
 * and a git host (the delivery-metrics API) that never answers. The built CLI — plan,
 * apply, report delivery — exits 1 within the timeout plus a few seconds, naming what did
 * not answer (which API, its URL, for how long). A service that swallows requests for a
 * moment and then answers again is waited out: the deadline counts from its last answer,
 * not from the requests it swallowed. (Before: each attempt waited its 30 s timeout, three
 * times over, before the outage deadline even started — 100 s for a 2 s timeout.)
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  silentServer,
  stallingServer,
  swallowingProxy,
  type HangingServer,
} from "../../bench/outage-servers.js";
import { seed } from "../../src/server/seed.js";
import { MAIN } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { copyExamples } from "../helpers/examples.js";

/** Seconds a command may take past its --outage-timeout (start-up, a loaded machine). */
const SLACK_S = 5;
const TOKEN = { secret: "outage-hang-token-5e2a91", role: "system-admin", parentOrganization: "acme" } as const; // prettier-ignore

interface Timed {
  code: number;
  stdout: string;
  stderr: string;
  seconds: number;
}

/** Run the built CLI; killed after `killS` (the old code hung for minutes). */
function run(args: string[], env: Record<string, string>, cwd: string, killS = 60) {
  const t0 = performance.now();
  return new Promise<Timed>((done) => {
    execFile(
      process.execPath,
      [MAIN, ...args],
      {
        cwd,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1", ...env },
        timeout: killS * 1000,
      },
      (err, stdout, stderr) =>
        done({
          code: err ? ((err as { code?: number }).code ?? 1) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
          seconds: (performance.now() - t0) / 1000,
        }),
    );
  });
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "phctl-outage-hang-"));
  copyExamples(join(dir, "examples"));
});

describe("a service that hangs", () => {
  const servers: HangingServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  it("plan against one that accepts and never answers: exit 1 within 2 s + a few, naming it", async () => {
    const s = await silentServer();
    servers.push(s);
    const r = await run(
      ["plan", "examples", "--api-url", s.url, "--outage-timeout", "2s"],
      { PHCTL_TOKEN: TOKEN.secret },
      dir,
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.seconds).toBeLessThan(2 + SLACK_S);
    expect(s.connections()).toBeGreaterThan(0);
    expect(r.stderr).toContain(`the service at ${s.url} has not answered for 2`);
    expect(r.stderr).toMatch(/\(last: no answer within 2 s\); gave up waiting\. Check the service's status page/); // prettier-ignore
    expect(r.stderr).not.toMatch(/at .*\.js:\d+|internal error/);
    expect(r.stderr).not.toContain(TOKEN.secret);
  }, 90_000);

  it("apply against one that sends headers and stalls the body: exit 1 within 2 s + a few, saying so", async () => {
    const s = await stallingServer();
    servers.push(s);
    const r = await run(
      ["apply", "examples", "--auto-approve", "--api-url", s.url, "--outage-timeout", "2s"],
      { PHCTL_TOKEN: TOKEN.secret },
      dir,
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.seconds).toBeLessThan(2 + SLACK_S);
    expect(r.stderr).toContain(`the service at ${s.url} has not answered for 2`);
    expect(r.stderr).toContain("the answer stalled after its headers: its body did not come within 2 s"); // prettier-ignore
    expect(r.stderr).not.toMatch(/at .*\.js:\d+|internal error/);
  }, 90_000);
});

describe("doctor against a service that hangs", () => {
  it("reports it in its table (URL: fail) within 2 s + a few, instead of waiting out a 30 s timeout", async () => {
    const s = await silentServer();
    try {
      const r = await run(
        ["doctor", "--api-url", s.url, "--outage-timeout", "2s"],
        { PHCTL_TOKEN: TOKEN.secret },
        dir,
      );
      expect(r.code, r.stderr).toBe(1);
      expect(r.seconds).toBeLessThan(2 + SLACK_S);
      expect(r.stdout).toMatch(
        /URL +fail +not reachable: the service at .* has not answered for 2/,
      );
      expect(r.stdout).toContain("phctl cannot work with this service as it is");
    } finally {
      await s.close();
    }
  }, 90_000);
});

describe("a git host that hangs, the service answering", () => {
  let t: TestServer;
  let git: HangingServer;
  let reportDir: string;
  beforeAll(async () => {
    t = await startServer({ tokens: [...Object.values(TOKENS), TOKEN] });
    seed(t.server.ctx, {
      parentOrganization: "acme",
      users: [{ username: "alice", firstName: "A", lastName: "T", externalEmail: "a@example.org" }],
      projects: [{ slug: "alpha", name: "Alpha", access: { admins: ["alice"] }, git: { path: "alpha" } }], // prettier-ignore
      activity: { seed: 7 },
    });
    git = await silentServer();
    reportDir = mkdtempSync(join(tmpdir(), "phctl-outage-report-"));
    mkdirSync(join(reportDir, "config"));
    writeFileSync(join(reportDir, "config", "phctl.yaml"), "organization: acme\n");
  });
  afterAll(async () => {
    await git.close();
    await t.close();
  });

  it("report delivery: DORA failed within 2 s + a few, naming the delivery-metrics API; the rest renders", async () => {
    const r = await run(
      ["report", "delivery", "config", "--git-api-url", git.url, "--outage-timeout", "2s"],
      { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKEN.secret, PHCTL_GIT_TOKEN: TOKEN.secret },
      reportDir,
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.seconds).toBeLessThan(2 + SLACK_S);
    expect(git.connections()).toBeGreaterThan(0);
    expect(r.stdout).toContain("DORA metrics could not be read");
    expect(r.stderr).toContain(`the delivery-metrics API at ${git.url} has not answered for 2`);
    expect(r.stderr).toContain("PHCTL_GIT_API_URL (or --git-api-url)");
    expect(r.stderr).not.toContain("the service is not answering");
    expect(r.stderr).not.toContain(TOKEN.secret);
  }, 90_000);
});

describe("a service that swallows requests for 3 s, then answers again", () => {
  let t: TestServer;
  let proxy: Awaited<ReturnType<typeof swallowingProxy>>;
  beforeAll(async () => {
    t = await startServer({ latencyMs: 20 });
    proxy = await swallowingProxy(t.url);
  });
  afterAll(async () => {
    await proxy.close();
    await t.close();
  });

  it("apply --outage-timeout 8s waits it out: exit 0, well before the swallowed requests' 30 s timeout", async () => {
    const work = mkdtempSync(join(tmpdir(), "phctl-outage-swallow-"));
    copyExamples(join(work, "examples"));
    const env = { PHCTL_API_URL: proxy.url, PHCTL_TOKEN: TOKENS.admin.secret };
    const applying = run(["apply", "examples", "--auto-approve", "--outage-timeout", "8s"], env, work); // prettier-ignore
    // Swallow once the apply is under way (its first reads answered).
    for (let i = 0; i < 400 && t.server.requestLog.length < 3; i++)
      await new Promise((r) => setTimeout(r, 25));
    proxy.swallow(true);
    const swallowedAt = performance.now();
    await new Promise((r) => setTimeout(r, 3000));
    proxy.swallow(false);
    const r = await applying;
    const afterS = (performance.now() - swallowedAt) / 1000;
    expect(r.code, r.stderr + r.stdout.slice(-2000)).toBe(0);
    // The swallowed attempts end by the outage deadline (8 s), not their 30 s timeout.
    expect(afterS).toBeLessThan(8 + 3 + SLACK_S + 2);
    expect(r.stderr).not.toContain("gave up waiting");
  }, 120_000);
});
