/**
 * `phctl report access|delivery` end to end: the built CLI against the reference server on
 * loopback, seeded with an organization and synthetic activity (last logins, pipelines,
 * hence DORA series). Both reports in json, markdown, csv and html; the git host refusing
 * the delivery-metrics token (a partial report, exit 1; exit 0 with --allow-partial); no
 * token in any output; bad --inactive and --since in one line.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccessReport, DeliveryReport } from "../../src/report/types.js";
import { seed } from "../../src/server/seed.js";
import { phctl } from "../helpers/cli.js";
import { ago, reportToken, seedUser, startReportServer } from "../helpers/report-seed.js";
import type { TestServer } from "../helpers/server.js";

const REPORT_TOKEN = reportToken("report-token-8c1d57");
const user = (username: string, o: Record<string, unknown> = {}) => seedUser(username, o);

let t: TestServer;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  // A token of its own: the helper's short ones ("t-admin") occur inside report words
  // ("service-account-admin") and would be masked there.
  t = await startReportServer(REPORT_TOKEN);
  seed(t.server.ctx, {
    parentOrganization: "acme",
    organizations: [{ name: "partner", parent: "acme" }],
    orgTeams: [{ organization: "partner", name: "Partner devs", path: "partner/devs" }],
    users: [
      user("alice", { dateLastAccessed: ago(2) }),
      user("olive", { dateLastAccessed: ago(200) }),
      user("nina"),
      user("pete", { organization: "partner", dateLastAccessed: ago(1) }),
      user("deploy-bot", { dateLastAccessed: ago(1) }),
    ],
    teams: [{ name: "docs-team", members: ["nina"], projects: ["alpha"] }],
    projects: [
      {
        slug: "alpha",
        name: "Alpha",
        access: { admins: ["alice", "olive"], developers: ["pete"] },
        orgTeams: { developers: ["partner/devs"] },
        git: { path: "alpha" },
      },
      { slug: "beta", name: "Beta", access: { admins: ["deploy-bot"] }, git: { path: "beta" } },
    ],
    activity: { seed: 7 },
  });
  dir = mkdtempSync(join(tmpdir(), "phctl-report-"));
  mkdirSync(join(dir, "config"));
  writeFileSync(join(dir, "config", "phctl.yaml"), "organization: acme\n");
  // alpha is declared without pete: his access exists only live.
  writeFileSync(
    join(dir, "config", "alpha.yaml"),
    `apiVersion: phctl/v1
kind: Project
metadata:
  name: alpha
spec:
  title: Alpha
  access:
    admins: [alice, olive]
    developers: { users: [], organizationTeams: [partner/devs] }
`,
  );
  env = {
    PHCTL_API_URL: t.url,
    PHCTL_TOKEN: REPORT_TOKEN.secret,
    PHCTL_GIT_TOKEN: REPORT_TOKEN.secret,
  };
});
afterAll(async () => {
  await t.close();
});

const report = (args: string[], extra: Record<string, string> = {}) =>
  phctl(["report", ...args, "config"], { ...env, ...extra }, dir);

describe("report access", () => {
  it("json: rows, last logins and every finding", async () => {
    const r = await report(["access", "--format", "json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const a = JSON.parse(r.stdout) as AccessReport;
    expect(a.kind).toBe("access");
    expect(a.formatVersion).toBe(1);
    expect(a.partial).toBe(false);
    const row = (p: string, project: string, level: string) =>
      a.rows.find((x) => x.principal === p && x.project === project && x.level === level);
    expect(row("alice", "alpha", "admins")).toMatchObject({
      declared: true,
      via: { kind: "direct" },
    });
    expect(row("pete", "alpha", "developers")).toMatchObject({
      declared: false,
      organization: "partner",
    });
    expect(row("partner/devs", "alpha", "developers")).toMatchObject({
      principalKind: "organizationTeam",
      declared: true,
    });
    expect(row("nina", "alpha", "member")).toMatchObject({
      via: { kind: "userTeam", team: "docs-team" },
      grade: "read",
    });
    expect(row("nina", "alpha", "member")?.lastLogin).toBeNull();
    const f = Object.fromEntries(
      a.findings.map((x) => [x.id, x.rows.map((y) => y.principal ?? y.project)]),
    );
    expect(f["inactive-with-write"]).toEqual(["olive"]);
    expect(f["never-logged-in"]).toEqual(["nina"]);
    expect(f["projects-under-two-admins"]).toEqual(["beta"]);
    expect(f["live-only-access"]).toEqual(expect.arrayContaining(["pete", "deploy-bot", "nina"]));
    expect(f["customer-write-on-parent"]).toEqual(["partner/devs", "pete"]);
    expect(f["service-account-admin"]).toEqual(["deploy-bot"]);
  });

  it("markdown, csv and html; --since shows what changed", async () => {
    const md = await report(["access", "--inactive", "30d"]);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("## Access review of acme");
    expect(md.stdout).toContain("Users inactive for 30 days or more who hold write or admin (1)");

    const out = join(dir, "csv");
    const csv = await report(["access", "--format", "csv", "--out", out]);
    expect(csv.code).toBe(0);
    expect(readdirSync(out)).toEqual(
      expect.arrayContaining(["access.csv", "findings.csv", "users.csv"]),
    );
    expect(readFileSync(join(out, "access.csv"), "utf8").split("\r\n")[0]).toBe(
      "Principal,Kind,Organization,Project,Level,Held,Declared,Last login,Name,E-mail,Since,Since basis,Expires",
    );
    const one = await report(["access", "--format", "csv", "--out", join(dir, "users.csv")]);
    expect(one.code).toBe(0);
    expect(readFileSync(join(dir, "users.csv"), "utf8")).toContain("olive,acme,member");

    const html = await report(["access", "--format", "html", "--out", join(dir, "r.html")]);
    expect(html.code).toBe(0);
    const page = readFileSync(join(dir, "r.html"), "utf8");
    expect(page).toMatch(/^<!doctype html>/i);
    expect(page).toMatch(/<table[ >]/);
    expect(page).toContain("deploy-bot");

    const prev = join(dir, "prev.json");
    expect((await report(["access", "--format", "json", "--out", prev])).code).toBe(0);
    const res = await t.call("POST", "/v1/projects/beta/admins/users/alice");
    expect(res.status).toBeLessThan(300);
    const since = await report(["access", "--format", "json", "--since", prev]);
    const a = JSON.parse(since.stdout) as AccessReport;
    expect(a.since?.granted.map((r) => `${r.principal} ${r.project} ${r.level}`)).toEqual([
      "alice beta admins",
    ]);
    expect(a.since?.resolvedFindings.map((f) => f.id)).toContain("projects-under-two-admins");
  });

  it("bad --inactive and unreadable --since: one line, exit 1", async () => {
    const bad = await report(["access", "--inactive", "90x"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toContain("--inactive must be");
    const missing = await report(["access", "--since", join(dir, "nope.json")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    expect(missing.stderr).toContain("--since");
  });
});

describe("report delivery", () => {
  it("json: DORA with bands, CI, usage; a project without pipelines has no data", async () => {
    const r = await report(["delivery", "--format", "json"]);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout) as DeliveryReport;
    expect(d.sections.every((s) => s.status === "ok")).toBe(true);
    expect(d.bands.year).toBe(2023);
    expect(d.dora.projects.map((p) => p.name).sort()).toEqual(["alpha", "beta"]);
    for (const p of d.ci.projects) {
      if (p.pipelines === 0)
        expect([p.successRate, p.perDay, p.medianDuration]).toEqual([null, null, null]);
      else expect(p.successRate).toBeGreaterThanOrEqual(0);
    }
    const dora = d.dora.projects.find((p) => p.deployments > 0);
    if (dora) expect(dora.metrics[0].band).not.toBeNull();
    expect(d.usage.organizations.map((u) => u.organization)).toEqual(["acme", "partner"]);
    expect(d.ci.daily.length).toBe(d.period.days);
  });

  it("markdown, csv and html", async () => {
    const md = await report(["delivery"]);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("bands of the DORA report 2023");
    const out = join(dir, "dcsv");
    expect((await report(["delivery", "--format", "csv", "--out", out])).code).toBe(0);
    expect(readdirSync(out)).toEqual(
      expect.arrayContaining(["dora-projects.csv", "ci-projects.csv", "usage.csv"]),
    );
    expect(
      (await report(["delivery", "--format", "html", "--out", join(dir, "d.html")])).code,
    ).toBe(0);
    expect(readFileSync(join(dir, "d.html"), "utf8")).toContain("Pipelines per day");
  });

  it("the git host refuses the token: every other section renders, exit 1; 0 with --allow-partial", async () => {
    const wrong = { PHCTL_GIT_TOKEN: "not-the-git-token-xyz" };
    const r = await report(["delivery", "--format", "json"], wrong);
    expect(r.code).toBe(1);
    const d = JSON.parse(r.stdout) as DeliveryReport;
    expect(d.partial).toBe(true);
    const dora = d.sections.find((s) => s.name === "dora")!;
    expect(dora.status).toBe("failed");
    expect(dora.error).toContain("401");
    expect(dora.set).toEqual(["PHCTL_GIT_TOKEN"]);
    expect(d.sections.filter((s) => s.name !== "dora").every((s) => s.status === "ok")).toBe(true);
    expect(d.ci.projects.length).toBe(2);
    expect(r.stderr).toContain("DORA metrics could not be read");
    const md = await report(["delivery", "--allow-partial"], wrong);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("DORA metrics could not be read");
    expect(md.stdout).toContain("`PHCTL_GIT_TOKEN`");
  });

  it("no token reaches any format", async () => {
    const secret = "git-secret-token-5f3a";
    const outputs: string[] = [];
    for (const kind of ["access", "delivery"])
      for (const format of ["json", "markdown", "html", "csv"]) {
        const out = join(dir, `tok-${kind}-${format}`);
        const r = await report([kind, "--format", format, "--out", out, "--allow-partial"], {
          PHCTL_GIT_TOKEN: secret,
        });
        outputs.push(r.stdout, r.stderr);
        const files =
          existsSync(out) && !out.endsWith(".csv") && format === "csv"
            ? readdirSync(out).map((f) => join(out, f))
            : [out];
        for (const f of files) outputs.push(readFileSync(f, "utf8"));
      }
    const all = outputs.join("\n");
    expect(all.length).toBeGreaterThan(1000);
    expect(all).not.toContain(secret);
    expect(all).not.toContain(REPORT_TOKEN.secret);
  });
});

/** A loopback HTTP server that answers every request with `body` (JSON, 200). */
async function answering(
  body: unknown,
): Promise<{ url: string; hits: () => number; server: Server }> {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    server,
  };
}

