import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/seed.js";
import { startServer, type TestServer } from "../helpers/server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startServer({ queueDelayMs: 5000 });
  seed(t.server.ctx, {
    organizations: [
      { name: "no-personal", parent: "acme", allowPersonalProjects: false },
      { name: "five-max", parent: "acme", maxPersonalProjects: 5 },
    ],
    users: [
      { username: "alice", firstName: "Alice", lastName: "A", externalEmail: "alice@ext.org" },
      {
        username: "bob",
        firstName: "Bob",
        lastName: "B",
        externalEmail: "bob@ext.org",
        organization: "no-personal",
      },
      {
        username: "carol",
        firstName: "Carol",
        lastName: "C",
        displayName: "Carol the Admin",
        externalEmail: "carol@ext.org",
        organization: "five-max",
        services: { email: { mailplan: "retention" } },
      },
    ],
  });
});
afterAll(() => t.close());

/**
 * Jobs stay open for 5 s, so a test can see the open state even on a loaded machine; then
 * run them at once (the same effect the worker applies) and read the final status.
 */
function settle(statusPath: string) {
  t.server.ctx.queue.drain();
  return t.waitJob(statusPath);
}

const statusPath = (id: string) => `/v1/users/service/entitlement/queue/${id}/status`;

/** Create an account and wait for its job; returns the finished job. */
async function createAndWait(username: string, service: string, body: unknown = {}) {
  const r = await t.call("POST", `/v1/users/${username}/${service}`, { as: "users", body });
  expect(r.status).toBe(201);
  return settle(statusPath(r.body.queueid));
}

describe("entitlement queue", () => {
  it("creates an account through a job: open first, visible only once completed", async () => {
    const r = await t.call("POST", "/v1/users/alice/git", {
      as: "users",
      body: { personalProjectLimit: 3 },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ code: 201, queueid: expect.any(String) });
    const open = await t.call("GET", statusPath(r.body.queueid), { as: "member" });
    expect(open.body).toEqual({
      id: r.body.queueid,
      action: "account.create",
      username: "alice",
      service: "git",
      status: "open",
      message: null,
    });
    expect((await t.call("GET", "/v1/users/alice/git")).status).toBe(404);
    expect((await settle(statusPath(r.body.queueid))).status).toBe("completed");
    const git = await t.call("GET", "/v1/users/alice/git", { as: "member" });
    expect(git.status).toBe(200);
    expect(git.body.data).toMatchObject({
      username: "alice",
      service: "git",
      status: "active",
      name: "alice",
      personalProjectLimit: 3,
    });
    // another parent organization sees neither the job nor the user
    expect((await t.call("GET", statusPath(r.body.queueid), { as: "other" })).status).toBe(404);
    expect((await t.call("GET", "/v1/users/alice/git", { as: "other" })).status).toBe(404);
  });

  it("updates through a job too", async () => {
    const r = await t.call("PUT", "/v1/users/alice/git", {
      body: { status: "inactive", personalProjectLimit: 7 },
    });
    expect(r.status).toBe(201);
    expect((await t.call("GET", "/v1/users/alice/git")).body.data.status).toBe("active");
    const job = await settle(statusPath(r.body.queueid));
    expect(job).toMatchObject({ action: "account.update", status: "completed" });
    expect((await t.call("GET", "/v1/users/alice/git")).body.data).toMatchObject({
      status: "inactive",
      personalProjectLimit: 7,
    });
  });

  it("a failing job carries its message and changes nothing", async () => {
    t.server.ctx.queue.failNext({ queue: "entitlement", message: "git host unreachable" });
    const job = await createAndWait("alice", "artifactservice");
    expect(job).toMatchObject({
      status: "failed",
      message: "git host unreachable",
      service: "artifactservice",
    });
    expect((await t.call("GET", "/v1/users/alice/artifactservice")).status).toBe(404);
  });
});

