import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobFailure } from "../../src/server/queue.js";
import { seed } from "../../src/server/seed.js";
import { startServer, type TestServer } from "../helpers/server.js";

let t: TestServer;
let ids: Record<string, string>;
beforeAll(async () => {
  t = await startServer({ queueDelayMs: 2000 });
  const counts = seed(t.server.ctx, {
    organizations: [
      { name: "acme-partner", parent: "acme" },
      { name: "globex-sub", parent: "globex" },
    ],
    orgTeams: [
      { organization: "acme", name: "Firmware leads", path: "acme/firmware-leads" },
      { organization: "acme-partner", name: "Partner devs", path: "acme-partner/devs" },
      ...Array.from({ length: 11 }, (_, i) => ({
        organization: "acme",
        name: `Team ${i}`,
        path: `acme/team-${i}`,
      })),
      { organization: "globex-sub", name: "Globex ops", path: "globex-sub/ops" },
    ],
  });
  expect(counts.orgTeams).toBe(14);
  ids = Object.fromEntries(
    t.server.ctx.db
      .all<{ id: number; path: string }>("SELECT id, path FROM org_teams")
      .map((r) => [r.path, String(r.id)]),
  );
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

describe("organization teams", () => {
  it("lists the parent's and its customers' teams, paged by 10", async () => {
    const r = await t.call("GET", "/v1/organization/teams", { as: "member" });
    expect(r.status).toBe(200);
    expect(r.body.pagination).toEqual({ page: 1, limit: 10, total: 13, totalPages: 2 });
    expect(r.body.data[0]).toEqual({
      id: ids["acme/firmware-leads"],
      org_name: "acme",
      name: "Firmware leads",
      path: "acme/firmware-leads",
      created_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const p2 = await t.call("GET", "/v1/organization/teams", { query: { page: 2 } });
    expect(p2.body.data).toHaveLength(3);
  });

  it("filters by organization and checks parentOrganization", async () => {
    const r = await t.call("GET", "/v1/organization/teams", {
      query: { organization: "acme-partner", parentOrganization: "acme" },
    });
    expect(r.body.data.map((x: { path: string }) => x.path)).toEqual(["acme-partner/devs"]);
    const none = await t.call("GET", "/v1/organization/teams", {
      query: { organization: "globex-sub" },
    });
    expect(none.body.data).toEqual([]);
    const wrong = await t.call("GET", "/v1/organization/teams", {
      query: { parentOrganization: "globex" },
    });
    expect(wrong.status).toBe(404);
    const other = await t.call("GET", "/v1/organization/teams", { as: "other" });
    expect(other.body.data.map((x: { path: string }) => x.path)).toEqual(["globex-sub/ops"]);
  });

  it("reads one team; another parent organization's team is 404", async () => {
    const r = await t.call("GET", `/v1/organization/teams/${ids["acme-partner/devs"]}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ org_name: "acme-partner", name: "Partner devs" });
    expect((await t.call("GET", `/v1/organization/teams/${ids["globex-sub/ops"]}`)).status).toBe(
      404,
    );
    expect((await t.call("GET", "/v1/organization/teams/99999")).status).toBe(404);
    expect(
      (
        await t.call("GET", `/v1/organization/teams/${ids["acme-partner/devs"]}`, {
          query: { parentOrganization: "globex" },
        })
      ).status,
    ).toBe(404);
  });

  it("renames a team (only the name; the path stays)", async () => {
    const id = ids["acme/firmware-leads"];
    const r = await t.call("PUT", `/v1/organization/teams/${id}`, { body: { name: "FW leads" } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id, name: "FW leads", path: "acme/firmware-leads" });
    const bad = await t.call("PUT", `/v1/organization/teams/${id}`, {
      body: { name: "x", path: "acme/x" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toEqual({ field: "path", message: "unknown field" });
    const member = await t.call("PUT", `/v1/organization/teams/${id}`, {
      as: "users",
      body: { name: "y" },
    });
    expect(member.status).toBe(403);
    const foreign = await t.call("PUT", `/v1/organization/teams/${ids["globex-sub/ops"]}`, {
      body: { name: "z" },
    });
    expect(foreign.status).toBe(404);
  });

  it("answers the organization-team queue status: open, completed, error with message", async () => {
    const q = t.server.ctx.queue;
    q.register("test.orgteam.assign", (p) => {
      if (p.fail) throw new JobFailure("team not found on the git host");
    });
    const acme = t.server.ctx.db.get<{ id: number }>(
      "SELECT id FROM organizations WHERE name = 'acme'",
    )!.id;
    const ok = q.enqueue("orgTeam", "test.orgteam.assign", {}, acme);
    const path = `/v1/organization/teams/queue/${ok}/status`;
    expect((await t.call("GET", path, { as: "member" })).body).toEqual({
      status: "open",
      message: null,
    });
    expect(await settle(path)).toEqual({ status: "completed", message: null });
    const bad = q.enqueue("orgTeam", "test.orgteam.assign", { fail: true }, acme);
    expect(await settle(`/v1/organization/teams/queue/${bad}/status`)).toEqual({
      status: "error",
      message: "team not found on the git host",
    });
    expect((await t.call("GET", path, { as: "other" })).status).toBe(404);
    // a job of another queue is not an organization-team job
    const ent = q.enqueue("entitlement", "test.orgteam.assign", {}, acme);
    expect((await t.call("GET", `/v1/organization/teams/queue/${ent}/status`)).status).toBe(404);
  });
});
