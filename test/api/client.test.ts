import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { AmbiguousRequestError, ApiError } from "../../src/api/errors.js";
import { TOKENS } from "../helpers/server.js";
import { startClient, type ClientFixture } from "./helpers.js";

let f: ClientFixture;
beforeAll(async () => {
  f = await startClient();
});
afterAll(async () => {
  await f.stop();
});

describe("typed calls", () => {
  it("reads the license catalogue through call() and the named method alike", async () => {
    const a = await f.client.call("licenses.list");
    const b = await f.client.ops.licenses.list();
    expect(a.map((l) => l.name)).toContain("Apache-2.0");
    expect(b).toEqual(a);
  });

  it("creates an organization with a typed body and reads it back", async () => {
    const created = await f.client.ops.organizations.create({ body: { organization: "tc-org1" } });
    expect(created.data.name).toBe("tc-org1");
    expect(created.data.parentOrganization).toBe("acme");
    const list = await f.client.call("organizations.list");
    expect(list.map((o) => o.name)).toContain("tc-org1");
    const ui = await f.client.ops.organizations.ui();
    expect(ui.organizations.map((o) => o.name)).toContain("tc-org1");
  });

  it("counts calls, attempts and latency by operation", async () => {
    const c = f.newClient();
    await c.ops.licenses.list();
    await c.ops.licenses.list();
    await c.ops.organizations.list();
    const s = c.metrics.snapshot();
    expect(s.calls).toBe(3);
    expect(s.attempts).toBe(3);
    expect(s.retries).toBe(0);
    expect(s.byOperation["licenses.list"].calls).toBe(2);
    expect(s.byOperation["organizations.list"].p50Ms).toBeGreaterThan(0);
    expect(c.metrics.summary()[0]).toMatch(/^api: 3 calls, 3 requests, 0 retries, 0 errors/);
  });
});

describe("errors", () => {
  it("maps a 409 to ApiError with status, code, template, operation, message and field errors", async () => {
    await f.client.ops.organizations.create({ body: { organization: "tc-dup" } });
    const e = await f.client.ops.organizations
      .create({ body: { organization: "tc-dup" } })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).not.toBeInstanceOf(AmbiguousRequestError);
    const err = e as ApiError;
    expect(err.status).toBe(409);
    expect(err.code).toBe("CONFLICT");
    expect(err.method).toBe("POST");
    expect(err.pathTemplate).toBe("/v1/organization");
    expect(err.operation).toBe("organizations.create");
    expect(err.serverMessage).toBe("organization tc-dup already exists");
    expect(err.fieldErrors).toEqual([
      { field: "organization", message: "organization tc-dup already exists" },
    ]);
    expect(err.attempts).toBe(1);
    expect(err.message).toBe(
      "POST /v1/organization (organizations.create): 409 CONFLICT: organization tc-dup already exists [organization: organization tc-dup already exists]",
    );
  });

  it("names the path template, not the filled path", async () => {
    const e = (await f.client.ops.organizations
      .rename({ params: { orgid: 987654 }, body: { new_name: "zz" } })
      .catch((x: unknown) => x)) as ApiError;
    expect(e.status).toBe(404);
    expect(e.message).toContain(
      "PUT /v1/organization/{orgid} (organizations.rename): 404 NOT_FOUND",
    );
    expect(e.message).not.toContain("987654/");
  });

  it("reports 400 field errors of an invalid body", async () => {
    const e = (await f.client
      .raw("POST", "/v1/organization", { body: { nope: 1 } })
      .catch((x: unknown) => x)) as ApiError;
    expect(e.status).toBe(400);
    expect(e.code).toBe("BAD_REQUEST");
    expect(e.fieldErrors.map((x) => x.field)).toContain("organization");
  });

  it("a 401 says which token setting to fix, and never shows the token", async () => {
    const bad = new ApiClient({
      apiUrl: f.url,
      token: "wrong-secret-token-1234",
      gitToken: "wrong-git-token-5678",
    });
    try {
      const e = (await bad.ops.licenses.list().catch((x: unknown) => x)) as ApiError;
      expect(e.status).toBe(401);
      expect(e.message).toBe(
        "GET /v1/licenses (licenses.list): 401 UNAUTHORIZED: invalid token — the token was not accepted: set a valid one in PHCTL_TOKEN or pass --token-file FILE",
      );
      // The delivery-metrics API has its own token.
      const g = (await bad
        .raw("GET", "/git-api/groups/4242/dora/metrics", {
          query: { metric: "deployment_frequency" },
        })
        .catch((x: unknown) => x)) as ApiError;
      expect(g.status).toBe(401);
      expect(g.message).toContain("the delivery-metrics token was not accepted");
      expect(g.message).toContain("PHCTL_GIT_TOKEN");
      expect(g.message).not.toContain("PHCTL_TOKEN ");
      for (const x of [e, g]) {
        const printed = `${x.message}\n${x.details.join("\n")}\n${x.stack}\n${JSON.stringify(x)}`;
        expect(printed).not.toContain("wrong-secret-token-1234");
        expect(printed).not.toContain("wrong-git-token-5678");
      }
      expect(JSON.stringify(bad)).not.toContain("wrong-secret-token-1234");
      // A 401 is an answer, not an outage: one attempt each, the gate stayed open.
      expect(bad.metrics.snapshot()).toMatchObject({ attempts: 2, outages: 0 });
    } finally {
      await bad.close();
    }
  });

  it("a 403 for a role names the operation", async () => {
    const member = f.newClient({ as: "member" });
    const e = (await member.ops.organizations
      .create({ body: { organization: "tc-nope" } })
      .catch((x: unknown) => x)) as ApiError;
    expect(e.status).toBe(403);
    expect(e.code).toBe("FORBIDDEN");
    expect(e.message).not.toContain(TOKENS.member.secret);
  });

  it("an unreachable server is a CONNECTION_FAILED error after retries", async () => {
    const c = new ApiClient({
      apiUrl: "http://127.0.0.1:9",
      token: "x-token-unreachable",
      retry: { baseDelayMs: 1, maxDelayMs: 2, maxRetries: 2 },
    });
    try {
      const e = (await c.ops.licenses.list().catch((x: unknown) => x)) as ApiError;
      expect(e).toBeInstanceOf(ApiError);
      expect(e.code).toBe("CONNECTION_FAILED");
      expect(e.attempts).toBe(3);
      expect(e.message).toMatch(/connection failed: .*ECONNREFUSED.*gave up after 3 attempts/);
    } finally {
      await c.close();
    }
  });
});

describe("raw calls", () => {
  it("finds the route of a raw path and applies its rules", async () => {
    const r = await f.client.raw("GET", "/v1/organization/list");
    expect(r.operation).toBe("organizations.list");
    expect(Array.isArray(r.body)).toBe(true);
    expect(f.client.route("PUT", "/v1/organization/12")?.operation).toBe("organizations.rename");
  });

  it("sends an unknown path as it is and maps the 404", async () => {
    const e = (await f.client.raw("GET", "/v1/nowhere?x=1").catch((x: unknown) => x)) as ApiError;
    expect(e.status).toBe(404);
    expect(e.operation).toBeUndefined();
    expect(e.message).toContain("GET /v1/nowhere: 404 NOT_FOUND");
  });
});
