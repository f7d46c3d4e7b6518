/**
 * phctl.yaml's organization against the token's (issue 26, defect 4): with an acme config
 * and a globex token, plan, apply and drift refuse before reading anything but the
 * organization list — one line naming both organizations and what to change, exit 1, no
 * write — and export of an organization the token does not see says whose token it is.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { phctl } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { copyExamples } from "../helpers/examples.js";

describe("a token of another organization than phctl.yaml's", () => {
  let t: TestServer;
  let dir: string;
  beforeAll(async () => {
    t = await startServer();
    dir = mkdtempSync(join(tmpdir(), "phctl-org-check-"));
    copyExamples(join(dir, "examples"));
  });
  afterAll(async () => t.close());
  // examples/phctl.yaml says organization: acme; this token's parent organization is globex.
  const env = () => ({ PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.other.secret, CI: "" });

  for (const args of [
    ["plan", "examples"],
    ["apply", "examples", "--auto-approve"],
    ["drift", "examples"],
  ]) {
    it(`${args[0]} refuses before reading, naming both organizations`, async () => {
      const before = t.server.requestLog.length;
      const r = await phctl(args, env(), dir);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(
        /^phctl: examples\/phctl\.yaml says organization acme, but the token belongs to organization globex: set organization: globex there, or use a token of acme/m,
      );
      expect(r.stderr).not.toMatch(/\n\s+at /);
      const calls = t.server.requestLog.slice(before).map((e) => e.operation);
      expect(calls).toEqual(["organizations.list"]);
      expect(r.stdout).not.toMatch(/will be created|not managed/);
    });
  }

  it("export of an organization the token does not see names the token's organization", async () => {
    const r = await phctl(["export", "--organization", "acme", "--out", "x"], env(), dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^phctl: organization acme is not visible to this token, which belongs to organization globex .*pass --organization globex, or use a token of acme/,
    );
  });
});
