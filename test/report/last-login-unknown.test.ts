/**
 * `phctl report access` when the identity provider's search fails (issue 34, defect 6): the
 * built CLI against the reference server, the search (`metrics.usersSearch`, one operation)
 * made to fail through /_control/faults. The inactive and never-logged-in findings read
 * "unknown: the last-login search of organization … failed (…)" in every format — never 0,
 * never "None." — the report is partial (exit 1; 0 with --allow-partial), and `--since` an
 * earlier complete review resolves none of their rows: they are "not checked".
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccessReport, Finding } from "../../src/report/types.js";
import { seed } from "../../src/server/seed.js";
import { phctl, type Run } from "../helpers/cli.js";
import { ago, reportToken, seedUser, startReportServer } from "../helpers/report-seed.js";
import type { TestServer } from "../helpers/server.js";

/** A token no report word contains (a short one would be masked inside words). */
const TOKEN = reportToken("lastlogin-token-7e21c9");
const user = (username: string, o: Record<string, unknown> = {}) => seedUser(username, o);

let t: TestServer;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  t = await startReportServer(TOKEN);
  seed(t.server.ctx, {
    parentOrganization: "acme",
    organizations: [{ name: "partner", parent: "acme" }],
    users: [
      user("alice", { dateLastAccessed: ago(2) }),
      user("olive", { dateLastAccessed: ago(200) }),
      user("nina"),
      user("pete", { organization: "partner", dateLastAccessed: ago(1) }),
    ],
    projects: [
      { slug: "alpha", name: "Alpha", access: { admins: ["alice", "olive"], developers: ["pete"] } }, // prettier-ignore
    ],
  });
  dir = mkdtempSync(join(tmpdir(), "phctl-lastlogin-"));
  mkdirSync(join(dir, "config"));
  writeFileSync(join(dir, "config", "phctl.yaml"), "organization: acme\n");
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKEN.secret };
});
afterAll(async () => {
  await t.close();
});

const report = (args: string[]) => phctl(["report", "access", ...args, "config"], env, dir);

/**
 * A report made while every last-login search fails: the fault is armed for this run only,
 * on one operation. A 429 whose Retry-After is past the client's cap is not retried (fast);
 * a 503 is, until the retry limit (about 25 s).
 */
async function whileSearchFails(args: string[], kind = "status429"): Promise<Run> {
  const armed = await t.call("POST", "/_control/faults", {
    body: { faults: [{ kind, operation: "metrics.usersSearch", times: 500, retryAfter: 600 }] },
  });
  expect(armed.status).toBe(200);
  try {
    return await report([...args, "--outage-timeout", "5s"]);
  } finally {
    await t.call("DELETE", "/_control/faults");
  }
}

const byId = (a: AccessReport) => new Map<string, Finding>(a.findings.map((f) => [f.id, f]));
/** Both searches failed alike: one clause names both organizations. */
const BOTH = "the last-login search of organizations acme and partner failed (";

