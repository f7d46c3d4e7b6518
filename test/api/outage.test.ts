/**
 * The outage gate against a real service that goes away: a reference server stopped and
 * started again on the same port. What a CI run would see: every call survives a short
 * outage, almost nothing is sent while the service is down, and a long outage ends every
 * call at once with one clear OutageError.
 */
import { describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { AmbiguousRequestError, OutageError } from "../../src/api/errors.js";
import { troubleOf } from "../../src/api/outage.js";
import type { ClientEvent } from "../../src/api/request.js";
import { sleep } from "../../src/api/limit.js";
import { TOKENS } from "../helpers/server.js";
import { FAST, restartableServer } from "./helpers.js";

const outageEvents = (events: ClientEvent[]) => events.filter((e) => e.type.startsWith("outage"));

describe("troubleOf", () => {
  it("counts no answer, 5xx and 429 as trouble, and any other answer as the service answering", () => {
    const answer = (status: number) =>
      ({ kind: "response", status, headers: {}, body: undefined }) as const;
    expect(troubleOf(answer(503))).toBe("503 UNAVAILABLE");
    expect(troubleOf(answer(429))).toBe("429 RATE_LIMITED");
    for (const s of [500, 502, 504]) expect(troubleOf(answer(s))).toMatch(/^5\d\d /);
    for (const s of [200, 201, 400, 401, 403, 404, 409, 422])
      expect(troubleOf(answer(s))).toBe(undefined);
    const refused = {
      kind: "failure",
      sent: false,
      timeout: false,
      code: "ECONNREFUSED",
      message: "",
    } as const;
    expect(troubleOf(refused)).toBe("connection refused (ECONNREFUSED)");
    expect(troubleOf({ ...refused, sent: true, timeout: true, code: "TIMEOUT" })).toMatch(
      /timeout/,
    );
    // The fork's "retry later" 500 is a definite refusal: the service is answering.
    const cleanup = { ...answer(500), body: { status: { code: 500, message: "retry later" } } };
    expect(troubleOf(cleanup, { idempotent: false, forkCleanup: true })).toBe(undefined);
  });
});

describe("a service that goes away", () => {
  it("survives a 2.5 s outage with 200 GETs in flight or queued: paused, probed, resumed", async () => {
    const srv = await restartableServer({ latencyMs: 10 });
    const events: ClientEvent[] = [];
    const client = new ApiClient({
      apiUrl: srv.url,
      token: TOKENS.member.secret,
      concurrency: 8,
      ...FAST,
      onEvent: (e) => events.push(e),
    });
    try {
      const calls = Promise.allSettled(
        Array.from({ length: 200 }, (_, i) =>
          i % 2 ? client.ops.licenses.list() : client.ops.organizations.ui(),
        ),
      );
      // Stop once the first answers came (a loaded machine may take longer than 80 ms).
      for (let waited = 0; srv.log().length === 0 && waited < 5000; waited += 5) await sleep(5);
      const answeredBefore = srv.log().length;
      await srv.stop();
      const stoppedAt = performance.now();
      await sleep(2500);
      await srv.start();
      const results = await calls;

      expect(results.filter((r) => r.status === "rejected").map((r) => String(r.reason))).toEqual(
        [],
      );
      expect(answeredBefore).toBeGreaterThan(0);
      expect(answeredBefore).toBeLessThan(200);
      const outage = outageEvents(events);
      expect(outage.map((e) => e.type)).toEqual(["outage-start", "outage-end"]);
      expect(outage[0]).toMatchObject({
        reason: expect.stringMatching(/ECONNREFUSED|UND_ERR_SOCKET/),
      });
      const end = outage[1] as Extract<ClientEvent, { type: "outage-end" }>;
      expect(end.pausedMs).toBeGreaterThan(2000);
      expect(end.probes).toBeGreaterThanOrEqual(2);
      expect(end.probes).toBeLessThanOrEqual(6);
      const m = client.metrics.snapshot();
      expect(m).toMatchObject({ calls: 200, errors: 0, outages: 1, probes: end.probes });
      // Sent while the service was down: what no instance answered. Only the attempts in
      // flight when it went, the few that made the gate close, and the probes — not 200
      // calls each retrying on its own.
      const unanswered = m.attempts + m.probes - srv.log().length;
      expect(unanswered).toBeLessThanOrEqual(8 + 10 + 8 + end.probes);
      expect(performance.now() - stoppedAt).toBeLessThan(9000);
    } finally {
      await client.close();
      await srv.stop();
    }
  }, 15_000);

  it("gives up after outageTimeoutMs: every waiting call rejects with one OutageError; later calls at once", async () => {
    const srv = await restartableServer();
    const events: ClientEvent[] = [];
    const client = new ApiClient({
      apiUrl: srv.url,
      token: TOKENS.admin.secret,
      ...FAST,
      outageTimeoutMs: 1000,
      onEvent: (e) => events.push(e),
    });
    try {
      await client.ops.licenses.list();
      await srv.stop();
      const t0 = performance.now();
      const results = await Promise.allSettled([
        ...Array.from({ length: 30 }, () => client.ops.licenses.list()),
        // A POST that never left (connection refused) waits like the GETs.
        client.ops.organizations.create({ body: { organization: "og-never-sent" } }),
      ]);
      const waited = performance.now() - t0;
      // A Node timer may fire up to 1 ms early by performance.now(); the message never says so.
      expect(waited).toBeGreaterThanOrEqual(998);
      expect(waited).toBeLessThan(2500);
      const errors = results.map((r) => (r.status === "rejected" ? r.reason : r.value));
      for (const e of errors) expect(e).toBeInstanceOf(OutageError);
      const e = errors[0] as OutageError;
      expect(e.code).toBe("OUTAGE");
      expect(e.source).toBe("user");
      expect(e.message).not.toContain("\n");
      expect(e.message).toMatch(
        new RegExp(
          `^the service at ${srv.url.replace(/\./g, "\\.")} has not answered for 1(\\.\\d)? s ` +
            `\\(last: connection refused \\(ECONNREFUSED\\)\\); gave up waiting\\. ` +
            "Check the service's status page and run the command again once it answers",
        ),
      );
      expect(e.message).not.toContain(TOKENS.admin.secret);
      expect(client.outage).toBe(e);
      expect(client.paused).toBe(false);
      expect(outageEvents(events).map((x) => x.type)).toEqual(["outage-start", "outage-timeout"]);
      expect(e.unavailableMs).toBeGreaterThanOrEqual(1000);

      // Later calls fail at once, even once the service is back: this client has given up.
      await srv.start();
      const t1 = performance.now();
      await expect(client.ops.organizations.list()).rejects.toBe(e);
      expect(performance.now() - t1).toBeLessThan(50);
      expect(client.metrics.snapshot()).toMatchObject({ outages: 1, errors: 32 });
    } finally {
      await client.close();
      await srv.stop();
    }
  }, 10_000);

  it("a POST that may have landed when the service went away is still ambiguous, not re-sent", async () => {
    const srv = await restartableServer();
    const client = new ApiClient({ apiUrl: srv.url, token: TOKENS.admin.secret, ...FAST });
    try {
      srv.current()!.faults.add({ kind: "dropAfter", method: "POST" });
      const e = await client.ops.organizations
        .create({ body: { organization: "og-dropped" } })
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(AmbiguousRequestError);
      expect(srv.log().filter((x) => x.method === "POST")).toHaveLength(1);
    } finally {
      await client.close();
      await srv.stop();
    }
  });
});