describe("rules", () => {
  it("409 on creating an existing account; 404 on updating or deleting a missing one", async () => {
    const again = await t.call("POST", "/v1/users/alice/git", { body: {} });
    expect(again.status).toBe(409);
    expect(again.body.status.message).toBe("user alice already has a git account");
    const upd = await t.call("PUT", "/v1/users/alice/wiki", { body: { status: "active" } });
    expect(upd.status).toBe(404);
    expect((await t.call("DELETE", "/v1/users/alice/irc")).status).toBe(404);
    expect((await t.call("POST", "/v1/users/nobody/wiki", { body: {} })).status).toBe(404);
  });

  it("403 for personalProjectLimit when the organization allows no personal projects", async () => {
    const r = await t.call("POST", "/v1/users/bob/git", { body: { personalProjectLimit: 1 } });
    expect(r.status).toBe(403);
    expect(r.body.status.message).toBe("organization no-personal does not allow personal projects");
    // without a limit the account is fine
    expect((await createAndWait("bob", "git")).status).toBe("completed");
    const upd = await t.call("PUT", "/v1/users/bob/git", {
      body: { status: "active", personalProjectLimit: 2 },
    });
    expect(upd.status).toBe(403);
  });

  it("422 above the organization's maximum, accepted up to it", async () => {
    const over = await t.call("POST", "/v1/users/carol/git", { body: { personalProjectLimit: 6 } });
    expect(over.status).toBe(422);
    expect(over.body.errors[0].field).toBe("personalProjectLimit");
    expect((await createAndWait("carol", "git", { personalProjectLimit: 5 })).status).toBe(
      "completed",
    );
    const upd = await t.call("PUT", "/v1/users/carol/git", {
      body: { status: "active", personalProjectLimit: 50 },
    });
    expect(upd.status).toBe(422);
  });

  it("validates bodies (status enum)", async () => {
    const r = await t.call("PUT", "/v1/users/alice/git", { body: { status: "paused" } });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe("status");
  });

  it("needs users-admin or system-admin to write", async () => {
    for (const who of ["member", "projects"] as const) {
      expect((await t.call("POST", "/v1/users/alice/wiki", { as: who, body: {} })).status).toBe(
        403,
      );
      expect((await t.call("DELETE", "/v1/users/alice/git", { as: who })).status).toBe(403);
    }
  });
});

describe("per service", () => {
  it("email: default non-retention, deletable; a retention account cannot be deleted", async () => {
    expect((await createAndWait("alice", "email")).status).toBe("completed");
    const email = await t.call("GET", "/v1/users/alice/email");
    expect(email.headers.deprecation).toBeDefined();
    expect(email.body.data).toMatchObject({
      username: "alice",
      mailplan: "non-retention",
      link: "mailto:alice@ext.org",
      displayName: "Alice A",
      status: "active",
    });
    const upd = await t.call("PUT", "/v1/users/alice/email", { body: { status: "blocked" } });
    await settle(statusPath(upd.body.queueid));
    expect((await t.call("GET", "/v1/users/alice/email")).body.data.status).toBe("blocked");
    const del = await t.call("DELETE", "/v1/users/alice/email", { as: "users" });
    expect(del.status).toBe(200);
    expect((await t.call("GET", "/v1/users/alice/email")).status).toBe(404);

    const retained = await t.call("DELETE", "/v1/users/carol/email");
    expect(retained.status).toBe(422);
    expect(retained.body.status.message).toContain("only non-retention accounts can be removed");
    expect((await t.call("GET", "/v1/users/carol/email")).body.data.mailplan).toBe("retention");
  });

  it("email: a retention plan can be asked for", async () => {
    expect((await createAndWait("bob", "email", { mailplan: "retention" })).status).toBe(
      "completed",
    );
    expect((await t.call("GET", "/v1/users/bob/email")).body.data.mailplan).toBe("retention");
  });

  it("servicedesk: display name, external email and organization of the user", async () => {
    expect((await createAndWait("carol", "servicedesk")).status).toBe("completed");
    const r = await t.call("GET", "/v1/users/carol/servicedesk");
    expect(r.body.data).toMatchObject({
      service: "servicedesk",
      displayName: "Carol the Admin",
      externalEmail: "carol@ext.org",
      organization: "five-max",
    });
    const upd = await t.call("PUT", "/v1/users/carol/servicedesk", { body: { status: "closed" } });
    await settle(statusPath(upd.body.queueid));
    expect((await t.call("GET", "/v1/users/carol/servicedesk")).body.data.status).toBe("closed");
    expect((await t.call("DELETE", "/v1/users/carol/servicedesk")).status).toBe(200);
  });

  it("irc: display name from the body or the user", async () => {
    expect((await createAndWait("alice", "irc", { displayName: "al" })).status).toBe("completed");
    expect((await t.call("GET", "/v1/users/alice/irc")).body.data.displayName).toBe("al");
    expect((await createAndWait("bob", "irc")).status).toBe("completed");
    expect((await t.call("GET", "/v1/users/bob/irc")).body.data.displayName).toBe("Bob B");
    expect((await t.call("DELETE", "/v1/users/bob/irc")).status).toBe(200);
  });

  it("artifactservice and wiki: create, update status, delete", async () => {
    for (const service of ["artifactservice", "wiki"]) {
      expect((await createAndWait("carol", service)).status).toBe("completed");
      const upd = await t.call("PUT", `/v1/users/carol/${service}`, {
        body: { status: "inactive" },
      });
      expect((await settle(statusPath(upd.body.queueid))).status).toBe("completed");
      expect((await t.call("GET", `/v1/users/carol/${service}`)).body.data.status).toBe("inactive");
      expect((await t.call("DELETE", `/v1/users/carol/${service}`)).status).toBe(200);
      expect((await t.call("GET", `/v1/users/carol/${service}`)).status).toBe(404);
    }
  });

  it("git: delete removes the account", async () => {
    const r = await t.call("DELETE", "/v1/users/bob/git");
    expect(r.status).toBe(200);
    expect(r.body.status.message).toBe("git account of bob removed");
    expect((await t.call("GET", "/v1/users/bob/services")).body.data.git).toBeNull();
  });
});

