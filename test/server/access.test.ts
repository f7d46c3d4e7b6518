import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/seed.js";
import { startServer, type TestServer } from "../helpers/server.js";

let t: TestServer;
beforeAll(async () => {
  // Jobs stay open until a test drains the queue, so the open state is observed
  // deterministically however slow the machine is.
  t = await startServer({ queueDelayMs: 600_000 });
  seed(t.server.ctx, {
    parentOrganization: "acme",
    organizations: [{ name: "partner", parent: "acme" }],
    orgTeams: [
      { organization: "acme", name: "Core", path: "acme/core" },
      { organization: "partner", name: "Ops", path: "ops" },
      { organization: "globex", name: "Theirs", path: "globex/theirs" },
    ],
    users: [
      {
        username: "ann",
        firstName: "Ann",
        lastName: "A",
        displayName: "Ann A",
        externalEmail: "ann@x.org",
      },
      {
        username: "wendy",
        firstName: "Wendy",
        lastName: "W",
        displayName: "Wendy W",
        externalEmail: "wendy@x.org",
        services: { wiki: { status: "active" } },
      },
      {
        username: "ivan",
        firstName: "Ivan",
        lastName: "I",
        externalEmail: "ivan@x.org",
        services: { wiki: { status: "inactive" } },
      },
      {
        username: "gus",
        firstName: "Gus",
        lastName: "G",
        externalEmail: "gus@x.org",
        parentOrganization: "globex",
      },
    ],
    projects: [{ slug: "p1", name: "P1" }],
  });
  seed(t.server.ctx, { parentOrganization: "globex", projects: [{ slug: "gp", name: "GP" }] });
});
afterAll(() => t.close());

const roles = async () => (await t.call("GET", "/v1/projects/p1")).body.data.roles;
const entitlement = (id: string) => `/v1/users/service/entitlement/queue/${id}/status`;
const orgTeamJob = (id: string) => `/v1/organization/teams/queue/${id}/status`;
/** Run every open job now, then read the job's status. */
const finish = async (statusPath: string) => {
  t.server.ctx.queue.drain();
  return (await t.call("GET", statusPath)).body;
};

