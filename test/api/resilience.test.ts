/**
 * Retries, budgets and ambiguous POSTs against the reference server's fault injection.
 * Every test ends by checking the server's request log: no POST was ever sent twice.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AmbiguousRequestError, ApiError } from "../../src/api/errors.js";
import { createOrFind } from "../../src/api/create-or-find.js";
import { postCalls, postsIn, startClient, type ClientFixture } from "./helpers.js";

let f: ClientFixture;
beforeAll(async () => {
  f = await startClient();
});
afterEach(() => {
  f.server.faults.clear();
});
afterAll(async () => {
  // The request log shows no retried POST: the server saw exactly the POSTs the clients made.
  expect(postsIn(f.server.requestLog).length).toBe(postCalls(f.client).calls + extraPosts);
  await f.stop();
});
/** POSTs made by other clients of this file. */
let extraPosts = 0;

describe("idempotent requests", () => {
  it("honours Retry-After on a 429", async () => {
    f.server.faults.add({ kind: "status429", operation: "licenses.list", retryAfter: 1 });
    const t0 = performance.now();
    const list = await f.client.ops.licenses.list();
    const elapsed = performance.now() - t0;
    expect(list.length).toBeGreaterThan(0);
    expect(elapsed).toBeGreaterThanOrEqual(1000);
    const log = f.server.requestLog.filter((e) => e.operation === "licenses.list").slice(-2);
    expect(log.map((e) => e.status)).toEqual([429, 200]);
  });

  it("survives a 503 storm within the retry limit", async () => {
    const c = f.newClient({ retry: { baseDelayMs: 5, maxDelayMs: 20, maxRetries: 5 } });
    f.server.faults.add({ kind: "status503", operation: "organizations.list", times: 5 });
    const orgs = await c.ops.organizations.list();
    expect(orgs.length).toBeGreaterThan(0);
    const s = c.metrics.snapshot();
    expect(s.retries).toBe(5);
    expect(s.byOperation["organizations.list"]).toMatchObject({ calls: 1, attempts: 6, errors: 0 });
    expect(s.retryReasons).toEqual({ "503": 5 });
  });

  it("a storm longer than the retry limit surfaces a clear error", async () => {
    const c = f.newClient({ retry: { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 3 } });
    f.server.faults.add({ kind: "status503", operation: "organizations.list", times: 10 });
    const e = (await c.ops.organizations.list().catch((x: unknown) => x)) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(503);
    expect(e.attempts).toBe(4);
    expect(e.message).toBe(
      "GET /v1/organization/list (organizations.list): 503 UNAVAILABLE: service unavailable (injected) (gave up after 4 attempts: retry limit 3 reached)",
    );
  });

  it("a client-wide retry budget stops retry floods across calls", async () => {
    const c = f.newClient({
      retry: { baseDelayMs: 1, maxDelayMs: 2, maxRetries: 5, budget: 4, budgetRefill: 0 },
    });
    f.server.faults.add({ kind: "status503", operation: "licenses.list", times: 100 });
    const errors = await Promise.all(
      [1, 2, 3].map(() =>
        c.ops.licenses.list().then(
          () => undefined as unknown as ApiError,
          (x: unknown) => x as ApiError,
        ),
      ),
    );
    const s = c.metrics.snapshot();
    expect(s.retries).toBe(4);
    expect(s.budgetDenied).toBe(3);
    for (const e of errors) expect(e.status).toBe(503);
    expect(errors.filter((e) => e.message.includes("retry budget spent")).length).toBe(3);
    expect(s.attempts).toBe(7);
  });

  it("gives up on a Retry-After longer than the cap instead of hanging", async () => {
    const c = f.newClient({ retry: { maxRetryAfterMs: 2000 } });
    f.server.faults.add({ kind: "status429", operation: "licenses.list", retryAfter: 30 });
    const t0 = performance.now();
    const e = (await c.ops.licenses.list().catch((x: unknown) => x)) as ApiError;
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(e.status).toBe(429);
    expect(e.retryAfterMs).toBe(30_000);
    expect(e.message).toContain("Retry-After 30 s exceeds the 2 s cap");
  });

  it("retries a GET whose connection was dropped", async () => {
    f.server.faults.add({ kind: "drop", operation: "licenses.list", times: 2 });
    const c = f.newClient();
    const list = await c.ops.licenses.list();
    expect(list.length).toBeGreaterThan(0);
    expect(c.metrics.snapshot().retryReasons).toEqual({ "connection UND_ERR_SOCKET": 2 });
  });

  it("a timeout on a GET is retried; past the limit it is a TIMEOUT error", async () => {
    const slow = await startClient(
      { latencyMs: 300 },
      { timeoutMs: 50, retry: { maxRetries: 1, baseDelayMs: 1 } },
    );
    try {
      const e = (await slow.client.ops.licenses.list().catch((x: unknown) => x)) as ApiError;
      expect(e.code).toBe("TIMEOUT");
      expect(e.attempts).toBe(2);
    } finally {
      await slow.stop();
    }
  });
});

