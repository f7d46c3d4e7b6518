import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed, type SeedUser } from "../../src/server/seed.js";
import { startServer, type TestServer } from "../helpers/server.js";

let t: TestServer;
const user = (username: string, extra: Partial<SeedUser> = {}): SeedUser => ({
  username,
  firstName: username,
  lastName: "M",
  externalEmail: `${username}@example.org`,
  ...extra,
});
beforeAll(async () => {
  t = await startServer();
  seed(t.server.ctx, {
    parentOrganization: "acme",
    organizations: [
      { name: "acme-partner", parent: "acme" },
      { name: "globex-sub", parent: "globex" },
    ],
    users: [
      user("u1", {
        services: { git: {}, email: {}, irc: {} },
        role: "system-admin",
        dateLastAccessed: "2025-03-10T08:00:00.000Z",
      }),
      user("u2", {
        services: { git: {}, artifactservice: {} },
        dateLastAccessed: "2025-03-12T08:00:00.000Z",
      }),
      user("u3", { organization: "acme-partner", services: { artifactservice: {} } }),
      user("u4", {
        organization: "acme-partner",
        services: { git: {} },
        role: "system-admin",
        dateLastAccessed: "2025-04-01T00:00:00.000Z",
      }),
      user("g1", { parentOrganization: "globex", services: { git: {} } }),
    ],
  });
});
afterAll(() => t.close());

describe("user metrics", () => {
  it("counts the whole parent organization by default, a customer's own users when named", async () => {
    const all = await t.call("GET", "/v1/metrics/users", { as: "member" });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ data: { organization: "acme", count: 4 } });
    const named = await t.call("GET", "/v1/metrics/users", { query: { organization: "acme" } });
    expect(named.body.data.count).toBe(4);
    const partner = await t.call("GET", "/v1/metrics/users", {
      query: { organization: "acme-partner" },
    });
    expect(partner.body).toEqual({ data: { organization: "acme-partner", count: 2 } });
    const other = await t.call("GET", "/v1/metrics/users", { as: "other" });
    expect(other.body.data).toEqual({ organization: "globex", count: 1 });
  });

  it("counts users with each service account", async () => {
    const count = async (path: string, organization?: string) =>
      (
        await t.call("GET", `/v1/metrics/users/${path}`, {
          ...(organization ? { query: { organization } } : {}),
        })
      ).body.data.count;
    expect(await count("gitservice")).toBe(3);
    expect(await count("gitservice", "acme-partner")).toBe(1);
    expect(await count("artifactservice")).toBe(2);
    expect(await count("email")).toBe(1);
    expect(await count("irc")).toBe(1);
    const deprecated = await t.call("GET", "/v1/metrics/users/irc");
    expect(deprecated.headers.deprecation).toBeDefined();
  });

  it("404s an organization outside the caller's parent", async () => {
    const r = await t.call("GET", "/v1/metrics/users/gitservice", {
      query: { organization: "globex-sub" },
    });
    expect(r.status).toBe(404);
    expect(r.body.status.message).toBe("organization globex-sub not found");
  });

  it("searches users of an organization by role and last login", async () => {
    const names = async (org: string, query: Record<string, string> = {}) => {
      const r = await t.call("GET", `/v1/metrics/users/search/${org}`, { query });
      expect(r.status).toBe(200);
      return r.body.map((u: { username: string }) => u.username);
    };
    expect(await names("acme")).toEqual(["u1", "u2", "u3", "u4"]);
    expect(await names("acme-partner")).toEqual(["u3", "u4"]);
    expect(await names("acme", { role: "system-admin" })).toEqual(["u1", "u4"]);
    expect(await names("acme", { last_login: "2025-03-10" })).toEqual(["u1"]);
    expect(await names("acme", { last_login: "2025-03-01 TO 2025-03-31" })).toEqual(["u1", "u2"]);
    expect(
      await names("acme-partner", { last_login: "2025-01-01 TO 2025-12-31", role: "system-admin" }),
    ).toEqual(["u4"]);
    const r = await t.call("GET", "/v1/metrics/users/search/acme", {
      query: { last_login: "2025-03-10" },
    });
    expect(r.body[0]).toMatchObject({
      username: "u1",
      dateLastAccessed: "2025-03-10T08:00:00.000Z",
    });
  });

  it("answers 400 for a malformed filter and 404 for a foreign organization", async () => {
    const bad = await t.call("GET", "/v1/metrics/users/search/acme", {
      query: { last_login: "last week" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("last_login");
    const role = await t.call("GET", "/v1/metrics/users/search/acme", { query: { role: "boss" } });
    expect(role.status).toBe(400);
    expect((await t.call("GET", "/v1/metrics/users/search/globex")).status).toBe(404);
  });
});
