import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/seed.js";
import { startServer, type TestServer } from "../helpers/server.js";

let t: TestServer;
const PO = { parentOrganization: "acme" };
beforeAll(async () => {
  t = await startServer();
  seed(t.server.ctx, {
    parentOrganization: "acme",
    users: ["ann", "ben", "cat"].map((u) => ({
      username: u,
      firstName: u,
      lastName: "X",
      externalEmail: `${u}@example.org`,
    })),
  });
  seed(t.server.ctx, {
    parentOrganization: "globex",
    users: [{ username: "gus", firstName: "Gus", lastName: "G", externalEmail: "gus@globex.org" }],
  });
});
afterAll(() => t.close());

const team = (name: string, userNames: string[], extra: Record<string, unknown> = {}) =>
  t.call("POST", "/v1/teams", {
    as: "users",
    body: { name, gitservice: true, artifactservice: false, wiki: false, userNames, ...extra },
  });

describe("create and read teams", () => {
  it("creates a team with members; the flags only categorize it", async () => {
    const r = await team("core", ["ben", "ann", "ann"]);
    expect(r.status).toBe(201);
    expect(r.body.data).toEqual({
      name: "core",
      parentOrganization: "acme",
      services: { gitservice: true, artifactservice: false, wiki: false },
      userNames: ["ann", "ben"],
      projects: [],
    });
    const got = await t.call("GET", "/v1/teams/core", { as: "member", query: PO });
    expect(got.body).toEqual({
      services: { gitservice: true, artifactservice: false, wiki: false },
      userNames: ["ann", "ben"],
      projects: [],
    });
    // a team does not grant service accounts
    expect((await t.call("GET", "/v1/users/ann/services")).body.data.git).toBeNull();
  });

  it("refuses a duplicate name (409), an unknown member (422) and another parent (422)", async () => {
    const dup = await team("core", []);
    expect(dup.status).toBe(409);
    expect(dup.body.errors[0].field).toBe("name");
    const unknown = await team("t2", ["ann", "ghost"]);
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([
      { field: "userNames", message: "user ghost does not exist" },
    ]);
    // a user of another parent organization does not exist here
    expect((await team("t3", ["gus"])).status).toBe(422);
    const foreign = await team("t4", [], { parentOrganization: "globex" });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors[0].field).toBe("parentOrganization");
    // the same name is free in another parent organization
    const other = await t.call("POST", "/v1/teams", {
      as: "other",
      body: {
        name: "core",
        gitservice: false,
        artifactservice: false,
        wiki: true,
        userNames: ["gus"],
      },
    });
    expect(other.status).toBe(201);
  });

  it("needs the caller's parentOrganization in the query of reads (404 otherwise)", async () => {
    for (const path of ["", "/services", "/users", "/projects"]) {
      const wrong = await t.call("GET", `/v1/teams/core${path}`, {
        query: { parentOrganization: "globex" },
      });
      expect(wrong.status).toBe(404);
      const missing = await t.call("GET", `/v1/teams/core${path}`);
      expect(missing.status).toBe(400);
      expect(missing.body.errors[0].field).toBe("parentOrganization");
    }
    expect((await t.call("GET", "/v1/teams/nope", { query: PO })).status).toBe(404);
    // globex's own "core" is its own
    const g = await t.call("GET", "/v1/teams/core", {
      as: "other",
      query: { parentOrganization: "globex" },
    });
    expect(g.body.userNames).toEqual(["gus"]);
  });

  it("lists teams paged, filtered by service type", async () => {
    await team("docs", [], { gitservice: false, wiki: true });
    const all = await t.call("GET", "/v1/teams", { as: "member" });
    expect(all.body.pagination).toEqual({ page: 1, limit: 10, total: 2, totalPages: 1 });
    expect(all.body.data.map((x: { name: string }) => x.name)).toEqual(["core", "docs"]);
    const wiki = await t.call("GET", "/v1/teams", { query: { serviceType: "wiki" } });
    expect(wiki.body.data.map((x: { name: string }) => x.name)).toEqual(["docs"]);
    const page2 = await t.call("GET", "/v1/teams", { query: { limit: 1, page: 2 } });
    expect(page2.body.data.map((x: { name: string }) => x.name)).toEqual(["docs"]);
    expect((await t.call("GET", "/v1/teams", { query: { serviceType: "ftp" } })).status).toBe(400);
  });
});

