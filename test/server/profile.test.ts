/**
 * The reference server speaking an API profile (`phctl serve --api-profile`): the profile's
 * paths and methods, list envelope, paging parameter names and queue id field — and the
 * route table's own paths gone where the profile moved them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normaliseProfile } from "../../src/api/profile.js";
import { startServer, type TestServer } from "../helpers/server.js";

const shaped = normaliseProfile({
  envelope: {
    list: {
      items: "result.items",
      pagination: "paging",
      pageFields: { page: "n", limit: "size", total: "count", totalPages: "pages" },
      query: { page: "n", limit: "size", all: "everything" },
    },
  },
  queue: { id: "jobId" },
  operations: {
    "users.create": { method: "PUT", path: "/v1/people" },
    "users.git.create": { path: "/v1/users/{username}/accounts/git" },
  },
});
const flat = normaliseProfile({ envelope: { list: { items: "items", pagination: null } } });

let t: TestServer;
let f: TestServer;
beforeAll(async () => {
  [t, f] = await Promise.all([
    startServer({ apiProfile: shaped, queueDelayMs: 0 }),
    startServer({ apiProfile: flat }),
  ]);
  for (const s of [t, f])
    for (let i = 0; i < 3; i++) {
      const r = await s.call(s === t ? "PUT" : "POST", s === t ? "/v1/people" : "/v1/users", {
        body: { username: `p${i}`, firstName: "P", lastName: `${i}`, externalEmail: `p${i}@x.org` },
      });
      expect(r.status).toBe(201);
    }
});
afterAll(async () => {
  await Promise.all([t.close(), f.close()]);
});

describe("a server with a profile", () => {
  it("serves an operation at the profile's method and path only", async () => {
    // The profile moved users.create to PUT /v1/people; /v1/users keeps only its GET.
    const moved = await t.call("POST", "/v1/users", { body: {} });
    expect(moved.status).toBe(405);
    expect(moved.headers.allow).not.toContain("POST");
    const log = t.server.requestLog.filter((e) => e.operation === "users.create");
    expect(log.map((e) => `${e.method} ${e.url}`)).toContain("PUT /v1/people");
  });

  it("answers lists in the profile's envelope, paged by its parameter names", async () => {
    const r = await t.call("GET", "/v1/users", { query: { n: 2, size: 2 } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["result", "paging"]);
    expect(r.body.paging).toEqual({ n: 2, size: 2, count: 3, pages: 2 });
    expect(r.body.result.items).toHaveLength(1);
    const all = await t.call("GET", "/v1/users", { query: { everything: true } });
    expect(all.body.result.items).toHaveLength(3);
    expect(all.body.paging.pages).toBe(1);
  });

  it("a service that does not page answers every item, with no pagination object", async () => {
    const r = await f.call("GET", "/v1/users", { query: { limit: 1 } });
    expect(r.body).toEqual({ items: expect.any(Array) });
    expect(r.body.items).toHaveLength(3);
  });

  it("names a queued answer's job id as the profile says; status paths are unchanged", async () => {
    const r = await t.call("POST", "/v1/users/p1/accounts/git", { body: {} });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      code: 201,
      description: expect.any(String),
      jobId: expect.any(String),
    });
    const job = await t.waitJob(`/v1/users/service/entitlement/queue/${r.body.jobId}/status`);
    expect(job.status).toBe("completed");
  });
});
