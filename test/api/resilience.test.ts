/**
 * Retries, budgets and ambiguous POSTs against the reference server's fault injection.
 * The file ends by checking the server's request log: no POST that the server processed, or
 * may have processed, was ever sent twice (only a 429, refused before the handler, is).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AmbiguousRequestError, ApiError } from "../../src/api/errors.js";
import { createOrFind } from "../../src/api/create-or-find.js";
import type { ClientEvent } from "../../src/api/request.js";
import type { RequestLogEntry } from "../../src/server/app.js";
import { postCalls, postsIn, startClient, type ClientFixture } from "./helpers.js";

let f: ClientFixture;
beforeAll(async () => {
  f = await startClient();
});
afterEach(() => {
  f.server.faults.clear();
});
afterAll(async () => {
  // The request log shows no retried POST: the server saw exactly the POSTs the clients made,
  // besides those it refused with a 429 (not processed, so sent again).
  const notRefused = postsIn(f.server.requestLog).filter((e) => e.fault !== "status429");
  expect(notRefused.length).toBe(postCalls(f.client).calls + extraPosts);
  await f.stop();
});
/** POSTs made by other clients of this file. */
let extraPosts = 0;

/** The requests of one operation that reached its handler (no fault struck before it). */
const handled = (log: readonly RequestLogEntry[], operation: string) =>
  log.filter((e) => e.operation === operation && (e.fault === null || e.fault === "dropAfter"));

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

  it("an empty retry budget pauses every call at the outage gate instead of failing them", async () => {
    const events: ClientEvent[] = [];
    const c = f.newClient({
      retry: { baseDelayMs: 1, maxDelayMs: 2, maxRetries: 5, budget: 4, budgetRefill: 0 },
      onEvent: (e) => events.push(e),
    });
    // 3 calls × 3 failed attempts: more retries than the budget's 4 tokens, fewer than the
    // 10 in a row that would close the gate on their own.
    f.server.faults.add({ kind: "status503", operation: "licenses.list", times: 9 });
    const lists = await Promise.all([1, 2, 3].map(() => c.ops.licenses.list()));
    for (const l of lists) expect(l.length).toBeGreaterThan(0);
    const s = c.metrics.snapshot();
    expect(s).toMatchObject({ calls: 3, errors: 0, attempts: 12, retries: 9 });
    expect(s.budgetDenied).toBeGreaterThanOrEqual(1);
    expect(s.outages).toBeGreaterThanOrEqual(1);
    const start = events.find((e) => e.type === "outage-start");
    expect(start).toMatchObject({
      reason: "503 UNAVAILABLE",
      trigger: "the client-wide retry budget ran dry",
    });
    // Each outage ended with a probe that the service answered.
    expect(events.filter((e) => e.type === "outage-end")).toHaveLength(s.outages);
    expect(s.probes).toBeGreaterThanOrEqual(s.outages);
    expect(s.pausedMs).toBeLessThan(2000);
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

  it("a 429 on a POST is retried after its Retry-After: one call, the handler ran once", async () => {
    f.server.faults.add({ kind: "status429", method: "POST", retryAfter: 1 });
    const before = handled(f.server.requestLog, "organizations.create").length;
    const t0 = performance.now();
    const created = await f.client.ops.organizations.create({ body: { organization: "rs-429" } });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1000);
    expect(created.data.name).toBe("rs-429");
    expect(handled(f.server.requestLog, "organizations.create").length).toBe(before + 1);
    const log = f.server.requestLog.filter((e) => e.operation === "organizations.create");
    expect(log.slice(-2).map((e) => [e.status, e.fault])).toEqual([
      [429, "status429"],
      [201, null],
    ]);
    const orgs = await f.client.ops.organizations.list();
    expect(orgs.filter((o) => o.name === "rs-429")).toHaveLength(1);
  });

  it("a 429 on a PATCH is retried after its Retry-After: the handler ran once", async () => {
    await f.client.ops.projects.create({
      body: { name: "RS patch", description: "d", projectSlug: "rs-patch" },
    });
    f.server.faults.add({ kind: "status429", method: "PATCH", times: 1, retryAfter: 1 });
    const before = handled(f.server.requestLog, "projects.patch").length;
    const t0 = performance.now();
    const r = await f.client.ops.projects.patch({
      params: { projectSlug: "rs-patch" },
      body: { description: "patched" },
    });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1000);
    expect(r.data.description).toBe("patched");
    expect(handled(f.server.requestLog, "projects.patch").length).toBe(before + 1);
    const patches = f.server.requestLog.filter((e) => e.operation === "projects.patch");
    expect(patches.map((e) => e.status)).toEqual([429, 200]);
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