describe("services and members", () => {
  it("enables a service flag (there is no disable)", async () => {
    const r = await t.call("POST", "/v1/teams/core/services", {
      as: "users",
      body: { parentOrganization: "acme", service: "wiki" },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ gitservice: true, artifactservice: false, wiki: true });
    const s = await t.call("GET", "/v1/teams/core/services", { query: PO });
    expect(s.body).toEqual({ gitservice: true, artifactservice: false, wiki: true });
    const bad = await t.call("POST", "/v1/teams/core/services", {
      body: { parentOrganization: "acme", service: "irc" },
    });
    expect(bad.status).toBe(400);
    const foreign = await t.call("POST", "/v1/teams/core/services", {
      body: { parentOrganization: "globex", service: "wiki" },
    });
    expect(foreign.status).toBe(404);
    const member = await t.call("POST", "/v1/teams/core/services", {
      as: "member",
      body: { parentOrganization: "acme", service: "wiki" },
    });
    expect(member.status).toBe(403);
  });

  it("adds a member (idempotent) and removes one", async () => {
    const add = await t.call("POST", "/v1/teams/core/users/cat", { as: "users", query: PO });
    expect(add.status).toBe(200);
    expect(add.body.status.message).toBe("user cat added to team core");
    const again = await t.call("POST", "/v1/teams/core/users/cat", { query: PO });
    expect(again.status).toBe(200);
    expect(again.body.status.message).toContain("already a member");
    const users = await t.call("GET", "/v1/teams/core/users", { query: PO });
    expect(users.body.map((u: { username: string }) => u.username)).toEqual(["ann", "ben", "cat"]);
    expect(users.body[0]).toMatchObject({ email: "ann@example.org", organization: "acme" });

    const rm = await t.call("DELETE", "/v1/teams/core/users/ben", { query: PO });
    expect(rm.status).toBe(200);
    const rmAgain = await t.call("DELETE", "/v1/teams/core/users/ben", { query: PO });
    expect(rmAgain.status).toBe(404);
    expect((await t.call("GET", "/v1/teams/core", { query: PO })).body.userNames).toEqual([
      "ann",
      "cat",
    ]);
  });

  it("404s unknown users and teams, and another parent's users", async () => {
    expect((await t.call("POST", "/v1/teams/core/users/ghost", { query: PO })).status).toBe(404);
    expect((await t.call("POST", "/v1/teams/core/users/gus", { query: PO })).status).toBe(404);
    expect((await t.call("POST", "/v1/teams/nope/users/ann", { query: PO })).status).toBe(404);
    expect((await t.call("DELETE", "/v1/teams/nope/users/ann", { query: PO })).status).toBe(404);
    const member = await t.call("POST", "/v1/teams/core/users/ann", { as: "member", query: PO });
    expect(member.status).toBe(403);
  });
});

describe("projects and delete", () => {
  it("lists the projects linked to the team", async () => {
    const db = t.server.ctx.db;
    const acme = db.get<{ id: number }>("SELECT id FROM organizations WHERE name = 'acme'")!.id;
    const pid = Number(
      db.run(
        `INSERT INTO projects (slug, name, description, visibility, parent_org_id, org_id, created)
         VALUES ('tfa', 'TF-A', 'firmware', 'private', ?, ?, '2024-01-01T00:00:00.000Z')`,
        acme,
        acme,
      ).lastInsertRowid,
    );
    const tid = db.get<{ id: number }>(
      "SELECT id FROM teams WHERE name = 'core' AND parent_org_id = ?",
      acme,
    )!.id;
    db.run("INSERT INTO team_projects (team_id, project_id) VALUES (?, ?)", tid, pid);
    const r = await t.call("GET", "/v1/teams/core/projects", { as: "member", query: PO });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      {
        id: pid,
        projectSlug: "tfa",
        name: "TF-A",
        description: "firmware",
        visibility: "private",
        status: "active",
        organization: "acme",
      },
    ]);
    expect((await t.call("GET", "/v1/teams/core", { query: PO })).body.projects).toEqual(["tfa"]);
  });

  it("deletes the team only; users stay", async () => {
    expect((await t.call("DELETE", "/v1/teams/core", { as: "member" })).status).toBe(403);
    expect(
      (await t.call("DELETE", "/v1/teams/core", { query: { parentOrganization: "globex" } }))
        .status,
    ).toBe(404);
    const r = await t.call("DELETE", "/v1/teams/core", { as: "users" });
    expect(r.status).toBe(204);
    expect((await t.call("GET", "/v1/teams/core", { query: PO })).status).toBe(404);
    expect((await t.call("GET", "/v1/users/ann")).status).toBe(200);
    expect((await t.call("DELETE", "/v1/teams/core")).status).toBe(404);
    // globex's team of the same name is untouched
    const g = await t.call("GET", "/v1/teams/core", {
      as: "other",
      query: { parentOrganization: "globex" },
    });
    expect(g.status).toBe(200);
  });

  it("seeds teams with members", async () => {
    const counts = seed(t.server.ctx, {
      parentOrganization: "acme",
      teams: [{ name: "seeded", artifactservice: true, members: ["cat", "ann"] }],
    });
    expect(counts.teams).toBe(1);
    const r = await t.call("GET", "/v1/teams/seeded", { query: PO });
    expect(r.body).toEqual({
      services: { gitservice: false, artifactservice: true, wiki: false },
      userNames: ["ann", "cat"],
      projects: [],
    });
    expect(() =>
      seed(t.server.ctx, { parentOrganization: "acme", teams: [{ name: "x", members: ["gus"] }] }),
    ).toThrow("member gus of team x does not exist");
  });
});
