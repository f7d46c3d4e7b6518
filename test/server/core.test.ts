/** The server's cross-cutting behaviour: auth, errors, validation, faults, request log, persistence. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../src/server/app.js";
import { parseTokenSpec, parseTokensFile } from "../../src/server/auth.js";
import { paged, pageWindow } from "../../src/server/paging.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startServer();
});
afterAll(() => t.close());

describe("authentication and roles", () => {
  it("401 without a token and with an unknown one, with WWW-Authenticate", async () => {
    const none = await t.call("GET", "/v1/licenses", { as: null });
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ status: { code: 401, message: "missing bearer token" } });
    expect(none.headers["www-authenticate"]).toBe('Bearer realm="phctl"');
    const bad = await t.call("GET", "/v1/licenses", {
      as: null,
      headers: { authorization: "Bearer nope" },
    });
    expect(bad.status).toBe(401);
    expect(bad.body.status.message).toBe("invalid token");
    expect(JSON.stringify(bad.body)).not.toContain("nope");
  });

  it("403 names the role and what the operation needs", async () => {
    const r = await t.call("POST", "/v1/organization", {
      as: "member",
      body: { organization: "zz" },
    });
    expect(r.status).toBe(403);
    expect(r.body.status.message).toBe(
      "role member may not POST /v1/organization (organizations.create) (needs system-admin)",
    );
  });

  it("the delivery-metrics API wants PRIVATE-TOKEN, not a bearer token", async () => {
    const r = await t.call("GET", "/git-api/projects/1/dora/metrics", {
      query: { metric: "deployment_frequency" },
    });
    expect(r.status).toBe(401);
    expect(r.body.status.message).toBe("missing PRIVATE-TOKEN header");
  });
});

describe("errors and validation", () => {
  it("unknown paths and malformed path parameters are 404", async () => {
    expect((await t.call("GET", "/v1/nothing-here")).status).toBe(404);
    const r = await t.call("GET", "/v1/organization/teams/not-a-number");
    expect(r.status).toBe(404);
    expect(r.body.status.message).toBe("no operation GET /v1/organization/teams/not-a-number");
  });

  it("400 lists every field error of a body", async () => {
    const r = await t.call("POST", "/v1/organization", { body: { organisation: "typo" } });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      { field: "organization", message: "is required" },
      { field: "organisation", message: "unknown field" },
    ]);
    expect(r.body.status.message).toBe(
      "invalid body: organization is required; organisation unknown field",
    );
  });

  it("enum errors name the allowed values", async () => {
    const r = await t.call("POST", "/v1/projects/p/git/mirrors", {
      body: {
        repoURLFrom: "https://a/b.git",
        repoURLTo: "ssh://git@h/x.git",
        refSpaceFrom: "a",
        refSpaceTo: "b",
        frequency: "hourly",
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      { field: "frequency", message: "must be one of once, daily, weekly" },
    ]);
  });

  it("changing an immutable field is 422 with the reason", async () => {
    const r = await t.call("PATCH", "/v1/projects/p", { body: { visibility: "private" } });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([
      {
        field: "visibility",
        message:
          "the visibility of a project cannot be changed through the API; request it by support ticket",
      },
    ]);
    const u = await t.call("PUT", "/v1/users/jdoe", {
      body: { firstName: "J", lastName: "D", username: "x" },
    });
    expect(u.status).toBe(422);
    expect(u.body.errors[0].field).toBe("username");
  });
});

describe("fault injection and the request log", () => {
  it("one-shot 503 and 429 with Retry-After strike once, then the call works", async () => {
    t.server.faults.add({ kind: "status503", operation: "licenses.list" });
    t.server.faults.add({ kind: "status429", operation: "licenses.list", retryAfter: 3 });
    const a = await t.call("GET", "/v1/licenses");
    const b = await t.call("GET", "/v1/licenses");
    const c = await t.call("GET", "/v1/licenses");
    expect([a.status, b.status, c.status]).toEqual([503, 429, 200]);
    expect(b.headers["retry-after"]).toBe("3");
  });

  it("one-shot 403 refuses once in the error envelope, then the call works", async () => {
    t.server.faults.add({ kind: "status403", operation: "licenses.list" });
    const a = await t.call("GET", "/v1/licenses");
    const b = await t.call("GET", "/v1/licenses");
    expect([a.status, b.status]).toEqual([403, 200]);
    expect(a.body.status.message).toBe("forbidden (injected)");
  });

  it("a dropped connection before the handler changes nothing; dropAfter changes and drops", async () => {
    t.server.faults.add({ kind: "drop", method: "POST", operation: "organizations.create" });
    await expect(
      t.call("POST", "/v1/organization", { body: { organization: "dropped" } }),
    ).rejects.toThrow();
    let names = (await t.call("GET", "/v1/organization/list")).body.map(
      (o: { name: string }) => o.name,
    );
    expect(names).not.toContain("dropped");

    t.server.faults.add({ kind: "dropAfter", method: "POST", operation: "organizations.create" });
    await expect(
      t.call("POST", "/v1/organization", { body: { organization: "landed" } }),
    ).rejects.toThrow();
    names = (await t.call("GET", "/v1/organization/list")).body.map(
      (o: { name: string }) => o.name,
    );
    expect(names).toContain("landed");

    const log = t.server.requestLog.filter((e) => e.operation === "organizations.create");
    expect(log.slice(-2).map((e) => e.fault)).toEqual(["drop", "dropAfter"]);
  });

  it("the request log is readable and clearable through /_control with a system-admin token", async () => {
    const denied = await t.call("GET", "/_control/requests", { as: "member" });
    expect(denied.status).toBe(403);
    await t.call("DELETE", "/_control/requests");
    await t.call("GET", "/v1/licenses", { as: "member" });
    const r = await t.call("GET", "/_control/requests");
    expect(r.body.data).toEqual([
      expect.objectContaining({
        method: "GET",
        url: "/v1/licenses",
        operation: "licenses.list",
        status: 200,
      }),
    ]);
  });

  it("random faults follow the rate and are reproducible by seed", async () => {
    const statuses = async (seed: number) => {
      const s = await startServer({ faultRate: 0.5, faultSeed: seed });
      const out: number[] = [];
      for (let i = 0; i < 20; i++) {
        out.push(
          await s.call("GET", "/v1/licenses").then(
            (r) => r.status,
            () => 0,
          ),
        );
      }
      await s.close();
      return out;
    };
    const a = await statuses(42);
    expect(await statuses(42)).toEqual(a);
    expect(a.filter((x) => x === 200).length).toBeGreaterThan(2);
    expect(a.filter((x) => x !== 200).length).toBeGreaterThan(2);
  });

  it("injected latency delays every answer", async () => {
    const s = await startServer({ latencyMs: 40 });
    const t0 = performance.now();
    await s.call("GET", "/v1/licenses");
    expect(performance.now() - t0).toBeGreaterThanOrEqual(29);
    await s.close();
  });
});

describe("persistence", () => {
  it("--db FILE keeps data and pending jobs across restarts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "phctl-db-"));
    const db = join(dir, "ph.sqlite");
    const tokens = [TOKENS.admin];
    const auth = {
      authorization: `Bearer ${TOKENS.admin.secret}`,
      "content-type": "application/json",
    };
    const one = await buildServer({ db, tokens, queueDelayMs: 60_000 });
    const url1 = await one.listen();
    const created = await request(`${url1}/v1/organization`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ organization: "kept" }),
    });
    const org = (await created.body.json()) as { data: { id: number } };
    const renamed = await request(`${url1}/v1/organization/${org.data.id}`, {
      method: "PUT",
      headers: auth,
      body: JSON.stringify({ new_name: "kept-renamed" }),
    });
    const { queuid } = (await renamed.body.json()) as { queuid: string };
    await one.close();

    const two = await buildServer({ db, tokens, queueDelayMs: 0 });
    expect(two.ctx.queue.openJobs().map((j) => j.id)).toEqual([queuid]);
    two.ctx.queue.drain();
    const url2 = await two.listen();
    const list = await request(`${url2}/v1/organization/list`, { headers: auth });
    const names = ((await list.body.json()) as { name: string }[]).map((o) => o.name);
    expect(names).toContain("kept-renamed");
    await two.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("tokens and paging helpers", () => {
  it("parses SECRET:ROLE:PARENT_ORG and token files", () => {
    expect(parseTokenSpec("s:member:acme")).toEqual({
      secret: "s",
      role: "member",
      parentOrganization: "acme",
    });
    expect(() => parseTokenSpec("s:root:acme")).toThrow("token role must be one of");
    expect(() => parseTokenSpec("s:member")).toThrow("SECRET:ROLE:PARENT_ORG");
    expect(parseTokensFile("# comment\n\na:users-admin:x\nb:system-admin:y\n")).toHaveLength(2);
  });

  it("pages with the spec's defaults and clamps large limits", () => {
    expect(pageWindow({}, 100)).toEqual({ page: 1, limit: 10, offset: 0, all: false });
    expect(pageWindow({ limit: 5000, page: 2 }, 100)).toEqual({
      page: 2,
      limit: 100,
      offset: 100,
      all: false,
    });
    const items = Array.from({ length: 25 }, (_, i) => i);
    const p3 = paged({ page: 3 }, 100, 25, (l, o) => items.slice(o, o + l));
    expect(p3).toEqual({
      pagination: { page: 3, limit: 10, total: 25, totalPages: 3 },
      data: [20, 21, 22, 23, 24],
    });
    const all = paged({ all: true }, 100, 25, () => items);
    expect(all.pagination).toEqual({ page: 1, limit: 25, total: 25, totalPages: 1 });
  });
});
