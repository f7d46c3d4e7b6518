/**
 * Access that expires in the access review (issue 38, item 3), end to end: the examples
 * applied to the reference server on loopback, then `report access`. Each row shows the last
 * day the manifests grant it (lchen's maintainer grant on mbed-tls ends 2030-06-30), and
 * users of a customer organization who hold write or admin with no end are a finding
 * (pkumar of linaro-partner); lchen's dated grant is not.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccessReport } from "../../src/report/types.js";
import { phctl } from "../helpers/cli.js";
import { copyExamples } from "../helpers/examples.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

let t: TestServer;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  t = await startServer();
  dir = mkdtempSync(join(tmpdir(), "phctl-report-expiry-"));
  copyExamples(join(dir, "examples"));
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
  const r = await phctl(["apply", "examples", "--auto-approve"], env, dir);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the access review and expiring grants", () => {
  it("shows each grant's last day and flags customers' write without one", async () => {
    const r = await phctl(
      ["report", "access", "examples", "--format", "json", "--out", "review.json"],
      env,
      dir,
    );
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, "review.json"), "utf8")) as AccessReport;
    const row = (who: string, project: string, level: string) =>
      report.rows.find((x) => x.principal === who && x.project === project && x.level === level);
    expect(row("lchen", "mbed-tls", "maintainers")?.expires).toBe("2030-06-30");
    expect(row("pkumar", "mbed-tls", "maintainers")?.expires).toBeUndefined();
    expect(row("jdoe", "mbed-tls", "admins")?.expires).toBeUndefined();
    const finding = report.findings.find((f) => f.id === "customer-write-without-expiry")!;
    expect(finding.severity).toBe("medium");
    const flagged = finding.rows.map((x) => `${x.principal} ${x.project} ${x.level}`).sort();
    // pkumar and lchen are linaro-partner's; jdoe and asmith are acme's own.
    expect(flagged).toContain("pkumar mbed-tls admins");
    expect(flagged).not.toContain("lchen mbed-tls maintainers");
    expect(flagged.every((f) => /^(pkumar|lchen) /.test(f))).toBe(true);
    expect(finding.count).toBe(flagged.length);

    const md = await phctl(["report", "access", "examples"], env, dir);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain(
      "Customer organizations' users with write or admin that never expires",
    );
    expect(md.stdout).toMatch(/\| lchen[^\n]*\| mbed-tls \| maintainers \|[^\n]*\| 2030-06-30 \|/);
  });

  it("an expired grant still live is due for removal, not access granted live only", async () => {
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const file = join(dir, "examples/projects/mbed-tls.yaml");
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace("expires: 2030-06-30", `expires: ${yesterday}`),
    );
    const r = await phctl(
      ["report", "access", "examples", "--format", "json", "--out", "expired.json"],
      env,
      dir,
    );
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, "expired.json"), "utf8")) as AccessReport;
    const row = report.rows.find(
      (x) => x.principal === "lchen" && x.project === "mbed-tls" && x.level === "maintainers",
    );
    expect(row).toMatchObject({ declared: false, expires: yesterday });
    const liveOnly = report.findings.find((f) => f.id === "live-only-access")!;
    expect(liveOnly.rows.filter((x) => x.principal === "lchen")).toEqual([]);
    // The plan says what happens to it.
    const plan = await phctl(["plan", "examples"], env, dir);
    expect(plan.stdout).toContain(`expired on ${yesterday}`);
  });
});