describe("adding and removing users", () => {
  it("adds admins and controllers at once (200, status only)", async () => {
    for (const level of ["admins", "controllers"]) {
      const r = await t.call("POST", `/v1/projects/p1/${level}/users/ann`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        status: { code: 200, message: `user ann added to ${level} of project p1` },
      });
    }
    const r = await roles();
    expect(r.admins).toEqual(["ann"]);
    expect(r.controllers).toEqual(["ann"]);
  });

  it("queues developers through the entitlement queue; visible once completed", async () => {
    const r = await t.call("POST", "/v1/projects/p1/developers/users/ann");
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      code: 201,
      description: "adding user ann to developers of project p1 queued",
    });
    const open = await t.call("GET", entitlement(r.body.queueid));
    expect(open.body).toMatchObject({
      status: "open",
      action: "access.add",
      username: "ann",
      service: "project:p1:developers",
    });
    expect((await roles()).developers).toEqual([]);
    // the same add while the first is open is a conflict, not a second job
    const dup = await t.call("POST", "/v1/projects/p1/developers/users/ann");
    expect(dup.status).toBe(409);
    expect(dup.body.status.message).toContain(r.body.queueid);
    const done = await finish(entitlement(r.body.queueid));
    expect(done).toMatchObject({ status: "completed", message: null });
    expect((await roles()).developers).toEqual(["ann"]);
  });

  it("answers 409 for a user already at the level", async () => {
    const r = await t.call("POST", "/v1/projects/p1/admins/users/ann");
    expect(r.status).toBe(409);
    expect(r.body.status.message).toBe("user ann is already in admins of project p1");
    const q = await t.call("POST", "/v1/projects/p1/developers/users/ann");
    expect(q.status).toBe(409);
  });

  it("a failing job carries its message and changes nothing", async () => {
    t.server.ctx.queue.failNext({
      queue: "entitlement",
      action: "access.add",
      message: "git host refused the member",
    });
    const r = await t.call("POST", "/v1/projects/p1/maintainers/users/ann");
    expect(r.status).toBe(201);
    const done = await finish(entitlement(r.body.queueid));
    expect(done).toMatchObject({ status: "failed", message: "git host refused the member" });
    expect((await roles()).maintainers).toEqual([]);
  });

  it("a job whose change was made meanwhile fails with the reason", async () => {
    const r = await t.call("POST", "/v1/projects/p1/reporters/users/wendy");
    t.server.ctx.db.run(
      "INSERT INTO project_access (project_id, level, user_id) SELECT p.id, 'reporters', u.id FROM projects p, users u WHERE p.slug = 'p1' AND u.username = 'wendy'",
    );
    const done = await finish(entitlement(r.body.queueid));
    expect(done).toMatchObject({
      status: "failed",
      message: "user wendy is already in reporters of project p1",
    });
  });

  it("editors need an active wiki account (422)", async () => {
    const none = await t.call("POST", "/v1/projects/p1/editors/users/ann");
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual([
      {
        field: "username",
        message: "editors need wiki access: user ann has no active wiki account",
      },
    ]);
    expect((await t.call("POST", "/v1/projects/p1/editors/users/ivan")).status).toBe(422);
    const ok = await t.call("POST", "/v1/projects/p1/editors/users/wendy");
    expect(ok.status).toBe(200);
    expect((await roles()).editors).toEqual(["wendy"]);
  });

  it("answers 404 for unknown users, users of another parent, unknown projects and levels", async () => {
    const ghost = await t.call("POST", "/v1/projects/p1/admins/users/ghost");
    expect(ghost.status).toBe(404);
    expect(ghost.body.status.message).toBe("user ghost not found");
    expect((await t.call("POST", "/v1/projects/p1/admins/users/gus")).status).toBe(404);
    expect((await t.call("POST", "/v1/projects/nope/admins/users/ann")).status).toBe(404);
    expect((await t.call("POST", "/v1/projects/p1/owners/users/ann")).status).toBe(404);
    expect((await t.call("POST", "/v1/projects/p1/admins/users/ann", { as: "other" })).status).toBe(
      404,
    );
    expect((await t.call("POST", "/v1/projects/gp/admins/users/ann")).status).toBe(404);
  });

  it("removes at once; 404 when not a member", async () => {
    const r = await t.call("DELETE", "/v1/projects/p1/developers/users/ann");
    expect(r.status).toBe(200);
    expect(r.body.status.message).toBe("user ann removed from developers of project p1");
    expect((await roles()).developers).toEqual([]);
    const again = await t.call("DELETE", "/v1/projects/p1/developers/users/ann");
    expect(again.status).toBe(404);
    expect(again.body.status.message).toBe("user ann in developers of project p1 not found");
  });

  it("role matrix: members may not grant; users-admin and projects-admin may", async () => {
    const m = await t.call("POST", "/v1/projects/p1/controllers/users/wendy", { as: "member" });
    expect(m.status).toBe(403);
    const u = await t.call("POST", "/v1/projects/p1/controllers/users/wendy", { as: "users" });
    expect(u.status).toBe(200);
    const p = await t.call("DELETE", "/v1/projects/p1/controllers/users/wendy", {
      as: "projects",
    });
    expect(p.status).toBe(200);
    const d = await t.call("DELETE", "/v1/projects/p1/admins/users/ann", { as: "member" });
    expect(d.status).toBe(403);
  });
});

