/**
 * The access review, complete (issue 37, item 7), end to end: the built CLI against the
 * reference server on loopback. Deactivated accounts that still hold access (high) and
 * dormant users who hold read access only (low); since when each access is held — the API
 * gives no grant date, so the day a review first saw it, carried by `--since`; each user's
 * name and e-mail in the rows — in JSON, markdown, CSV and HTML, with no call more than
 * before (the names come from the users list the review reads anyway).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccessReport } from "../../src/report/types.js";
import { seed } from "../../src/server/seed.js";
import { phctl } from "../helpers/cli.js";
import { ago, reportToken, seedUser, startReportServer } from "../helpers/report-seed.js";
import type { TestServer } from "../helpers/server.js";

const TOKEN = reportToken("review-token-4e7b19");
const dayAgo = (days: number) => ago(days).slice(0, 10);
const user = (username: string, o: Record<string, unknown> = {}) =>
  seedUser(username, o, username[0].toUpperCase() + username.slice(1));

let t: TestServer;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  t = await startReportServer(TOKEN);
  seed(t.server.ctx, {
    parentOrganization: "acme",
    organizations: [{ name: "partner", parent: "acme" }],
    users: [
      user("alice", {
        displayName: "Alice Archer",
        email: "alice.archer@acme.example",
        dateLastAccessed: ago(2),
      }),
      user("carol", { dateLastAccessed: ago(3) }),
      // Deactivated, still a developer of alpha: high.
      user("bob", { status: "inactive", dateLastAccessed: ago(5) }),
      // Deactivated with no access: not a finding.
      user("gina", { status: "inactive", dateLastAccessed: ago(400) }),
      // Last login 200 days ago, read only (reporters): dormant.
      user("dora", { dateLastAccessed: ago(200) }),
      // Read only but recent: not dormant.
      user("rita", { dateLastAccessed: ago(1) }),
      // Inactive with write: the existing finding, not dormant.
      user("olive", { dateLastAccessed: ago(200) }),
      // Read through a user team, 150 days ago: dormant too.
      user("tom", { organization: "partner", dateLastAccessed: ago(150) }),
    ],
    teams: [{ name: "docs-team", members: ["tom"], projects: ["alpha"] }],
    projects: [
      {
        slug: "alpha",
        name: "Alpha",
        access: {
          admins: ["alice", "olive"],
          developers: ["bob"],
          reporters: ["dora", "rita"],
        },
        git: { path: "alpha" },
      },
      { slug: "beta", name: "Beta", access: { admins: ["alice", "carol"] }, git: { path: "beta" } },
    ],
  });
  dir = mkdtempSync(join(tmpdir(), "phctl-review-"));
  mkdirSync(join(dir, "config"));
  writeFileSync(join(dir, "config", "phctl.yaml"), "organization: acme\n");
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKEN.secret };
});
afterAll(async () => {
  await t.close();
});

const report = (args: string[]) => phctl(["report", "access", ...args, "config"], env, dir);
const json = async (args: string[] = []) => {
  const r = await report(["--format", "json", ...args]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as AccessReport;
};
const finding = (a: AccessReport, id: string) => a.findings.find((f) => f.id === id);

describe("7a: deactivated accounts that still hold access, dormant users with read access", () => {
  it("json: both findings with their rows and severity, most severe first", async () => {
    const a = await json();
    expect(finding(a, "deactivated-with-access")).toMatchObject({
      severity: "high",
      count: 1,
      rows: [{ principal: "bob", project: "alpha", level: "developers" }],
    });
    expect(finding(a, "deactivated-with-access")?.rows[0].detail).toContain("alpha (developers)");
    expect(finding(a, "dormant-with-read")?.rows.map((r) => r.principal)).toEqual(["dora", "tom"]);
    expect(finding(a, "dormant-with-read")).toMatchObject({ severity: "low", count: 2 });
    expect(finding(a, "dormant-with-read")?.rows[1].detail).toContain("through user team docs-team"); // prettier-ignore
    // Dormant with write is the other finding, and outranks it.
    expect(finding(a, "inactive-with-write")).toMatchObject({ severity: "high", count: 1 });
    const rank = { high: 0, medium: 1, low: 2 };
    const order = a.findings.map((f) => rank[f.severity!]);
    expect(order).toEqual([...order].sort((x, y) => x - y));
    expect(a.findings[0].id).toBe("deactivated-with-access");
    expect(a.users.find((u) => u.username === "bob")?.deactivated).toBe(true);
    expect(a.users.find((u) => u.username === "alice")?.deactivated).toBe(false);
  });

  it("markdown, csv and html list them", async () => {
    const md = await report([]);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("### Deactivated accounts that still hold access (1)");
    expect(md.stdout).toContain("### Users inactive for 90 days or more who hold read access only (2)"); // prettier-ignore
    expect(md.stdout).toMatch(/\| Deactivated accounts that still hold access \| 1 \| high \|/);
    const out = join(dir, "csv-7a");
    expect((await report(["--format", "csv", "--out", out])).code).toBe(0);
    const findings = readFileSync(join(out, "findings.csv"), "utf8").split("\r\n");
    expect(findings[0]).toBe("Finding,Count,Note,Severity");
    expect(findings).toContain("deactivated-with-access,1,,high");
    expect(findings).toContain("dormant-with-read,2,,low");
    expect(readFileSync(join(out, "finding-deactivated-with-access.csv"), "utf8")).toContain("bob,alpha,developers,"); // prettier-ignore
    const html = join(dir, "7a.html");
    expect((await report(["--format", "html", "--out", html])).code).toBe(0);
    const page = readFileSync(html, "utf8");
    expect(page).toContain('data-finding="deactivated-with-access"');
    expect(page).toContain('data-finding="dormant-with-read"');
  });
});

describe("7b: since when each access is held", () => {
  it("first report: every row first seen today; --since carries earlier days and marks new access first seen now", async () => {
    const first = await json();
    const today = first.generatedAt.slice(0, 10);
    expect(first.rows.length).toBeGreaterThan(5);
    expect(first.rows.every((r) => r.since === today && r.sinceBasis === "first-seen")).toBe(true);

    // Last month's review: alpha's rows first seen 100 days ago, beta's rows made before
    // rows had a `since` (its own day counts).
    const prev = JSON.parse(JSON.stringify(first)) as AccessReport;
    prev.generatedAt = ago(30);
    for (const r of prev.rows) {
      if (r.project === "alpha") r.since = dayAgo(100);
      else delete r.since;
    }
    const file = join(dir, "last-month.json");
    writeFileSync(file, JSON.stringify(prev));
    const grant = await t.call("POST", "/v1/projects/beta/admins/users/olive");
    expect(grant.status).toBeLessThan(300);

    const now = await json(["--since", file]);
    const row = (p: string, project: string, level: string) =>
      now.rows.find((x) => x.principal === p && x.project === project && x.level === level)!;
    expect(row("alice", "alpha", "admins")).toMatchObject({ since: dayAgo(100), sinceBasis: "first-seen" }); // prettier-ignore
    expect(row("alice", "beta", "admins")).toMatchObject({ since: dayAgo(30), sinceBasis: "first-seen" }); // prettier-ignore
    expect(row("olive", "beta", "admins")).toMatchObject({
      since: today,
      sinceBasis: "first-seen",
    });
    const olive = now.users.find((u) => u.username === "olive")!;
    expect([olive.accessSince, olive.sinceBasis]).toEqual([dayAgo(100), "first-seen"]);
    expect(now.users.find((u) => u.username === "gina")?.accessSince).toBeUndefined();

    // Every format says the day and what it rests on.
    const md = await report(["--since", file]);
    expect(md.stdout).toContain("the API gives no grant date");
    expect(md.stdout).toMatch(new RegExp(`\\| alice \\| [^\\n]*\\| alpha \\| admins \\|[^\\n]*\\| first seen ${dayAgo(100)} \\|`)); // prettier-ignore
    expect(md.stdout).toMatch(new RegExp(`\\| granted \\| olive \\|[^\\n]*\\| first seen ${today} \\|`)); // prettier-ignore
    const out = join(dir, "csv-7b");
    expect((await report(["--since", file, "--format", "csv", "--out", out])).code).toBe(0);
    const access = readFileSync(join(out, "access.csv"), "utf8").split("\r\n");
    expect(access[0]).toBe(
      "Principal,Kind,Organization,Project,Level,Held,Declared,Last login,Name,E-mail,Since,Since basis,Expires",
    );
    expect(access.find((l) => l.startsWith("alice,user,acme,alpha,admins,"))).toMatch(new RegExp(`,${dayAgo(100)},first-seen,$`)); // prettier-ignore
    expect(readFileSync(join(out, "users.csv"), "utf8")).toMatch(new RegExp(`\\r\\nolive,[^\\r]*,${dayAgo(100)},first-seen\\r\\n`)); // prettier-ignore
    const html = join(dir, "7b.html");
    expect((await report(["--since", file, "--format", "html", "--out", html])).code).toBe(0);
    expect(readFileSync(html, "utf8")).toContain(`first seen ${dayAgo(100)}`);
  });
});

describe("7c: names and e-mails of the users in the rows", () => {
  it("every format names them; the review makes no call more for them", async () => {
    const seqBefore = t.server.requestLog.at(-1)?.seq ?? 0;
    const a = await json();
    const calls = t.server.requestLog.filter((e) => e.seq > seqBefore && e.url.startsWith("/v1/"));
    // organizations, users, teams, organization teams, projects, 2 project details, and one
    // last-login search per organization (2): no call per user.
    expect(calls).toHaveLength(9);
    expect(a.stats.apiCalls).toBe(9);
    const alice = a.rows.find((r) => r.principal === "alice" && r.project === "alpha")!;
    expect([alice.name, alice.email]).toEqual(["Alice Archer", "alice.archer@acme.example"]);
    expect(a.users.find((u) => u.username === "tom")).toMatchObject({ name: "Tom Test", email: "tom@example.org" }); // prettier-ignore
    expect(finding(a, "deactivated-with-access")?.rows[0].principal).toBe("bob");

    const md = await report([]);
    expect(md.stdout).toContain("| alice | Alice Archer \\<alice.archer\\@acme.example\\> |");
    // A finding's rows name their users too.
    expect(md.stdout).toMatch(
      /\| bob \| Bob Test \\<bob\\@example.org\\> \| alpha \| developers \|/,
    );
    const out = join(dir, "csv-7c");
    expect((await report(["--format", "csv", "--out", out])).code).toBe(0);
    expect(readFileSync(join(out, "users.csv"), "utf8").split("\r\n")[0]).toContain(
      ",Name,E-mail,",
    );
    expect(readFileSync(join(out, "access.csv"), "utf8")).toContain(",Alice Archer,alice.archer@acme.example,"); // prettier-ignore
    expect(readFileSync(join(out, "finding-dormant-with-read.csv"), "utf8")).toContain(",Dora Test,dora@example.org"); // prettier-ignore
    const html = join(dir, "7c.html");
    expect((await report(["--format", "html", "--out", html])).code).toBe(0);
    expect(readFileSync(html, "utf8")).toContain("alice.archer@acme.example");
  });
});
