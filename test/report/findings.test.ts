/** The access review's findings (one case each), the 2023 DORA bands, spans and --since. */
import { describe, expect, it } from "vitest";
import { buildAccess, type AccessInput } from "../../src/report/access.js";
import { bandOf } from "../../src/report/bands.js";
import { accessChanges, parsePrevious } from "../../src/report/since.js";
import { parseSpan, periods } from "../../src/report/span.js";
import { median, percentile, ratio } from "../../src/report/stats.js";
import type { FindingId } from "../../src/report/types.js";
import type { DesiredState } from "../../src/manifest/types.js";

const NOW = Date.parse("2025-06-01T00:00:00Z");
const DAY = 86_400_000;
const ago = (d: number) => new Date(NOW - d * DAY).toISOString();

const noLevels = () => ({ users: [] as string[], organizationTeams: [] as string[] });
function project(
  slug: string,
  organization: string,
  roles: Record<string, string[]>,
  teams: Record<string, string[]> = {},
) {
  return {
    id: 1,
    projectSlug: slug,
    name: slug,
    description: "",
    visibility: "public",
    status: "active",
    restrictionLevel: "",
    externalContribution: false,
    eccn: "",
    parentOrganization: "acme",
    organization,
    roles: {
      admins: [],
      controllers: [],
      editors: [],
      maintainers: [],
      developers: [],
      reporters: [],
      ...roles,
      organizationTeams: { maintainers: [], developers: [], reporters: [], ...teams },
    },
    licenses: [],
    links: { gitGroup: null, sshGroup: null },
    created: ago(400),
  } as AccessInput["projects"][number];
}
const liveUser = (username: string, organization = "acme") =>
  ({
    username,
    organization,
    role: "member",
    status: "active",
    dateCreated: ago(500),
  }) as AccessInput["users"][number];

function state(declared: Record<string, Record<string, string[]>> = {}): DesiredState {
  return {
    users: [],
    teams: [],
    projects: Object.entries(declared).map(([slug, access]) => ({
      slug,
      access: Object.fromEntries(
        ["admins", "controllers", "editors", "maintainers", "developers", "reporters"].map((l) => [
          l,
          { ...noLevels(), users: access[l] ?? [] },
        ]),
      ),
    })),
  } as unknown as DesiredState;
}

function input(o: Partial<AccessInput>): AccessInput {
  return {
    state: state(),
    parentOrganization: "acme",
    organizations: [
      { id: 1, name: "acme", parentOrganization: null },
      { id: 2, name: "partner", parentOrganization: "acme" },
    ] as unknown as AccessInput["organizations"],
    users: [],
    logins: { seen: new Map(), failed: [] },
    teams: [],
    orgTeams: [],
    projects: [],
    nowMs: NOW,
    inactiveDays: 90,
    serviceAccountPatterns: ["*-bot"],
    ...o,
  };
}
const seen = (entries: [string, string | null][]): AccessInput["logins"] => ({
  seen: new Map(entries),
  failed: [],
});
const rowsOf = (i: AccessInput, id: FindingId) =>
  buildAccess(i).findings.find((f) => f.id === id)!.rows;

describe("findings", () => {
  it("inactive ≥ N days with write or admin: not a reader, not a recent user", () => {
    const i = input({
      users: ["old", "reader", "recent"].map((u) => liveUser(u)),
      logins: seen([
        ["old", ago(90)],
        ["reader", ago(300)],
        ["recent", ago(89)],
      ]),
      projects: [project("p", "acme", { admins: ["old", "recent"], reporters: ["reader"] })],
    });
    expect(rowsOf(i, "inactive-with-write").map((r) => r.principal)).toEqual(["old"]);
    const failed = { ...i, logins: { seen: new Map(), failed: [{ organization: "acme", error: "503" }] } }; // prettier-ignore
    expect(rowsOf(failed, "inactive-with-write")).toEqual([]);
  });

  it("never logged in", () => {
    const i = input({
      users: [liveUser("a"), liveUser("b")],
      logins: seen([
        ["a", null],
        ["b", ago(1)],
      ]),
    });
    expect(rowsOf(i, "never-logged-in").map((r) => r.principal)).toEqual(["a"]);
  });

  it("projects with fewer than two admins, or none", () => {
    const i = input({
      projects: [
        project("none", "acme", {}),
        project("one", "acme", { admins: ["x"] }),
        project("two", "acme", { admins: ["x", "y"] }),
      ],
    });
    expect(rowsOf(i, "projects-under-two-admins").map((r) => [r.project, r.detail])).toEqual([
      ["none", "no admin"],
      ["one", "one admin: x"],
    ]);
  });

  it("access granted live but absent from the manifests", () => {
    const i = input({
      state: state({ p: { admins: ["a"] } }),
      projects: [
        project("p", "acme", { admins: ["a", "b"] }),
        project("q", "acme", { reporters: ["a"] }),
      ],
    });
    expect(rowsOf(i, "live-only-access").map((r) => `${r.principal} ${r.project}`)).toEqual([
      "b p",
      "a q",
    ]);
  });

  it("customer organizations with write on the parent's projects, users and organization teams", () => {
    const i = input({
      users: [liveUser("c", "partner"), liveUser("r", "partner")],
      orgTeams: [
        { id: "1", org_name: "partner", name: "T", path: "partner/t", created_date: ago(9) },
      ],
      projects: [
        project(
          "p",
          "acme",
          { developers: ["c"], reporters: ["r"] },
          { maintainers: ["partner/t"] },
        ),
        project("own", "partner", { admins: ["c"] }),
      ],
    });
    expect(rowsOf(i, "customer-write-on-parent").map((r) => `${r.principal} ${r.level}`)).toEqual([
      "partner/t maintainers",
      "c developers",
    ]);
  });

  it("service accounts with admin", () => {
    const i = input({
      users: [liveUser("deploy-bot"), liveUser("lint-bot"), liveUser("human")],
      projects: [
        project("p", "acme", { admins: ["deploy-bot", "human"], developers: ["lint-bot"] }),
      ],
    });
    expect(rowsOf(i, "service-account-admin").map((r) => r.principal)).toEqual(["deploy-bot"]);
  });
});

