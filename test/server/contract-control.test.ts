/**
 * Finding 1 of issue 16: /_control was on by default and open across tenants — a
 * system-admin token of globex could seed users into acme, read acme's request log and
 * outbox, and arm faults that struck acme. Now /_control exists only when asked for, each
 * call is confined to the caller's parent organization, and only a test-admin token
 * reaches every tenant.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTokenSpec } from "../../src/server/auth.js";
import { contractServer, type ContractServer } from "./contract-helpers.js";

const user = (username: string, extra: Record<string, unknown> = {}) => ({
  username,
  firstName: "F",
  lastName: "L",
  externalEmail: `${username}@example.org`,
  ...extra,
});

let t: ContractServer;
beforeAll(async () => {
  t = await contractServer({ control: true, requestLog: true, queueDelayMs: 60_000 });
});
afterAll(() => t.close());

const usernames = async (who: "acme" | "globex") =>
  (await t.call("GET", "/v1/users?all=true", { as: who })).body.data.map(
    (u: { username: string }) => u.username,
  );

describe("/_control is off unless asked for", () => {
  it("a server built without `control` has no /_control endpoints", async () => {
    const plain = await contractServer();
    try {
      for (const [method, url] of [
        ["GET", "/_control/requests"],
        ["POST", "/_control/seed"],
        ["POST", "/_control/faults"],
        ["GET", "/_control/outbox"],
      ] as const) {
        const r = await plain.call(method, url, { body: method === "POST" ? {} : undefined });
        expect(r.status, `${method} ${url}`).toBe(404);
        expect(r.body.status.code).toBe(404);
      }
    } finally {
      await plain.close();
    }
  });
});

describe("finding 1: /_control is confined to the caller's parent organization", () => {
  it("globex cannot seed into acme (nor a new parent organization, nor acme's settings); it seeds into globex", async () => {
    const attempts = [
      { parentOrganization: "acme", users: [user("intruder1")] },
      { users: [user("intruder2", { parentOrganization: "acme" })] },
      { organizations: [{ name: "acme", allowPersonalProjects: false }] },
      { organizations: [{ name: "acme-sub", parent: "acme" }] },
      { organizations: [{ name: "newparent" }] },
      { orgTeams: [{ organization: "acme", name: "x", path: "x-team" }] },
    ];
    for (const body of attempts) {
      const r = await t.call("POST", "/_control/seed", { as: "globex", body });
      expect(r.status, JSON.stringify(body)).toBe(403);
      expect(r.body.status.message).toMatch(/only into its parent organization globex/);
    }
    expect(await usernames("acme")).not.toContain("intruder1");
    expect(await usernames("acme")).not.toContain("intruder2");
    const orgs = await t.call("GET", "/v1/organization/list", { as: "acme" });
    expect(orgs.body.map((o: { name: string }) => o.name)).not.toContain("acme-sub");

    const own = await t.call("POST", "/_control/seed", {
      as: "globex",
      body: { users: [user("gx-user")] },
    });
    expect(own.status).toBe(200);
    expect(await usernames("globex")).toContain("gx-user");
    expect(await usernames("acme")).not.toContain("gx-user");
  });

  it("globex reads and clears only its own request log; acme's entries stay", async () => {
    await t.call("GET", "/v1/projects?query=acme-secret", { as: "acme" });
    await t.call("GET", "/v1/projects?query=globex-own", { as: "globex" });
    const urls = async (who: "acme" | "globex" | "testAdmin") =>
      (await t.call("GET", "/_control/requests", { as: who })).body.data.map(
        (e: { url: string }) => e.url,
      );
    expect(await urls("globex")).toContain("/v1/projects?query=globex-own");
    expect(await urls("globex")).not.toContain("/v1/projects?query=acme-secret");
    expect(await urls("acme")).toContain("/v1/projects?query=acme-secret");
    expect(await urls("testAdmin")).toEqual(
      expect.arrayContaining(["/v1/projects?query=acme-secret", "/v1/projects?query=globex-own"]),
    );
    await t.call("DELETE", "/_control/requests", { as: "globex" });
    expect(await urls("globex")).toEqual([]);
    expect(await urls("acme")).toContain("/v1/projects?query=acme-secret");
  });

  it("globex sees neither acme's mails nor acme's open jobs, and cannot drain them", async () => {
    await t.call("POST", "/_control/seed", { body: { users: [user("acme-mail")] } });
    expect((await t.call("POST", "/v1/users/acme-mail/send_welcome")).status).toBe(200);
    const org = await t.call("POST", "/v1/organization", { body: { organization: "acme-q" } });
    const renamed = await t.call("PUT", `/v1/organization/${org.body.data.id}`, {
      body: { new_name: "acme-q2" },
    });
    expect(renamed.status).toBe(201);

    expect((await t.call("GET", "/_control/outbox", { as: "globex" })).body.data).toEqual([]);
    expect((await t.call("GET", "/_control/outbox")).body.data).toHaveLength(1);
    expect((await t.call("GET", "/_control/jobs", { as: "globex" })).body.data).toEqual([]);
    await t.call("POST", "/_control/jobs/drain", { as: "globex" });
    expect((await t.call("GET", "/_control/jobs")).body.data).toHaveLength(1);
    expect((await t.call("GET", "/_control/jobs", { as: "testAdmin" })).body.data).toHaveLength(1);
  });

  it("faults armed by globex strike globex's requests only; a test-admin's strike anyone", async () => {
    const armed = await t.call("POST", "/_control/faults", {
      as: "globex",
      body: { faults: [{ kind: "status503", times: 5 }] },
    });
    expect(armed.status).toBe(200);
    expect((await t.call("GET", "/v1/licenses", { as: "acme" })).status).toBe(200);
    expect((await t.call("GET", "/v1/licenses", { as: "globex" })).status).toBe(503);
    // acme clears its own (none); globex's fault is still armed
    await t.call("DELETE", "/_control/faults", { as: "acme" });
    expect((await t.call("GET", "/v1/licenses", { as: "globex" })).status).toBe(503);
    await t.call("DELETE", "/_control/faults", { as: "globex" });
    expect((await t.call("GET", "/v1/licenses", { as: "globex" })).status).toBe(200);

    await t.call("POST", "/_control/faults", {
      as: "testAdmin",
      body: { faults: [{ kind: "status500", operation: "licenses.list" }] },
    });
    expect((await t.call("GET", "/v1/licenses", { as: "acme" })).status).toBe(500);
  });

  it("the test-admin capability is an explicit fourth field of a token spec", () => {
    expect(parseTokenSpec("s:system-admin:acme")).toEqual({
      secret: "s",
      role: "system-admin",
      parentOrganization: "acme",
    });
    expect(parseTokenSpec("s:member:acme:test-admin")).toMatchObject({ testAdmin: true });
    expect(() => parseTokenSpec("s:system-admin:acme:admin")).toThrow(/only be test-admin/);
  });

  it("/_control needs a system-admin or test-admin token", async () => {
    expect((await t.call("GET", "/_control/requests", { as: "acmeMember" })).status).toBe(403);
    expect((await t.call("GET", "/_control/requests", { as: null })).status).toBe(401);
  });
});
