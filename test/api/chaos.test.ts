/**
 * Chaos: the reference server injects a fault into 20 % (then 35 %) of requests (500, 503,
 * 429 with Retry-After 1 s, dropped connections). A read workload with the client's default
 * retry settings must complete with no error reaching the caller, and a flaky service is
 * not mistaken for an outage.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { FAST } from "./helpers.js";

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
        `${JSON.stringify(m.retryReasons)}, budget denied ${m.budgetDenied}, ` +
        `${m.outages} outages, ${elapsed} ms`,
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

it("2,000 GETs at fault rate 0.35 all succeed: the retry budget holds, the gate stays open", async () => {
  const flaky = await startServer({ faultRate: 0.35, faultSeed: 35 });
  const client = new ApiClient({
    apiUrl: flaky.url,
    token: TOKENS.member.secret,
    concurrency: 16,
    // Fast backoff only; the limits, the budget and Retry-After (1 s) are the defaults.
    retry: FAST.retry!,
  });
  const t0 = performance.now();
  try {
    const results = await Promise.allSettled(
      Array.from({ length: 2000 }, (_, i) =>
        i % 2 ? client.ops.licenses.list() : client.ops.organizations.list(),
      ),
    );
    const failed = results.filter((r) => r.status === "rejected");
    expect(failed.map((r) => String(r.reason))).toEqual([]);
    const m = client.metrics.snapshot();
    const faults = flaky.server.requestLog.filter((e) => e.fault !== null).length;
    console.log(
      `chaos 0.35: ${m.attempts} requests (${faults} faulted), ${m.retries} retries, ` +
        `budget denied ${m.budgetDenied}, ${m.outages} outages (${m.probes} probes), ` +
        `${Math.round(performance.now() - t0)} ms`,
    );
    expect(m).toMatchObject({ calls: 2000, errors: 0, budgetDenied: 0 });
    expect(faults / m.attempts).toBeGreaterThan(0.3);
    // A false alarm is rare (about one per 55,000 requests) and a probe ends it.
    expect(m.outages).toBeLessThanOrEqual(1);
    expect(flaky.server.requestLog.length).toBe(m.attempts + m.probes);
  } finally {
    await client.close();
    await flaky.close();
  }
}, 30_000);