describe("report access: the last-login search fails", () => {
  it("json, the search answering 503: the login findings are unknown (count null, why), not 0; exit 1; the schema holds", async () => {
    const r = await whileSearchFails(["--format", "json"], "status503");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /Last login could not be read: the last-login search of organizations? acme.* failed \(.*503 UNAVAILABLE.*run the report again.*\(--allow-partial exits 0\)/,
    );
    const a = JSON.parse(r.stdout) as AccessReport;
    expect(a.partial).toBe(true);
    const f = byId(a);
    for (const id of ["inactive-with-write", "never-logged-in"]) {
      expect(f.get(id)?.count, id).toBeNull();
      expect(f.get(id)?.unknown?.organizations, id).toEqual(["acme", "partner"]);
      expect(f.get(id)?.unknown?.reason, id).toMatch(/^the last-login search of organizations? acme\b.*failed \(.*503 UNAVAILABLE/); // prettier-ignore
      expect(f.get(id)?.unknown?.reason, id).toMatch(/\bpartner\b/);
    }
    // What does not need last logins is still counted.
    expect(f.get("projects-under-two-admins")?.count).toBe(0);
    expect(f.get("live-only-access")?.count).toBe(3);
    expect(a.users.map((u) => [u.username, u.lastLogin])).toEqual([
      ["alice", undefined],
      ["nina", undefined],
      ["olive", undefined],
      ["pete", undefined],
    ]);
    const schema = JSON.parse(readFileSync("schemas/report.schema.json", "utf8")) as object;
    const validate = new Ajv({ strict: false, allowUnionTypes: true }).compile(schema);
    expect(validate(a), JSON.stringify(validate.errors)).toBe(true);
  }, 120_000);

  it("markdown, csv and html say unknown and why, never 0 or None; --allow-partial exits 0", async () => {
    const md = await whileSearchFails(["--allow-partial"]);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("| Users who never logged in | unknown |");
    expect(md.stdout).toContain("### Users who never logged in (unknown)");
    expect(md.stdout).toContain(`> unknown: ${BOTH}`);
    expect(md.stdout).not.toMatch(/never logged in \| 0 \||never logged in \(0\)/);
    expect(md.stdout).not.toMatch(/or admin \| 0 \||or admin \(0\)/);
    expect(md.stdout).toMatch(/\| olive \| [^|]*\| acme \|[^\n]*\| unknown \| unknown \|/);

    const out = join(dir, "csv");
    const csv = await whileSearchFails(["--format", "csv", "--out", out, "--allow-partial"]);
    expect(csv.code).toBe(0);
    const lines = readFileSync(join(out, "findings.csv"), "utf8").split("\r\n");
    expect(lines[0]).toBe("Finding,Count,Note,Severity");
    expect(lines.find((l) => l.startsWith("never-logged-in,"))).toMatch(/^never-logged-in,unknown,"?unknown: the last-login search of organizations acme and partner failed \(/); // prettier-ignore
    expect(lines).toContainEqual(expect.stringMatching(/^inactive-with-write,unknown,/));
    expect(lines).toContain("projects-under-two-admins,0,,low");
    expect(readFileSync(join(out, "users.csv"), "utf8")).toContain("olive,acme,member,active,false,false,unknown,unknown,1,admin"); // prettier-ignore

    const html = await whileSearchFails(["--format", "html", "--out", join(dir, "r.html")]);
    expect(html.code).toBe(1);
    const page = readFileSync(join(dir, "r.html"), "utf8");
    const section = (id: string) => page.slice(page.indexOf(`id="finding-${id}"`)).split("</section>")[0]; // prettier-ignore
    for (const id of ["never-logged-in", "inactive-with-write"]) {
      expect(section(id), id).toContain('<span class="count">unknown</span>');
      expect(section(id), id).toContain(`unknown: ${BOTH}`);
      expect(section(id), id).not.toContain("None.");
    }
    expect(page).toContain("Run the report again once the identity provider answers");
  });

  it("--since an earlier complete review resolves none of the login findings: not checked, with why", async () => {
    const prev = join(dir, "prev.json");
    const before = await report(["--format", "json", "--out", prev]);
    expect(before.code).toBe(0);
    const was = byId(JSON.parse(readFileSync(prev, "utf8")) as AccessReport);
    expect(was.get("inactive-with-write")?.rows.map((x) => x.principal)).toEqual(["olive"]);
    expect(was.get("never-logged-in")?.rows.map((x) => x.principal)).toEqual(["nina"]);

    const r = await whileSearchFails(["--format", "json", "--since", prev]);
    expect(r.code).toBe(1);
    const s = (JSON.parse(r.stdout) as AccessReport).since!;
    expect(s.resolvedFindings).toEqual([]);
    expect(s.newFindings).toEqual([]);
    const unchecked = new Map((s.notChecked ?? []).map((f) => [f.id, f.rows]));
    expect(unchecked.get("inactive-with-write")?.map((x) => x.principal)).toEqual(["olive"]);
    expect(unchecked.get("never-logged-in")?.map((x) => x.principal)).toEqual(["nina"]);
    for (const rows of unchecked.values())
      expect(rows[0].detail).toMatch(/^not checked: the last-login search of organization acme failed/); // prettier-ignore

    const md = await whileSearchFails(["--since", prev, "--allow-partial"]);
    expect(md.stdout).toMatch(/\| not checked \| Users who never logged in \| nina \|/);
    expect(md.stdout).not.toMatch(/\| resolved \|/);
  });
});