describe("a last-login search that fails (issue 34, defect 6)", () => {
  // a and n are acme's, p and q partner's; a and p hold admin and last logged in long ago,
  // n and q never did.
  const users = [liveUser("a"), liveUser("n"), liveUser("p", "partner"), liveUser("q", "partner")];
  const projects = [project("x", "acme", { admins: ["a", "p"] })];
  const all: [string, string | null][] = [
    ["a", ago(200)],
    ["n", null],
    ["p", ago(300)],
    ["q", null],
  ];
  const known = input({ users, projects, logins: seen(all) });
  /** acme's search failed; partner's listed its own users. */
  const acmeFailed = input({
    users,
    projects,
    logins: {
      seen: new Map(all.filter(([u]) => u === "p" || u === "q")),
      failed: [{ organization: "acme", error: "GET …: 503 UNAVAILABLE" }],
    },
  });
  const finding = (i: AccessInput, id: FindingId) => buildAccess(i).findings.find((f) => f.id === id)!; // prettier-ignore

  it("the login findings are unknown (null, and why), never 0; the rows of users read are kept", () => {
    for (const [id, found] of [
      ["inactive-with-write", "p"],
      ["never-logged-in", "q"],
    ] as const) {
      const f = finding(acmeFailed, id);
      expect(f.count, id).toBeNull();
      expect(f.unknown, id).toEqual({
        organizations: ["acme"],
        reason: "the last-login search of organization acme failed (GET …: 503 UNAVAILABLE)",
      });
      expect(
        f.rows.map((r) => r.principal),
        id,
      ).toEqual([found]);
      expect(finding(known, id).count, id).toBe(2);
      expect(finding(known, id).unknown, id).toBeUndefined();
    }
    // Findings that need no last login are counted as ever.
    expect(finding(acmeFailed, "projects-under-two-admins").count).toBe(0);
    const data = buildAccess(acmeFailed);
    expect(data.users.map((u) => [u.username, u.lastLogin === undefined ? "unknown" : u.lastLogin === null ? "never" : "day"])).toEqual([["a", "unknown"], ["n", "unknown"], ["p", "day"], ["q", "never"]]); // prettier-ignore
    expect(data.rows.find((r) => r.principal === "a")?.lastLogin).toBeUndefined();
  });

  it("a customer's search fails but the parent's lists every user: nothing is unknown", () => {
    const i = input({
      users,
      projects,
      logins: { seen: new Map(all), failed: [{ organization: "partner", error: "timeout" }] },
    });
    expect(finding(i, "never-logged-in")).toMatchObject({ count: 2 });
    expect(finding(i, "never-logged-in").unknown).toBeUndefined();
  });

  it("names the organizations that failed alike together", () => {
    const i = input({
      users,
      logins: {
        seen: new Map(),
        failed: [
          { organization: "acme", error: "429 RATE_LIMITED" },
          { organization: "partner", error: "429 RATE_LIMITED" },
        ],
      },
    });
    expect(finding(i, "never-logged-in").unknown?.reason).toBe(
      "the last-login search of organizations acme and partner failed (429 RATE_LIMITED)",
    );
  });

  it("--since: a failed search resolves nothing and a row first checked now is not new", () => {
    const json = (i: AccessInput) =>
      JSON.stringify({ formatVersion: 1, kind: "access", generatedAt: ago(30), ...buildAccess(i) }); // prettier-ignore
    const c = accessChanges(parsePrevious("prev.json", json(known)), buildAccess(acmeFailed));
    expect(c.resolvedFindings).toEqual([]);
    expect(c.newFindings).toEqual([]);
    expect(
      c.notChecked?.map((f) => [f.id, f.rows.map((r) => [r.principal, r.detail.split(";")[0]])]),
    ).toEqual([
      // prettier-ignore
      ["inactive-with-write", [["a", "not checked: the last-login search of organization acme failed"]]], // prettier-ignore
      ["never-logged-in", [["n", "not checked: the last-login search of organization acme failed"]]], // prettier-ignore
    ]);
    // The other way: last month's search failed, this month's answered.
    const back = accessChanges(parsePrevious("prev.json", json(acmeFailed)), buildAccess(known));
    expect(back.newFindings).toEqual([]);
    expect(back.resolvedFindings).toEqual([]);
    expect(back.notChecked?.flatMap((f) => f.rows.map((r) => r.principal))).toEqual(["a", "n"]);
    expect(back.notChecked?.[0].rows[0].detail).toMatch(/^not checked on \d{4}-\d\d-\d\d \(that review could not read the last login\); now: last login /); // prettier-ignore
  });

  it("--since reads a report written before unknown existed (no users, every count a number)", () => {
    const old = { formatVersion: 1, kind: "access", generatedAt: ago(30), rows: [], findings: [{ id: "never-logged-in", title: "Users who never logged in", count: 1, rows: [{ principal: "n", detail: "created" }] }] }; // prettier-ignore
    const c = accessChanges(
      parsePrevious("old.json", JSON.stringify(old)),
      buildAccess(acmeFailed),
    );
    expect(c.resolvedFindings).toEqual([]);
    expect(c.notChecked?.[0].rows.map((r) => r.principal)).toEqual(["n"]);
    const fine = accessChanges(parsePrevious("old.json", JSON.stringify(old)), buildAccess(input({ users, logins: seen(all.map(([u]) => [u, ago(1)])) }))); // prettier-ignore
    expect(fine.resolvedFindings.map((f) => f.rows.map((r) => r.principal))).toEqual([["n"]]);
  });
});

