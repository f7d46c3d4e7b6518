/**
 * Finding 3 of issue 16: request bodies were type-coerced (ajv `coerceTypes`):
 * `enableForking: null` turned forking off, `displayName: null` cleared the name,
 * `projectSlug: false` created project "false", `org_id: "3"` queued a transfer and
 * `userNames: "alice"` became a list. Now a body is taken as sent: each is a 400 naming the
 * field, and nothing changes. Query strings and path parameters are still read from text
 * (`?page=2` is a number), and schema defaults are still filled in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateEmailAccountBody } from "../../src/api/schemas.js";
import { requestValidators } from "../../src/server/validation.js";
import { contractServer, type ContractServer } from "./contract-helpers.js";

let t: ContractServer;
let repo: string;
beforeAll(async () => {
  t = await contractServer({ control: true, queueDelayMs: 60_000 });
  const seeded = await t.call("POST", "/_control/seed", {
    body: {
      organizations: [{ name: "acme-eu", parent: "acme" }],
      users: [
        { username: "alice", firstName: "Alice", lastName: "A", externalEmail: "a@example.org" },
      ],
      projects: [{ slug: "web", name: "Web", git: { repositories: [{ name: "app" }] } }],
    },
  });
  expect(seeded.status).toBe(200);
  const repos = await t.call("GET", "/v1/projects/web/git/repo");
  repo = `/v1/projects/web/git/repo/${repos.body.data[0].gitRepoID}`;
});
afterAll(() => t.close());

/** The request is a 400 whose errors name `field`. */
async function refused(method: string, url: string, body: unknown, field: string) {
  const r = await t.call(method, url, { body });
  expect(r.status, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
  expect(r.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  expect(r.body.status.message).toContain(field);
}

describe("finding 3: request bodies are not coerced", () => {
  it("wrong types and null are 400 naming the field, and change nothing", async () => {
    await refused("PATCH", repo, { enableForking: null }, "enableForking");
    await refused("PATCH", repo, { enableForking: "false" }, "enableForking");
    expect((await t.call("GET", repo)).body.data.enableForking).toBe(true);

    await refused("PATCH", "/v1/users/alice", { displayName: null }, "displayName");
    await refused("PATCH", "/v1/users/alice", { firstName: 5 }, "firstName");
    expect((await t.call("GET", "/v1/users/alice")).body.data.displayName).toBe("Alice A");

    await refused(
      "POST",
      "/v1/projects",
      { name: "F", description: "", projectSlug: false },
      "projectSlug",
    );
    expect((await t.call("GET", "/v1/projects/false")).status).toBe(404);

    const eu = (await t.call("GET", "/v1/organization/list")).body.find(
      (o: { name: string }) => o.name === "acme-eu",
    );
    await refused("POST", "/v1/users/alice/organization", { org_id: String(eu.id) }, "org_id");
    expect(t.server.ctx.queue.openJobs()).toEqual([]);

    const team = { name: "core", gitservice: false, artifactservice: false, wiki: false };
    await refused("POST", "/v1/teams", { ...team, userNames: "alice" }, "userNames");
    await refused("POST", "/v1/teams", { ...team, userNames: ["alice"], wiki: 0 }, "wiki");
    const teams = (await t.call("GET", "/v1/teams?limit=100")).body.data;
    expect(teams.map((x: { name: string }) => x.name)).not.toContain("core");
  });

  it("query strings and path parameters are still read from text", async () => {
    const page = await t.call("GET", "/v1/users?page=1&limit=1&all=false");
    expect(page.status).toBe(200);
    expect(page.body.pagination).toMatchObject({ page: 1, limit: 1 });
    expect((await t.call("GET", repo)).status).toBe(200);
    expect((await t.call("GET", "/v1/users?page=x")).status).toBe(400);
  });

  it("schema defaults are still filled in for bodies and queries", () => {
    const { body, text } = requestValidators();
    const account: Record<string, unknown> = {};
    expect(body.compile(CreateEmailAccountBody)(account)).toBe(true);
    expect(account).toEqual({ mailplan: "non-retention" });
    const query: Record<string, unknown> = { page: "2", tiers: "prod" };
    const schema = {
      type: "object",
      properties: {
        page: { type: "integer" },
        tiers: { type: "array", items: { type: "string" } },
        order: { type: "string", default: "asc" },
      },
    };
    expect(text.compile(schema)(query)).toBe(true);
    expect(query).toEqual({ page: 2, tiers: ["prod"], order: "asc" });
    const strictBody: Record<string, unknown> = { page: "2" };
    expect(body.compile(schema)(strictBody)).toBe(false);
  });
});