describe("organization teams on projects", () => {
  it("assigns through the organization-team queue (path with a slash)", async () => {
    const r = await t.call("POST", "/v1/projects/p1/maintainers/organization/teams/acme%2Fcore");
    expect(r.status).toBe(201);
    expect(r.body).toHaveLength(1);
    expect(r.body[0]).toMatchObject({
      code: 201,
      description: "assigning organization team acme/core to maintainers of project p1 queued",
    });
    const open = await t.call("GET", orgTeamJob(r.body[0].queueid));
    expect(open.body).toEqual({ status: "open", message: null });
    expect((await roles()).organizationTeams.maintainers).toEqual([]);
    const dup = await t.call("POST", "/v1/projects/p1/maintainers/organization/teams/acme%2Fcore");
    expect(dup.status).toBe(409);
    expect(await finish(orgTeamJob(r.body[0].queueid))).toEqual({
      status: "completed",
      message: null,
    });
    expect((await roles()).organizationTeams.maintainers).toEqual(["acme/core"]);
  });

  it("accepts teams of customer organizations; 409 when already assigned", async () => {
    const r = await t.call("POST", "/v1/projects/p1/reporters/organization/teams/ops");
    await finish(orgTeamJob(r.body[0].queueid));
    expect((await roles()).organizationTeams.reporters).toEqual(["ops"]);
    const again = await t.call("POST", "/v1/projects/p1/reporters/organization/teams/ops");
    expect(again.status).toBe(409);
    expect(again.body.status.message).toBe(
      "organization team ops is already in reporters of project p1",
    );
  });

  it("answers 404 for unknown teams and teams of another parent; only three levels", async () => {
    const u = await t.call("POST", "/v1/projects/p1/developers/organization/teams/nope");
    expect(u.status).toBe(404);
    expect(u.body.status.message).toBe("organization team nope not found");
    const g = await t.call("POST", "/v1/projects/p1/developers/organization/teams/globex%2Ftheirs");
    expect(g.status).toBe(404);
    const lvl = await t.call("POST", "/v1/projects/p1/admins/organization/teams/ops");
    expect(lvl.status).toBe(404);
    const m = await t.call("POST", "/v1/projects/p1/developers/organization/teams/ops", {
      as: "member",
    });
    expect(m.status).toBe(403);
  });

  it("removes through the queue (202); 404 when not assigned; failures carry the message", async () => {
    const missing = await t.call("DELETE", "/v1/projects/p1/developers/organization/teams/ops");
    expect(missing.status).toBe(404);
    t.server.ctx.queue.failNext({ queue: "orgTeam", message: "git host unavailable" });
    const failed = await t.call("DELETE", "/v1/projects/p1/reporters/organization/teams/ops");
    expect(failed.status).toBe(202);
    expect(await finish(orgTeamJob(failed.body[0].queueid))).toEqual({
      status: "error",
      message: "git host unavailable",
    });
    expect((await roles()).organizationTeams.reporters).toEqual(["ops"]);
    const r = await t.call("DELETE", "/v1/projects/p1/reporters/organization/teams/ops");
    expect(r.status).toBe(202);
    expect(r.body[0].description).toBe(
      "removing organization team ops from reporters of project p1 queued",
    );
    expect((await roles()).organizationTeams.reporters).toEqual(["ops"]);
    await finish(orgTeamJob(r.body[0].queueid));
    expect((await roles()).organizationTeams.reporters).toEqual([]);
  });
});

describe("access.list", () => {
  it("lists users and teams of a level, filtered by type", async () => {
    const add = await t.call("POST", "/v1/projects/p1/maintainers/users/wendy");
    await finish(entitlement(add.body.queueid));
    const all = await t.call("GET", "/v1/projects/p1/maintainers", { as: "member" });
    expect(all.status).toBe(200);
    expect(all.body).toEqual([
      { type: "user", name: "wendy", displayName: "Wendy W" },
      { type: "team", name: "acme/core", displayName: "Core" },
    ]);
    const users = await t.call("GET", "/v1/projects/p1/maintainers", { query: { type: "users" } });
    expect(users.body).toEqual([{ type: "user", name: "wendy", displayName: "Wendy W" }]);
    const teams = await t.call("GET", "/v1/projects/p1/maintainers", { query: { type: "teams" } });
    expect(teams.body).toEqual([{ type: "team", name: "acme/core", displayName: "Core" }]);
  });

  it("rejects a bad type, and any type for controllers (400)", async () => {
    const bad = await t.call("GET", "/v1/projects/p1/admins", { query: { type: "robots" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { field: "type", message: "must be one of users, teams, user, team" },
    ]);
    const ctl = await t.call("GET", "/v1/projects/p1/controllers", { query: { type: "users" } });
    expect(ctl.status).toBe(400);
    const plain = await t.call("GET", "/v1/projects/p1/controllers");
    expect(plain.status).toBe(200);
  });

  it("is scoped to the caller's parent organization", async () => {
    expect((await t.call("GET", "/v1/projects/p1/admins", { as: "other" })).status).toBe(404);
  });
});