describe("DORA bands (2023)", () => {
  it.each([
    ["deployment_frequency", 2, "elite"],
    ["deployment_frequency", 1 / 7, "high"],
    ["deployment_frequency", 1 / 20, "medium"],
    ["deployment_frequency", 1 / 60, "low"],
    ["lead_time_for_changes", 3600, "elite"],
    ["lead_time_for_changes", 3 * 86_400, "high"],
    ["lead_time_for_changes", 20 * 86_400, "medium"],
    ["lead_time_for_changes", 40 * 86_400, "low"],
    ["time_to_restore_service", 1800, "elite"],
    ["time_to_restore_service", 7200, "high"],
    ["time_to_restore_service", 3 * 86_400, "medium"],
    ["time_to_restore_service", 30 * 86_400, "low"],
    ["change_failure_rate", 0.05, "elite"],
    ["change_failure_rate", 0.08, "high"],
    ["change_failure_rate", 0.15, "medium"],
    ["change_failure_rate", 0.4, "low"],
  ] as const)("%s %d is %s", (metric, value, band) => {
    expect(bandOf(metric, value)).toBe(band);
  });
  it("no data has no band", () => {
    expect(bandOf("change_failure_rate", null)).toBeNull();
  });
});

describe("spans, statistics and --since", () => {
  it("parses d/w/m and refuses other units", () => {
    expect(parseSpan("--inactive", "90d")).toEqual({ count: 90, unit: "d" });
    expect(() => parseSpan("--inactive", "90y")).toThrow(/--inactive must be/);
    expect(() => parseSpan("--inactive", "0d")).toThrow(/--inactive must be/);
    // Periods end at the last full day (NOW is 2025-06-01, 00:00 UTC): today is left out.
    const p = periods({ count: 3, unit: "m" }, NOW);
    expect(p.current).toEqual({ start: "2025-03-01", end: "2025-05-31", days: 92 });
    expect(p.previous).toEqual({ start: "2024-12-01", end: "2025-02-28", days: 90 });
  });
  it("no data is null, never zero", () => {
    expect([median([]), percentile([], 95), ratio(0, 0)]).toEqual([null, null, null]);
    expect(median([3, 1, 2, 10])).toBe(2.5);
    expect(
      percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 100], 95),
    ).toBe(19);
  });
  it("--since: granted, revoked, new and resolved findings; a bad file in one line", () => {
    const before = buildAccess(input({ projects: [project("p", "acme", { admins: ["a"] })] }));
    const after = buildAccess(input({ projects: [project("p", "acme", { admins: ["a", "b"] })] }));
    const prev = parsePrevious(
      "prev.json",
      JSON.stringify({ formatVersion: 1, kind: "access", generatedAt: ago(30), ...before }),
    );
    const c = accessChanges(prev, after);
    expect(c.granted.map((r) => r.principal)).toEqual(["b"]);
    expect(c.revoked).toEqual([]);
    expect(c.resolvedFindings.map((f) => f.id)).toEqual(["projects-under-two-admins"]);
    expect(c.newFindings.map((f) => f.id)).toEqual(["live-only-access"]);
    expect(() => parsePrevious("x.json", "{")).toThrow(/--since x.json is not JSON/);
    expect(() => parsePrevious("x.json", '{"kind":"delivery"}')).toThrow(/not an access report/);
  });
});
