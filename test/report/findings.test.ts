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
    logins: new Map(),
    teams: [],
    orgTeams: [],
    projects: [],
    nowMs: NOW,
    inactiveDays: 90,
    serviceAccountPatterns: ["*-bot"],
    ...o,
  };
}
const rowsOf = (i: AccessInput, id: FindingId) =>
  buildAccess(i).findings.find((f) => f.id === id)!.rows;

describe("findings", () => {
  it("inactive ≥ N days with write or admin: not a reader, not a recent user", () => {
    const i = input({
      users: ["old", "reader", "recent"].map((u) => liveUser(u)),
      logins: new Map([
        ["old", ago(90)],
        ["reader", ago(300)],
        ["recent", ago(89)],
      ]),
      projects: [project("p", "acme", { admins: ["old", "recent"], reporters: ["reader"] })],
    });
    expect(rowsOf(i, "inactive-with-write").map((r) => r.principal)).toEqual(["old"]);
    expect(rowsOf({ ...i, logins: undefined }, "inactive-with-write")).toEqual([]);
  });

  it("never logged in", () => {
    const i = input({
      users: [liveUser("a"), liveUser("b")],
      logins: new Map([
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
    const p = periods({ count: 3, unit: "m" }, NOW);
    expect(p.current).toEqual({ start: "2025-03-02", end: "2025-06-01", days: 92 });
    expect(p.previous.end).toBe("2025-03-01");
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
