import { describe, expect, it } from "vitest";
import {
  backoffMs,
  decide,
  DEFAULT_RETRY,
  parseRetryAfter,
  RetryBudget,
  type RetryClass,
} from "../../src/api/retry.js";
import type { WireOutcome } from "../../src/api/transport.js";

const GET: RetryClass = { idempotent: true, forkCleanup: false };
const POST: RetryClass = { idempotent: false, forkCleanup: false };
const FORK: RetryClass = { idempotent: false, forkCleanup: true };
const answer = (
  status: number,
  headers: Record<string, string> = {},
  message = "x",
): WireOutcome => ({
  kind: "response",
  status,
  headers,
  body: { status: { code: status, message } },
});
const dropped: WireOutcome = {
  kind: "failure",
  sent: true,
  timeout: false,
  code: "UND_ERR_SOCKET",
  message: "other side closed",
};
const refused: WireOutcome = {
  kind: "failure",
  sent: false,
  timeout: false,
  code: "ECONNREFUSED",
  message: "refused",
};
const at = (cls: RetryClass, outcome: WireOutcome, retries = 0, elapsedMs = 0, outage = false) =>
  decide(DEFAULT_RETRY, { cls, outcome, retries, elapsedMs, outage }, () => 0.5);

describe("decide", () => {
  it("retries idempotent requests on 429, 500, 502, 503, 504 and connection errors", () => {
    for (const s of [429, 500, 502, 503, 504]) expect(at(GET, answer(s)).retry).toBe(true);
    expect(at(GET, dropped)).toMatchObject({ retry: true, reason: "connection UND_ERR_SOCKET" });
  });

  it("never retries 4xx other than 429", () => {
    for (const s of [400, 401, 403, 404, 409, 422])
      expect(at(GET, answer(s))).toMatchObject({ retry: false, ambiguous: false });
  });

  it("never re-sends a POST that may have landed; says it is ambiguous", () => {
    expect(at(POST, dropped)).toMatchObject({ retry: false, ambiguous: true });
    for (const s of [500, 502, 503, 504])
      expect(at(POST, answer(s))).toMatchObject({ retry: false, ambiguous: true });
    // Not even during an outage: that lifts the limits, not the safety.
    expect(at(POST, answer(500), 0, 0, true)).toMatchObject({ retry: false, ambiguous: true });
  });

  it("re-sends any request the server refused before processing: 429, 503 with Retry-After", () => {
    expect(at(POST, answer(429, { "retry-after": "1" }))).toMatchObject({
      retry: true,
      reason: "429, Retry-After 1000 ms",
    });
    expect(at(POST, answer(429)).retry).toBe(true);
    const d = at(POST, answer(503, { "retry-after": "2" }));
    expect(d).toMatchObject({ retry: true, reason: "503, Retry-After 2000 ms" });
    expect(d.retry && d.delayMs).toBeGreaterThanOrEqual(2000);
    // A bare 503 may come from a proxy that lost the upstream after forwarding: ambiguous.
    expect(at(POST, answer(503))).toMatchObject({ retry: false, ambiguous: true });
  });

  it("never re-sends a permanent failure; one after a write had left is ambiguous", () => {
    const permanent = (sent: boolean): WireOutcome => ({
      kind: "failure",
      sent,
      timeout: false,
      code: "UND_ERR_CLOSED",
      message: "the command had ended",
      permanent: true,
    });
    expect(at(POST, permanent(true))).toMatchObject({ retry: false, ambiguous: true });
    expect(at(POST, permanent(false))).toMatchObject({ retry: false, ambiguous: false });
    expect(at(GET, permanent(true))).toMatchObject({ retry: false, ambiguous: false });
  });

  it("re-sends any request that never left", () => {
    expect(at(POST, refused)).toMatchObject({
      retry: true,
      reason: "connection ECONNREFUSED (not sent)",
    });
  });

  it("honours Retry-After (seconds or date) and refuses one above the cap", () => {
    const d = at(GET, answer(429, { "retry-after": "2" }));
    expect(d.retry && d.delayMs).toBeGreaterThanOrEqual(2000);
    const far = at(GET, answer(429, { "retry-after": "3600" }));
    expect(far).toMatchObject({ retry: false, exhausted: true });
    expect(far.reason).toBe("Retry-After 3600 s exceeds the 60 s cap");
  });

  it("stops at the retry limit and at the deadline", () => {
    expect(at(GET, answer(503), 9).retry).toBe(true);
    expect(at(GET, answer(503), 10)).toMatchObject({
      retry: false,
      reason: "retry limit 10 reached",
      exhausted: true,
    });
    expect(at(GET, answer(503), 1, 119_990)).toMatchObject({ retry: false, exhausted: true });
  });

  it("an outage's retry counts against neither the limit nor the deadline", () => {
    expect(at(GET, answer(503), 10, 0, true)).toMatchObject({ retry: true, reason: "503" });
    expect(at(GET, refused, 50, 500_000, true).retry).toBe(true);
    // A Retry-After above the cap still surfaces: waiting would outlast the outage deadline.
    expect(at(GET, answer(429, { "retry-after": "3600" }), 0, 0, true).retry).toBe(false);
  });

  it("retries the fork-cleanup 500 up to its deadline, past the retry limit", () => {
    const cleanup = answer(
      500,
      {},
      "the previous fork failed and is being cleaned up; retry later",
    );
    expect(at(FORK, cleanup, 20, 1000).retry).toBe(true);
    expect(at(FORK, cleanup, 20, 200_000)).toMatchObject({ retry: false, exhausted: true });
    // Any other 500 on the fork is an ambiguous failure.
    expect(at(FORK, answer(500, {}, "internal error"))).toMatchObject({
      retry: false,
      ambiguous: true,
    });
  });
});

