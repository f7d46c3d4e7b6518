/**
 * A token that stops working in the middle of an apply (expired, revoked: short-lived CI
 * tokens do): every later call would be refused, so after the first 401 the client sends
 * nothing more with that token and apply starts no more actions, rather than sending every
 * remaining independent create to be refused one by one. The run ends with exit 1 and says what to do; the next run with a valid token
 * converges. The reference server (in this process) forgets the token once it has handled
 * 10 user creates of 200.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { phctl } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

const USERS = 200;
let t: TestServer;
let dir: string;

beforeAll(async () => {
  t = await startServer();
  dir = mkdtempSync(join(tmpdir(), "phctl-token-refused-"));
  writeFileSync(join(dir, "phctl.yaml"), "organization: acme\n");
  const docs = Array.from(
    { length: USERS },
    (_, i) => `apiVersion: phctl/v1
kind: User
metadata:
  name: u${i}
spec:
  firstName: U
  lastName: N${i}
  externalEmail: u${i}@example.org
`,
  );
  writeFileSync(join(dir, "users.yaml"), docs.join("---\n"));
});
afterAll(() => t.close());

const creates = () =>
  t.server.requestLog.filter((e) => e.operation === "users.create" && e.status === 201).length;

describe("the token is refused in the middle of an apply", () => {
  it("stops starting actions after the first 401 and says what to do", async () => {
    const env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
    const run = phctl(["apply", dir, "--auto-approve", "--concurrency", "2"], env, dir);
    // Revoke once 10 users were created (the CLI runs in its own process; this one serves).
    let revoked = false;
    const tick = setInterval(() => {
      if (revoked || creates() < 10) return;
      t.server.revokeToken(TOKENS.admin.secret);
      revoked = true;
    }, 1);
    const r = await run.finally(() => clearInterval(tick));
    expect(r.stderr).not.toMatch(/^phctl: .*error/m);
    expect(revoked).toBe(true);
    expect(r.code).toBe(1);
    const refused = t.server.requestLog.filter((e) => e.status === 401);
    expect(refused.length).toBeGreaterThan(0);
    // Only the calls already sent when the first 401 came back meet it (2 at --concurrency 2,
    // one more may be on its way): the actions already running fail without sending, no new
    // one starts. Before, every one of the ~190 remaining creates was sent and refused.
    expect(refused.length).toBeLessThanOrEqual(4);
    expect(r.stdout).toContain(
      "UNAUTHORIZED: not sent: the service refused the token (401) on users.create earlier in this run",
    );
    expect(r.stdout + r.stderr).toContain(
      "the service refused the token (401) on users.create; stopped starting actions — set a valid token in PHCTL_TOKEN (or pass --token-file FILE) and run phctl apply again",
    );
    expect(r.stdout + r.stderr).not.toContain(TOKENS.admin.secret);
  });
});
