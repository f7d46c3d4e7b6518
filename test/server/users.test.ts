import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/seed.js";
import { startServer, type TestServer } from "../helpers/server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startServer({ queueDelayMs: 2000 });
  await t.call("POST", "/v1/organization", { body: { organization: "acme-partner" } });
  await t.call("POST", "/v1/organization", { as: "other", body: { organization: "globex-sub" } });
});
afterAll(() => t.close());

/**
 * Jobs stay open for 2 s, so a test can see the open state even on a loaded machine; then
 * run them at once (the same effect the worker applies) and read the final status.
 */
function settle(statusPath: string) {
  t.server.ctx.queue.drain();
  return t.waitJob(statusPath);
}

const newUser = (externalEmail: string, extra: Record<string, unknown> = {}) =>
  t.call("POST", "/v1/users", {
    as: "users",
    body: { firstName: "Jane", lastName: "Doe", externalEmail, ...extra },
  });

describe("create user", () => {
  it("applies the defaults: parent organization, member, email = externalEmail", async () => {
    const r = await newUser("jane@example.org", { username: "jdoe" });
    expect(r.status).toBe(201);
    expect(r.body.status).toEqual({ code: 201, message: "user created" });
    expect(r.body.data).toMatchObject({
      username: "jdoe",
      displayName: "Jane Doe",
      email: "jane@example.org",
      externalEmail: "jane@example.org",
      parentOrganization: "acme",
      organization: "acme",
      role: "member",
      status: "active",
      active: "true",
      dateLastAccessed: null,
    });
    expect(r.body.data.dateCreated).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it("derives a unique username from the email's local part", async () => {
    const a = await newUser("Max.Mustermann+dev@example.org");
    expect(a.body.data.username).toBe("max.mustermann-dev");
    const b = await newUser("max.mustermann+dev@example.com");
    expect(b.status).toBe(201);
    expect(b.body.data.username).toBe("max.mustermann-dev-2");
    const c = await newUser("__@example.net");
    expect(c.body.data.username).toBe("user");
  });

  it("takes a partner organization of the same parent, and refuses unknown ones with 422", async () => {
    const r = await newUser("p1@partner.org", {
      organization: "acme-partner",
      role: "users-admin",
    });
    expect(r.body.data).toMatchObject({ organization: "acme-partner", role: "users-admin" });
    const unknown = await newUser("p2@partner.org", { organization: "nope" });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].field).toBe("organization");
    // an organization of another parent organization does not exist for this caller
    const foreign = await newUser("p3@partner.org", { organization: "globex-sub" });
    expect(foreign.status).toBe(422);
  });

  it("refuses a duplicate username or email (case-insensitive) with 409 naming the field", async () => {
    await newUser("dup@example.org", { username: "dupe" });
    const sameName = await newUser("other@example.org", { username: "dupe" });
    expect(sameName.status).toBe(409);
    expect(sameName.body.errors).toEqual([
      { field: "username", message: "username dupe is already taken" },
    ]);
    const sameEmail = await newUser("DUP@Example.org");
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.errors[0]).toMatchObject({ field: "externalEmail" });
    expect(sameEmail.body.status.message).toContain("already in use");
  });

  it("validates the body (400 with field errors)", async () => {
    const r = await t.call("POST", "/v1/users", {
      body: { firstName: "A", lastName: "B", externalEmail: "not-an-email" },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe("externalEmail");
  });

  it("needs users-admin or system-admin", async () => {
    for (const who of ["member", "projects"] as const) {
      const r = await t.call("POST", "/v1/users", {
        as: who,
        body: { firstName: "A", lastName: "B", externalEmail: `${who}@x.org` },
      });
      expect(r.status).toBe(403);
    }
    expect((await newUser("ok-admin@x.org", { username: "by-admin" })).status).toBe(201);
  });
});

describe("read and update user", () => {
  it("reads a user; another parent organization gets 404", async () => {
    const r = await t.call("GET", "/v1/users/jdoe", { as: "member" });
    expect(r.status).toBe(200);
    expect(r.body.data.username).toBe("jdoe");
    expect((await t.call("GET", "/v1/users/jdoe", { as: "other" })).status).toBe(404);
    expect((await t.call("GET", "/v1/users/nobody")).status).toBe(404);
  });

  it("replaces and patches the mutable fields", async () => {
    await newUser("rep@example.org", { username: "rep", displayName: "Rep" });
    const put = await t.call("PUT", "/v1/users/rep", {
      as: "users",
      body: { firstName: "Ray", lastName: "Parker", role: "projects-admin" },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      firstName: "Ray",
      lastName: "Parker",
      displayName: "Rep",
      role: "projects-admin",
    });
    const patch = await t.call("PATCH", "/v1/users/rep", { body: { status: "inactive" } });
    expect(patch.body.data).toMatchObject({
      status: "inactive",
      active: "false",
      firstName: "Ray",
    });
    const missing = await t.call("PUT", "/v1/users/rep", { body: { firstName: "X" } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]).toEqual({ field: "lastName", message: "is required" });
  });

  it("keeps username and email immutable (422 with the reason)", async () => {
    for (const field of ["username", "email", "externalEmail"]) {
      const r = await t.call("PATCH", "/v1/users/rep", { body: { [field]: "x@y.org" } });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].field).toBe(field);
      expect(r.body.errors[0].message).toContain("cannot be changed");
    }
    expect((await t.call("GET", "/v1/users/rep")).body.data.email).toBe("rep@example.org");
  });

  it("404s an update of another parent organization's user", async () => {
    const r = await t.call("PATCH", "/v1/users/jdoe", { as: "other", body: { role: "member" } });
    expect(r.status).toBe(404);
  });
});

