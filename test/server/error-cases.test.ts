/**
 * The error side of operations whose own test files cover only the happy path: unknown
 * objects, duplicates, roles and bodies, one operation at a time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/seed.js";
import { startServer, type TestServer } from "../helpers/server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startServer();
  seed(t.server.ctx, {
    users: [{ username: "dana", firstName: "Dana", lastName: "D", externalEmail: "dana@ext.org" }],
    projects: [{ slug: "p1", name: "P1", git: { repositories: [{ name: "r1" }] } }],
  });
});
afterAll(() => t.close());

async function settled(r: { body: { queueid: string } }) {
  t.server.ctx.queue.drain();
  return t.waitJob(`/v1/users/service/entitlement/queue/${r.body.queueid}/status`);
}

describe("service accounts: unknown users, duplicates, bad bodies", () => {
  for (const service of ["artifactservice", "servicedesk", "email", "irc", "wiki"] as const) {
    it(`${service}: 404 for an unknown user, 409 for a second account, 404 update/delete when absent`, async () => {
      expect((await t.call("GET", `/v1/users/ghost/${service}`)).status).toBe(404);
      expect((await t.call("POST", `/v1/users/ghost/${service}`, { body: {} })).status).toBe(404);
      const body =
        service === "email" || service === "servicedesk"
          ? { status: "inactive" }
          : { status: "inactive" };
      expect((await t.call("PUT", `/v1/users/dana/${service}`, { body })).status).toBe(404);
      expect((await t.call("DELETE", `/v1/users/dana/${service}`)).status).toBe(404);
      const created = await t.call("POST", `/v1/users/dana/${service}`, { body: {} });
      expect(created.status).toBe(201);
      expect((await settled(created)).status).toBe("completed");
      expect((await t.call("GET", `/v1/users/dana/${service}`)).status).toBe(200);
      expect((await t.call("POST", `/v1/users/dana/${service}`, { body: {} })).status).toBe(409);
      const updated = await t.call("PUT", `/v1/users/dana/${service}`, { body });
      expect(updated.status).toBe(201);
      expect((await settled(updated)).status).toBe("completed");
      expect((await t.call("GET", `/v1/users/dana/${service}`)).body.data.status).toBe("inactive");
      expect(
        (await t.call("PUT", `/v1/users/dana/${service}`, { body: { status: "" } })).status,
      ).toBe(400);
      expect(
        (await t.call("POST", `/v1/users/dana/${service}`, { as: "member", body: {} })).status,
      ).toBe(403);
    });
  }
});

describe("reads and writes that must refuse", () => {
  it("organizations: rename of an unknown or foreign organization is 404, a taken name 409", async () => {
    expect(
      (await t.call("PUT", "/v1/organization/9999", { body: { new_name: "x-y" } })).status,
    ).toBe(404);
    const other = (await t.call("GET", "/v1/organization/list", { as: "other" })).body[0];
    expect(
      (await t.call("PUT", `/v1/organization/${other.id}`, { body: { new_name: "x-z" } })).status,
    ).toBe(404);
    const acme = (await t.call("GET", "/v1/organization/list")).body[0];
    expect(
      (await t.call("PUT", `/v1/organization/${acme.id}`, { body: { new_name: "globex" } })).status,
    ).toBe(409);
    expect((await t.call("GET", "/v1/organization/list", { as: null })).status).toBe(401);
    expect((await t.call("GET", "/v1/ui/organizations", { as: null })).status).toBe(401);
  });

  it("metrics: an organization outside the caller's parent is 404", async () => {
    for (const path of ["users", "users/email", "users/artifactservice", "users/irc"]) {
      const r = await t.call("GET", `/v1/metrics/${path}`, { query: { organization: "globex" } });
      expect(r.status).toBe(404);
    }
    expect((await t.call("GET", "/v1/metrics/projects/nope/ci/pipelines/counts")).status).toBe(404);
  });

  it("git and artifacts: unknown ids and bad bodies", async () => {
    const repo = (await t.call("GET", "/v1/projects/p1/git/repo")).body.data[0];
    expect(
      (
        await t.call("PUT", `/v1/projects/p1/git/repo/${repo.gitRepoID}`, {
          body: { issueTracking: "on" },
        })
      ).status,
    ).toBe(400);
    expect((await t.call("PUT", "/v1/projects/p1/git/repo/99999", { body: {} })).status).toBe(404);
    expect((await t.call("GET", "/v1/projects/p1/git/bundle/99999")).status).toBe(404);
    expect((await t.call("GET", "/v1/projects/p1/artifactservice/99999/files")).status).toBe(404);
    expect((await t.call("GET", "/v1/projects/nope/git/bundles/archive")).status).toBe(404);
  });
});