describe("a second create while the first is queued", () => {
  const createJobs = (username: string, service: string) =>
    t.server.ctx.db.all<{ id: string }>(
      `SELECT id FROM jobs WHERE action = 'account.create'
       AND json_extract(payload, '$.username') = ? AND json_extract(payload, '$.service') = ?`,
      username,
      service,
    );

  it("is 409 naming the open job, instead of a second job that would fail", async () => {
    const first = await t.call("POST", "/v1/users/alice/wiki", { as: "users", body: {} });
    expect(first.status).toBe(201);
    const second = await t.call("POST", "/v1/users/alice/wiki", { as: "users", body: {} });
    expect(second.status).toBe(409);
    expect(second.body.status.message).toBe(
      `creating the wiki account of alice is already queued (${first.body.queueid})`,
    );
    expect(createJobs("alice", "wiki")).toEqual([{ id: first.body.queueid }]);
    // another service of the user, and the same service of another user, are not held up
    const servicedesk = await t.call("POST", "/v1/users/alice/servicedesk", { body: {} });
    expect(servicedesk.status).toBe(201);
    const bob = await t.call("POST", "/v1/users/bob/wiki", { body: {} });
    expect(bob.status).toBe(201);

    expect((await settle(statusPath(first.body.queueid))).status).toBe("completed");
    expect((await t.call("GET", "/v1/users/alice/wiki")).status).toBe(200);
    // once the job has run, the account exists: the usual 409
    const after = await t.call("POST", "/v1/users/alice/wiki", { body: {} });
    expect(after.status).toBe(409);
    expect(after.body.status.message).toBe("user alice already has a wiki account");
  });

  it("a failed job holds nothing up: the create can be asked for again", async () => {
    t.server.ctx.queue.failNext({ queue: "entitlement", message: "wiki unreachable" });
    expect((await createAndWait("carol", "irc")).status).toBe("failed");
    const again = await t.call("POST", "/v1/users/carol/irc", { body: {} });
    expect(again.status).toBe(201);
    expect((await settle(statusPath(again.body.queueid))).status).toBe("completed");
  });

  it("updates are not refused: each is a change of its own, applied in order", async () => {
    const one = await t.call("PUT", "/v1/users/carol/irc", { body: { status: "inactive" } });
    const two = await t.call("PUT", "/v1/users/carol/irc", { body: { status: "active" } });
    expect([one.status, two.status]).toEqual([201, 201]);
    t.server.ctx.queue.drain();
    expect((await t.waitJob(statusPath(one.body.queueid))).status).toBe("completed");
    expect((await t.waitJob(statusPath(two.body.queueid))).status).toBe("completed");
    expect((await t.call("GET", "/v1/users/carol/irc")).body.data.status).toBe("active");
  });
});