describe("list users", () => {
  beforeAll(() => {
    seed(t.server.ctx, {
      parentOrganization: "acme",
      users: [
        {
          username: "zz-old",
          firstName: "Old",
          lastName: "Timer",
          externalEmail: "old@zz.org",
          dateCreated: "2020-01-15T10:00:00.000Z",
          services: { git: {} },
        },
        {
          username: "zz-older",
          firstName: "Older",
          lastName: "Timer",
          externalEmail: "older@zz.org",
          dateCreated: "2019-06-01T10:00:00.000Z",
          role: "system-admin",
          status: "inactive",
        },
        ...["a", "b", "c"].map((x) => ({
          username: `filler-${x}`,
          firstName: "Fill",
          lastName: x,
          externalEmail: `filler-${x}@example.org`,
        })),
      ],
    });
  });

  it("pages with a default size of 10 and answers all=true in one page", async () => {
    const all = await t.call("GET", "/v1/users", { query: { all: true } });
    expect(all.status).toBe(200);
    const n = all.body.data.length;
    expect(n).toBeGreaterThan(10);
    expect(all.body.pagination).toEqual({ page: 1, limit: n, total: n, totalPages: 1 });
    const p1 = await t.call("GET", "/v1/users", { as: "member" });
    expect(p1.body.data).toHaveLength(10);
    expect(p1.body.pagination).toEqual({
      page: 1,
      limit: 10,
      total: n,
      totalPages: Math.ceil(n / 10),
    });
    const p2 = await t.call("GET", "/v1/users", { query: { page: 2, limit: 10 } });
    expect(p2.body.data[0].username).toBe(all.body.data[10].username);
    const names = all.body.data.map((u: { username: string }) => u.username);
    expect(names).toEqual([...names].sort());
  });

  it("filters by organization, service, role, status and keyword", async () => {
    const names = async (query: Record<string, string>) =>
      (await t.call("GET", "/v1/users", { query: { ...query, all: true } })).body.data.map(
        (u: { username: string }) => u.username,
      );
    expect(await names({ organization: "acme-partner" })).toEqual(["p1"]);
    expect(await names({ service: "git" })).toEqual(["zz-old"]);
    expect(await names({ service: "gitservice" })).toEqual(["zz-old"]);
    expect(await names({ role: "system-admin" })).toEqual(["zz-older"]);
    expect(await names({ status: "inactive" })).toEqual(["rep", "zz-older"]);
    expect(await names({ query: "TIMER" })).toEqual(["zz-old", "zz-older"]);
    expect(await names({ query: "old@zz" })).toEqual(["zz-old"]);
    expect(await names({ query: "%" })).toEqual([]);
  });

  it("filters by creation date or range", async () => {
    const names = async (createdAt: string) =>
      (await t.call("GET", "/v1/users", { query: { createdAt, all: true } })).body.data.map(
        (u: { username: string }) => u.username,
      );
    expect(await names("2020-01-15")).toEqual(["zz-old"]);
    expect(await names("2019-01-01 TO 2020-01-15")).toEqual(["zz-old", "zz-older"]);
    expect(await names("2019-01-01 TO 2020-01-14")).toEqual(["zz-older"]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await names(today)).toContain("jdoe");
  });

  it("answers 400 for a malformed filter", async () => {
    for (const [k, v] of [
      ["createdAt", "yesterday"],
      ["createdAt", "2020-02-01 TO 2020-01-01"],
      ["role", "owner"],
      ["status", "gone"],
      ["service", "ftp"],
    ]) {
      const r = await t.call("GET", "/v1/users", { query: { [k]: v } });
      expect(r.status).toBe(400);
      expect(r.body.errors[0].field).toBe(k);
    }
  });

  it("shows only the caller's parent organization", async () => {
    const r = await t.call("GET", "/v1/users", { as: "other", query: { all: true } });
    expect(r.body.data).toEqual([]);
  });
});

