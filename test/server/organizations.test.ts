import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startServer();
});
afterAll(() => t.close());

describe("organizations", () => {
  it("lists the caller's parent organization, created from the token", async () => {
    const r = await t.call("GET", "/v1/organization/list");
    expect(r.status).toBe(200);
    expect(r.body.map((o: { name: string }) => o.name)).toEqual(["acme"]);
    const ui = await t.call("GET", "/v1/ui/organizations", { as: "member" });
    expect(ui.body.organizations[0]).toMatchObject({ name: "acme", parentOrganization: null });
  });

  it("creates a customer organization under the parent; duplicates are 409", async () => {
    const r = await t.call("POST", "/v1/organization", { body: { organization: "partner-a" } });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ name: "partner-a", parentOrganization: "acme" });
    const again = await t.call("POST", "/v1/organization", { body: { organization: "partner-a" } });
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([
      { field: "organization", message: "organization partner-a already exists" },
    ]);
  });

  it("keeps parent organizations apart", async () => {
    const r = await t.call("GET", "/v1/organization/list", { as: "other" });
    expect(r.body.map((o: { name: string }) => o.name)).toEqual(["globex"]);
  });

  it("renames through the rename queue and answers `queuid`", async () => {
    const created = await t.call("POST", "/v1/organization", {
      body: { organization: "old-name" },
    });
    const r = await t.call("PUT", `/v1/organization/${created.body.data.id}`, {
      body: { new_name: "new-name" },
    });
    expect(r.status).toBe(201);
    expect(r.body.queuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.body.queueid).toBeUndefined();
    const job = await t.waitJob(`/v1/organization/queue/${r.body.queuid}/status`);
    expect(job).toMatchObject({
      action: "rename",
      old_name: "old-name",
      new_name: "new-name",
      status: "completed",
      message: null,
    });
    const list = await t.call("GET", "/v1/organization/list");
    expect(list.body.map((o: { name: string }) => o.name)).toContain("new-name");
    // another parent organization cannot see the job
    expect(
      (await t.call("GET", `/v1/organization/queue/${r.body.queuid}/status`, { as: "other" }))
        .status,
    ).toBe(404);
  });

  it("a failing rename job carries its message", async () => {
    const a = await t.call("POST", "/v1/organization", { body: { organization: "ren-a" } });
    t.server.ctx.queue.failNext({ queue: "rename", message: "namespace is locked" });
    const r = await t.call("PUT", `/v1/organization/${a.body.data.id}`, {
      body: { new_name: "ren-b" },
    });
    const job = await t.waitJob(`/v1/organization/queue/${r.body.queuid}/status`);
    expect(job).toMatchObject({ status: "failed", message: "namespace is locked" });
  });

  it("only system-admin may create or rename organizations", async () => {
    for (const who of ["member", "users", "projects"] as const) {
      const r = await t.call("POST", "/v1/organization", {
        as: who,
        body: { organization: `x-${who}` },
      });
      expect(r.status).toBe(403);
      expect(r.body.status.message).toContain("needs system-admin");
    }
  });

  it("serves the seeded license catalogue", async () => {
    const r = await t.call("GET", "/v1/licenses", { as: "member" });
    expect(r.body.map((l: { name: string }) => l.name)).toEqual(
      expect.arrayContaining(["Apache-2.0", "BSD-3-Clause", "GPL-2.0", "MIT"]),
    );
  });
});
