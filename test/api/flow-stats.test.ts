/**
 * What the client says about its requests: `flowStats()` (sent and not answered; waiting for
 * the throttle or a slot) and latency measured from send to answer, the wait before sending
 * counted apart (a 40 ms service reads as 40 ms however long requests queue).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startClient, type ClientFixture } from "./helpers.js";

let f: ClientFixture;
beforeAll(async () => {
  f = await startClient({ latencyMs: 40 });
});
afterAll(() => f.stop());

/** Resolves when `ok()` holds (checked every 5 ms), or fails after 3 s. */
async function until(ok: () => boolean): Promise<void> {
  const t0 = performance.now();
  while (!ok()) {
    if (performance.now() - t0 > 3000) throw new Error("condition never held");
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("flowStats", () => {
  it("counts requests on the wire and requests waiting for a slot", async () => {
    const c = f.newClient({ concurrency: 2 });
    expect(c.flowStats()).toEqual({ running: 0, queued: 0 });
    const calls = Array.from({ length: 6 }, () => c.ops.licenses.list());
    await until(() => c.flowStats().running === 2);
    expect(c.flowStats()).toEqual({ running: 2, queued: 4 });
    await Promise.all(calls);
    expect(c.flowStats()).toEqual({ running: 0, queued: 0 });
  });

  it("counts requests waiting for the throttle as queued", async () => {
    const c = f.newClient({ concurrency: 8, maxRps: 20 });
    expect(c.maxRps).toBe(20);
    const calls = Array.from({ length: 3 }, () => c.ops.licenses.list());
    // Every call is waiting before anything is sent: one for its slot, two for the throttle.
    expect(c.flowStats()).toEqual({ running: 0, queued: 3 });
    await Promise.all(calls);
    expect(c.flowStats()).toEqual({ running: 0, queued: 0 });
  });
});

describe("latency from send to answer, queueing apart", () => {
  it("reads the service's latency whatever the queue; the wait before sending is its own figure", async () => {
    const c = f.newClient({ concurrency: 1, maxRps: 20 });
    await Promise.all(Array.from({ length: 6 }, () => c.ops.licenses.list()));
    const s = c.metrics.snapshot();
    const op = s.byOperation["licenses.list"];
    expect(op).toMatchObject({ calls: 6, attempts: 6 });
    // 40 ms ± 25 % on the server, plus loopback: near 40, far below the queue.
    expect(op.p50Ms).toBeGreaterThanOrEqual(25);
    expect(op.p50Ms).toBeLessThan(150);
    // One slot and 20 requests/s: the sixth waited for five before it (≥ 5 × 40 ms).
    expect(op.queuedMaxMs).toBeGreaterThanOrEqual(180);
    expect(s.queued.maxMs).toBe(op.queuedMaxMs);
    const lines = c.metrics.summary();
    expect(lines[1]).toMatch(/^api: waiting to be sent \(throttle, concurrency slot\): p50 \d+/);
    expect(lines.find((l) => l.includes("licenses.list"))).toMatch(
      /^api: {3}licenses\.list ×6 send to answer p50 \d+ ms, p95 \d+ ms, max \d+ ms; waited p50 [\d,.]+ ms, p95 [\d,.]+ ms, max [\d,.]+ ms$/,
    );
  });
});