describe("send_welcome", () => {
  it("mails the user the password link and the list of services", async () => {
    seed(t.server.ctx, {
      parentOrganization: "acme",
      users: [
        {
          username: "welcomed",
          firstName: "Wel",
          lastName: "Come",
          externalEmail: "w@example.org",
          email: "welcomed@acme.example.org",
          services: { wiki: {}, git: {} },
        },
      ],
    });
    const r = await t.call("POST", "/v1/users/welcomed/send_welcome", { as: "users" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      info: { sentTo: "welcomed@acme.example.org", services: ["git", "wiki"] },
    });
    const mail = t.server.ctx.outbox.list().at(-1)!;
    expect(mail).toMatchObject({ kind: "welcome", recipients: ["welcomed@acme.example.org"] });
    expect(mail.body).toContain("Your services: git, wiki.");
    expect(mail.body).toContain("password");
    expect((await t.call("POST", "/v1/users/welcomed/send_welcome", { as: "member" })).status).toBe(
      403,
    );
    expect((await t.call("POST", "/v1/users/welcomed/send_welcome", { as: "other" })).status).toBe(
      404,
    );
  });
});

describe("transfer", () => {
  const orgId = async (name: string, as: "admin" | "other" = "admin") =>
    (await t.call("GET", "/v1/organization/list", { as })).body.find(
      (o: { name: string }) => o.name === name,
    ).id as number;

  it("moves the user once the transfer job completes", async () => {
    await newUser("mover@example.org", { username: "mover" });
    const target = await orgId("acme-partner");
    const r = await t.call("POST", "/v1/users/mover/organization", {
      as: "users",
      body: { org_id: target },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      code: 201,
      description: expect.stringContaining("acme-partner"),
    });
    const path = `/v1/users/organization/queue/${r.body.queueid}/status`;
    const open = await t.call("GET", path, { as: "member" });
    expect(open.body).toEqual({
      id: r.body.queueid,
      action: "transfer",
      username: "mover",
      org_id: target,
      status: "open",
      message: null,
    });
    expect((await t.call("GET", "/v1/users/mover")).body.data.organization).toBe("acme");
    const done = await settle(path);
    expect(done.status).toBe("completed");
    expect((await t.call("GET", "/v1/users/mover")).body.data.organization).toBe("acme-partner");
    expect((await t.call("GET", path, { as: "other" })).status).toBe(404);
  });

  it("refuses an organization of another parent organization with 422", async () => {
    const foreign = await orgId("globex-sub", "other");
    const r = await t.call("POST", "/v1/users/mover/organization", { body: { org_id: foreign } });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].field).toBe("org_id");
  });

  it("a failing transfer job carries its message", async () => {
    t.server.ctx.queue.failNext({ queue: "transfer", message: "identity provider unavailable" });
    const r = await t.call("POST", "/v1/users/mover/organization", {
      body: { org_id: await orgId("acme") },
    });
    const job = await settle(`/v1/users/organization/queue/${r.body.queueid}/status`);
    expect(job).toMatchObject({ status: "failed", message: "identity provider unavailable" });
    expect((await t.call("GET", "/v1/users/mover")).body.data.organization).toBe("acme-partner");
  });
});

