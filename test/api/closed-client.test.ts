/**
 * A call made after its client was closed — a sibling read still running when its command
 * ended on another read's error — fails at once and is not retried: retried with backoff
 * as a connection error, it kept the process alive for seconds after the command was done.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/errors.js";
import { startClient, type ClientFixture } from "./helpers.js";

let f: ClientFixture;
beforeAll(async () => {
  f = await startClient();
});
afterAll(() => f.stop());

describe("a closed client", () => {
  it("fails a new call at once, without sending or retrying it", async () => {
    const c = f.newClient({ retry: { baseDelayMs: 200, maxDelayMs: 1000, maxRetries: 5 } });
    await c.call("licenses.list");
    const before = f.server.requestLog.length;
    await c.close();
    const t0 = performance.now();
    const e = (await c.call("licenses.list").catch((x: unknown) => x)) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect(e.message).toContain("the command had ended (its connections were closed)");
    expect(performance.now() - t0).toBeLessThan(150); // no retry (the first would wait 200 ms)
    expect(c.metrics.snapshot().retries).toBe(0);
    expect(f.server.requestLog.length).toBe(before);
  });
});