describe("non-idempotent requests", () => {
  it("a connection dropped after a POST is an AmbiguousRequestError, and the POST is not re-sent", async () => {
    const before = postsIn(f.server.requestLog).length;
    f.server.faults.add({ kind: "dropAfter", method: "POST", operation: "organizations.create" });
    const e = await f.client.ops.organizations
      .create({ body: { organization: "rs-ambiguous" } })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AmbiguousRequestError);
    expect((e as ApiError).code).toBe("AMBIGUOUS");
    expect((e as ApiError).message).toContain("may have taken effect");
    expect(postsIn(f.server.requestLog).length).toBe(before + 1);
    // It did take effect:
    const orgs = await f.client.ops.organizations.list();
    expect(orgs.filter((o) => o.name === "rs-ambiguous")).toHaveLength(1);
  });

  it("createOrFind: a dropped POST creates the object exactly once, with one POST in the log", async () => {
    const before = postsIn(f.server.requestLog).length;
    f.server.faults.add({ kind: "dropAfter", method: "POST", operation: "organizations.create" });
    const r = await createOrFind(
      async () =>
        (await f.client.ops.organizations.create({ body: { organization: "rs-once" } })).data,
      async () => (await f.client.ops.organizations.list()).find((o) => o.name === "rs-once"),
    );
    expect(r.outcome).toBe("found");
    expect(r.value.name).toBe("rs-once");
    const orgs = await f.client.ops.organizations.list();
    expect(orgs.filter((o) => o.name === "rs-once")).toHaveLength(1);
    const posts = postsIn(f.server.requestLog).slice(before);
    expect(posts).toHaveLength(1);
    expect(posts[0].fault).toBe("dropAfter");
  });

  it("createOrFind: a POST dropped before the handler ran is sent again after the re-read", async () => {
    const before = postsIn(f.server.requestLog).length;
    f.server.faults.add({ kind: "drop", method: "POST", operation: "organizations.create" });
    const r = await createOrFind(
      async () =>
        (await f.client.ops.organizations.create({ body: { organization: "rs-twice" } })).data,
      async () => (await f.client.ops.organizations.list()).find((o) => o.name === "rs-twice"),
      { delayMs: 5 },
    );
    expect(r).toMatchObject({ outcome: "created", attempts: 2 });
    expect(
      postsIn(f.server.requestLog)
        .slice(before)
        .map((p) => p.status),
    ).toEqual([0, 201]);
    // The second POST was a deliberate, re-read-guarded attempt by the caller.
    extraPosts += 0;
  });

  it("a 503 on a POST is ambiguous and is not retried", async () => {
    f.server.faults.add({ kind: "status503", method: "POST" });
    const e = (await f.client.ops.organizations
      .create({ body: { organization: "rs-503" } })
      .catch((x: unknown) => x)) as ApiError;
    expect(e).toBeInstanceOf(AmbiguousRequestError);
    expect(e.status).toBe(503);
    expect(e.attempts).toBe(1);
  });

  it("a 429 on a POST is surfaced with its Retry-After; createOrFind waits and sends again", async () => {
    f.server.faults.add({ kind: "status429", method: "POST", retryAfter: 1 });
    const e = (await f.client.ops.organizations
      .create({ body: { organization: "rs-429" } })
      .catch((x: unknown) => x)) as ApiError;
    expect(e).not.toBeInstanceOf(AmbiguousRequestError);
    expect(e.status).toBe(429);
    expect(e.retryAfterMs).toBe(1000);
    f.server.faults.add({ kind: "status429", method: "POST", retryAfter: 1 });
    const t0 = performance.now();
    const r = await createOrFind(
      async () =>
        (await f.client.ops.organizations.create({ body: { organization: "rs-429" } })).data,
      async () => undefined,
    );
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1000);
    expect(r.outcome).toBe("created");
  });

  it("a queued PUT (rename) is not retried on a 503: each request would queue a job", async () => {
    const org = (await f.client.ops.organizations.create({ body: { organization: "rs-ren" } }))
      .data;
    f.server.faults.add({ kind: "status503", operation: "organizations.rename" });
    const e = await f.client.ops.organizations
      .rename({ params: { orgid: org.id }, body: { new_name: "rs-ren2" } })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AmbiguousRequestError);
  });
});