describe("a section that cannot be read says so; the rest renders", () => {
  it("delivery: the git host answers another shape — DORA failed (not 'no data'), its further calls stopped, --git-api-url named", async () => {
    const git = await answering({ message: "welcome", items: [] });
    try {
      const r = await report(["delivery", "--format", "json", "--git-api-url", git.url]);
      expect(r.code).toBe(1);
      const d = JSON.parse(r.stdout) as DeliveryReport;
      const dora = d.sections.find((s) => s.name === "dora")!;
      expect(dora.status).toBe("failed");
      expect(dora.set).toContain("--git-api-url");
      expect(d.dora.projects).toEqual([]);
      expect(d.sections.filter((s) => s.name !== "dora").map((s) => s.status)).toEqual([
        "ok",
        "ok",
      ]);
      // The first failure stops the section's further calls: only those already given a
      // slot were sent, fewer than the 18 (2 projects × 9) it would make.
      expect(git.hits()).toBeGreaterThanOrEqual(1);
      expect(git.hits()).toBeLessThan(18);
      expect(r.stderr).toMatch(/DORA metrics could not be read: .*; set --git-api-url/);
    } finally {
      git.server.close();
    }
  });

  it("delivery: the git host does not answer at all — DORA failed, the rest renders, exit 1", async () => {
    const gone = await answering([]);
    const url = gone.url;
    await new Promise((r) => gone.server.close(r));
    const r = await report([
      "delivery",
      "--format",
      "markdown",
      "--git-api-url",
      url,
      "--outage-timeout",
      "2s",
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("DORA metrics could not be read");
    expect(r.stdout).toContain("Pipelines per day");
    // The git host's outage pauses its own calls only: the service is never said to be down,
    // and the deadline (2 s) is the git host's, not ~20 s of retries per call.
    expect(r.stderr.trim().split("\n")).toEqual([
      expect.stringContaining("the delivery-metrics API (--git-api-url) is not answering"),
      expect.stringContaining("DORA metrics could not be read: the delivery-metrics API at"),
    ]);
    expect(r.stderr).not.toContain("the service is not answering");
  }, 60_000);

  it("access: the identity provider's search fails — last logins unknown, never 'never logged in'", async () => {
    await t.call("POST", "/_control/faults", {
      body: {
        faults: [
          { kind: "status429", operation: "metrics.usersSearch", times: 5, retryAfter: 600 },
        ],
      },
    });
    try {
      const r = await report(["access", "--format", "json", "--outage-timeout", "2s"]);
      expect(r.code).toBe(1);
      const a = JSON.parse(r.stdout) as AccessReport;
      expect(a.partial).toBe(true);
      expect(a.sections.map((s) => [s.name, s.status])).toEqual([
        ["access", "ok"],
        ["lastLogin", "failed"],
      ]);
      expect(a.rows.length).toBeGreaterThan(3);
      // Unknown is not never: no user is listed as never logged in, none as inactive, and
      // neither count is 0 (test/report/last-login-unknown.test.ts has the rest).
      const f = Object.fromEntries(a.findings.map((x) => [x.id, x.count]));
      expect(f["never-logged-in"]).toBeNull();
      expect(f["inactive-with-write"]).toBeNull();
      expect(a.users.every((u) => u.lastLogin === undefined)).toBe(true);
    } finally {
      await t.call("DELETE", "/_control/faults");
    }
  }, 90_000);
});

describe("report --format json follows schemas/report.schema.json (phctl schema report)", () => {
  it("access, delivery, and a partial delivery report validate; the CLI prints the same schema", async () => {
    const file = JSON.parse(readFileSync("schemas/report.schema.json", "utf8")) as object;
    const printed = await phctl(["schema", "report"], env, dir);
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual(file);
    const validate = new Ajv({ strict: false, allowUnionTypes: true }).compile(file);
    const reports = [
      await report(["access", "--format", "json"]),
      await report(["delivery", "--format", "json"]),
      await report(["delivery", "--format", "json", "--allow-partial"], {
        PHCTL_GIT_TOKEN: "not-the-git-token-xyz",
      }),
    ];
    for (const r of reports) {
      expect(r.code).toBe(0);
      const data = JSON.parse(r.stdout) as { kind: string };
      expect(validate(data), `${data.kind}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    // The schema can fail: a report without its rows does not validate.
    const broken = { ...(JSON.parse(reports[0].stdout) as object), rows: "none" };
    expect(validate(broken)).toBe(false);
  });
});