describe("backoff", () => {
  it("is full jitter under an exponential, capped ceiling", () => {
    expect(backoffMs(1, 100, 1000, () => 1)).toBe(100);
    expect(backoffMs(3, 100, 1000, () => 1)).toBe(400);
    expect(backoffMs(10, 100, 1000, () => 1)).toBe(1000);
    expect(backoffMs(3, 100, 1000, () => 0)).toBe(0);
    for (let i = 0; i < 100; i++) {
      const d = backoffMs(4, 100, 1000);
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThanOrEqual(800);
    }
  });
});

describe("parseRetryAfter", () => {
  it("reads delta-seconds and HTTP dates", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    expect(parseRetryAfter("0.5")).toBe(500);
    const now = Date.parse("2026-02-01T00:00:00Z");
    expect(parseRetryAfter("Sun, 01 Feb 2026 00:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
  });
});

describe("RetryBudget", () => {
  it("spends a token per retry, refuses when empty, refills on success", () => {
    const b = new RetryBudget(2, 0.5);
    expect(b.take()).toBe(true);
    expect(b.take()).toBe(true);
    expect(b.take()).toBe(false);
    expect(b.denied).toBe(1);
    b.success();
    b.success();
    expect(b.take()).toBe(true);
    for (let i = 0; i < 10; i++) b.success();
    expect(b.remaining).toBe(2);
    b.take();
    b.take();
    b.refillAll();
    expect(b.remaining).toBe(2);
  });

  it("by default holds under a 35 % fault rate, and runs dry when failures outnumber successes", () => {
    /** Attempts at a fault rate (a fixed pattern, no randomness); the refused retries. */
    const run = (faultsPer20: number) => {
      const b = new RetryBudget(DEFAULT_RETRY.budget, DEFAULT_RETRY.budgetRefill);
      for (let i = 0; i < 20_000; i++) {
        if (i % 20 < faultsPer20) b.take();
        else b.success();
      }
      return b.denied;
    };
    expect(run(7)).toBe(0); // 35 %: 0.54 retries per success
    expect(run(9)).toBe(0); // 45 %
    expect(run(12)).toBeGreaterThan(0); // 60 %: trouble across the board
  });
});
