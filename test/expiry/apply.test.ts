/**
 * applyExpiry (src/expiry/apply.ts) on a loaded state: expired grants leave the desired lists
 * (the planner then removes them live), the others stay; an expired user loses every access
 * entry and membership and is made inactive; an expired service account is made inactive.
 * grantExpiries gives the access review the dates by project and principal.
 */
import { describe, expect, it } from "vitest";
import { loadManifestTexts } from "../../src/pipeline/load.js";
import { expiringOf, grantExpiries } from "../../src/expiry/index.js";

const DOCS = `apiVersion: phctl/v1
kind: User
metadata: { name: alice }
spec: { firstName: A, lastName: L, externalEmail: a@example.org }
---
apiVersion: phctl/v1
kind: User
metadata: { name: bob }
spec:
  firstName: B
  lastName: L
  externalEmail: b@example.org
  expires: 2026-05-31
---
apiVersion: phctl/v1
kind: User
metadata: { name: carol }
spec:
  firstName: C
  lastName: L
  externalEmail: c@example.org
  services: { git: { expires: 2026-05-31 }, artifactservice: { expires: 2026-12-31 } }
---
apiVersion: phctl/v1
kind: Project
metadata: { name: p1 }
spec:
  title: P1
  access:
    admins: [alice, { user: carol, expires: 2026-06-01 }]
    developers: { users: [bob, { user: carol, expires: 2026-05-31 }], organizationTeams: [{ team: acme/leads, expires: 2026-05-01 }] }
---
apiVersion: phctl/v1
kind: Team
metadata: { name: t1 }
spec:
  members: [alice, bob, { user: carol, expires: 2026-06-10 }]
`;

function load(now: string) {
  const r = loadManifestTexts(
    [
      { file: "phctl.yaml", content: "organization: acme\n", config: true },
      { file: "a.yaml", content: DOCS },
    ],
    { now: new Date(now) },
  );
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return r.state!;
}

describe("applyExpiry", () => {
  it("takes out what ended before today and keeps what counts today", () => {
    const s = load("2026-06-01T12:00:00Z");
    const p = s.projects[0];
    expect(p.access.admins.users).toEqual(["alice", "carol"]); // carol's last day is today
    expect(p.access.developers.users).toEqual([]); // bob (user expired), carol (grant expired)
    expect(p.access.developers.organizationTeams).toEqual([]);
    expect(s.teams[0].members).toEqual(["alice", "carol"]);
    const bob = s.users.find((u) => u.username === "bob")!;
    expect(bob.status).toBe("inactive");
    const carol = s.users.find((u) => u.username === "carol")!;
    expect(carol.services.git?.status).toBe("inactive");
    expect(carol.services.artifactservice?.status).toBe("active");
    expect(s.expiries?.get("project/p1/access/developers/user/bob")).toMatchObject({
      expired: true,
      expires: "2026-05-31",
      viaUser: "user/bob",
    });
    expect(s.expiries?.get("team/t1/member/bob")).toMatchObject({
      expired: true,
      viaUser: "user/bob",
    });
  });

  it("a day earlier, everything but the team grant counts", () => {
    const s = load("2026-05-31T00:00:00Z");
    expect(s.projects[0].access.developers).toEqual({
      users: ["bob", "carol"],
      organizationTeams: [],
    });
    expect(s.users.find((u) => u.username === "bob")!.status).toBe("active");
    const soon = expiringOf(s).map((g) => [g.key, g.status, g.daysLeft]);
    expect(soon).toEqual([
      ["project/p1/access/developers/team/acme/leads", "expired", -30],
      ["project/p1/access/developers/user/carol", "expiring", 0],
      ["user/bob", "expiring", 0],
      ["user/carol/service/git", "expiring", 0],
      ["project/p1/access/admins/user/carol", "expiring", 1],
      ["team/t1/member/carol", "expiring", 10],
    ]);
  });

  it("grantExpiries gives the dates by project and principal, team and user", () => {
    const e = grantExpiries(load("2026-01-01T00:00:00Z"));
    expect(e.projects.get("p1")?.get("user/carol")).toEqual([
      { level: "admins", expires: "2026-06-01" },
      { level: "developers", expires: "2026-05-31" },
    ]);
    expect(e.projects.get("p1")?.get("team/acme/leads")).toEqual([
      { level: "developers", expires: "2026-05-01" },
    ]);
    expect(e.teams.get("t1")?.get("carol")).toBe("2026-06-10");
    expect(e.users.get("bob")).toBe("2026-05-31");
  });
});
