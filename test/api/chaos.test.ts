/**
 * Chaos: the reference server injects a fault into 20 % of requests (500, 503, 429 with
 * Retry-After 1 s, dropped connections). A 500-call read workload with the client's default
 * retry settings must complete with no error reaching the caller.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ faultRate: 0.2, faultSeed: 7 });
});
afterAll(async () => {
  await s.close();
});

it("a 500-request read workload at fault rate 0.2 completes with no error surfaced", async () => {
  const client = new ApiClient({ apiUrl: s.url, token: TOKENS.member.secret, concurrency: 8 });
  const reads = [
    () => client.ops.licenses.list(),
    () => client.ops.organizations.list(),
    () => client.ops.organizations.ui(),
  ];
  const t0 = performance.now();
  try {
    const results = await Promise.allSettled(
      Array.from({ length: 500 }, (_, i) => reads[i % reads.length]()),
    );
    const elapsed = Math.round(performance.now() - t0);
    const failed = results.filter((r) => r.status === "rejected");
    expect(failed.map((r) => String(r.reason))).toEqual([]);
    const m = client.metrics.snapshot();
    const faults = s.server.requestLog.filter((e) => e.fault !== null).length;
    console.log(
      `chaos: ${m.calls} calls, ${m.attempts} requests (${faults} faulted), ${m.retries} retries ` +
        `${JSON.stringify(m.retryReasons)}, budget denied ${m.budgetDenied}, ${elapsed} ms`,
    );
    expect(m.calls).toBe(500);
    expect(m.errors).toBe(0);
    expect(m.retries).toBeGreaterThan(50);
    expect(m.attempts).toBe(500 + m.retries);
    // The server saw every attempt (a dropped connection is logged with status 0).
    expect(s.server.requestLog.length).toBe(m.attempts);
  } finally {
    await client.close();
  }
}, 120_000);