describe("projects and services of a user", () => {
  it("lists projects the user has access to, with teamContain adding the teams' projects", async () => {
    const db = t.server.ctx.db;
    const acme = db.get<{ id: number }>("SELECT id FROM organizations WHERE name = 'acme'")!.id;
    const addProject = (slug: string) =>
      Number(
        db.run(
          `INSERT INTO projects (slug, name, description, visibility, parent_org_id, org_id, created)
           VALUES (?, ?, 'd', 'public', ?, ?, '2024-01-01T00:00:00.000Z')`,
          slug,
          slug.toUpperCase(),
          acme,
          acme,
        ).lastInsertRowid,
      );
    const direct = addProject("p-direct");
    const viaTeam = addProject("p-team");
    const jdoe = db.get<{ id: number }>("SELECT id FROM users WHERE username = 'jdoe'")!.id;
    db.run(
      "INSERT INTO project_access (project_id, level, user_id) VALUES (?, 'admins', ?)",
      direct,
      jdoe,
    );
    db.run(
      "INSERT INTO project_access (project_id, level, user_id) VALUES (?, 'developers', ?)",
      direct,
      jdoe,
    );
    await t.call("POST", "/v1/teams", {
      body: {
        name: "pt",
        gitservice: true,
        artifactservice: false,
        wiki: false,
        userNames: ["jdoe"],
      },
    });
    const team = db.get<{ id: number }>("SELECT id FROM teams WHERE name = 'pt'")!.id;
    db.run("INSERT INTO team_projects (team_id, project_id) VALUES (?, ?)", team, viaTeam);

    const r = await t.call("GET", "/v1/users/jdoe/projects", { as: "member" });
    expect(r.status).toBe(200);
    expect(r.body.pagination.total).toBe(1);
    expect(r.body.data).toEqual([
      {
        id: direct,
        projectSlug: "p-direct",
        name: "P-DIRECT",
        description: "d",
        visibility: "public",
        status: "active",
        organization: "acme",
      },
    ]);
    const withTeams = await t.call("GET", "/v1/users/jdoe/projects", {
      query: { teamContain: true },
    });
    expect(withTeams.body.data.map((p: { projectSlug: string }) => p.projectSlug)).toEqual([
      "p-direct",
      "p-team",
    ]);
    expect((await t.call("GET", "/v1/users/jdoe/projects", { as: "other" })).status).toBe(404);
  });

  it("lists all six services, null when absent", async () => {
    const r = await t.call("GET", "/v1/users/welcomed/services", { as: "member" });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.data).sort()).toEqual(
      ["artifactservice", "email", "git", "irc", "servicedesk", "wiki"].sort(),
    );
    expect(r.body.data.git).toMatchObject({
      username: "welcomed",
      service: "git",
      status: "active",
    });
    expect(r.body.data.email).toBeNull();
    expect((await t.call("GET", "/v1/users/welcomed/services", { as: "other" })).status).toBe(404);
  });
});

describe("entitlement status", () => {
  it("answers jobs of other sections from their payload", async () => {
    const q = t.server.ctx.queue;
    q.register("test.access.add", () => undefined);
    const acme = t.server.ctx.db.get<{ id: number }>(
      "SELECT id FROM organizations WHERE name = 'acme'",
    )!.id;
    const id = q.enqueue(
      "entitlement",
      "test.access.add",
      { username: "jdoe", projectSlug: "p-direct", level: "developers" },
      acme,
    );
    const job = await settle(`/v1/users/service/entitlement/queue/${id}/status`);
    expect(job).toEqual({
      id,
      action: "test.access.add",
      username: "jdoe",
      service: "developers",
      status: "completed",
      message: null,
    });
    const bare = q.enqueue("entitlement", "test.access.add", {}, acme);
    const r = await t.call("GET", `/v1/users/service/entitlement/queue/${bare}/status`);
    expect(r.body).toMatchObject({ username: "", service: "", status: "open" });
    expect(
      (await t.call("GET", `/v1/users/service/entitlement/queue/${id}/status`, { as: "other" }))
        .status,
    ).toBe(404);
    expect((await t.call("GET", "/v1/users/service/entitlement/queue/nope/status")).status).toBe(
      404,
    );
  });
});
