import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed, type SeedUser } from "../../src/server/seed.js";
import { startServer, type TestServer } from "../helpers/server.js";

const N = 10_000;
let t: TestServer;
beforeAll(async () => {
  t = await startServer();
});
afterAll(() => t.close());

describe("users at scale", () => {
  it(`seeds ${N} users with accounts and lists them all in one answer`, async () => {
    const users: SeedUser[] = Array.from({ length: N }, (_, i) => ({
      username: `user${String(i).padStart(5, "0")}`,
      firstName: "User",
      lastName: String(i),
      externalEmail: `user${i}@example.org`,
      services: i % 2 === 0 ? { git: {}, artifactservice: {} } : { servicedesk: {} },
    }));
    const seedStart = performance.now();
    const counts = seed(t.server.ctx, {
      parentOrganization: "acme",
      users,
      teams: [{ name: "everyone", members: users.slice(0, 1000).map((u) => u.username) }],
    });
    const seedMs = performance.now() - seedStart;
    expect(counts).toMatchObject({ users: N, serviceAccounts: N * 1.5, teams: 1 });
    console.log(`seeded ${N} users in ${seedMs.toFixed(0)} ms`);

    const start = performance.now();
    const r = await t.call("GET", "/v1/users", { as: "member", query: { all: true } });
    const ms = performance.now() - start;
    console.log(`GET /v1/users?all=true over ${N} users: ${ms.toFixed(0)} ms`);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(N);
    expect(r.body.pagination).toEqual({ page: 1, limit: N, total: N, totalPages: 1 });
    expect(r.body.data[0]).toMatchObject({ username: "user00000", organization: "acme" });

    const filtered = await t.call("GET", "/v1/users", {
      query: { service: "git", query: "user0001", limit: 5 },
    });
    // user00010 … user00019, even ones have git
    expect(filtered.body.pagination.total).toBe(5);
    const metric = await t.call("GET", "/v1/metrics/users/gitservice");
    expect(metric.body.data.count).toBe(N / 2);
  });
});
