/**
 * Finding 2 of issue 16: the request log grew without bound (kept forever, on by default,
 * not clearable without /_control). Now it is off unless asked for, a bounded ring of the
 * most recent `requestLogSize` requests when on, and DELETE /_control/requests clears it.
 */
import { describe, expect, it } from "vitest";
import { RequestLog } from "../../src/server/request-log.js";
import { contractServer } from "./contract-helpers.js";

describe("finding 2: the request log is off by default and bounded when on", () => {
  it("a server built without `requestLog` keeps nothing", async () => {
    const t = await contractServer();
    try {
      for (let i = 0; i < 20; i++) await t.call("GET", "/v1/licenses");
      expect(t.server.requestLog).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("with `requestLogSize: 64`, 1,000 requests leave at most 64 entries, the newest last", async () => {
    const t = await contractServer({ control: true, requestLog: true, requestLogSize: 64 });
    try {
      for (let i = 1; i <= 1000; i++) await t.call("GET", `/v1/licenses?n=${i}`);
      const log = t.server.requestLog;
      expect(log.length).toBeLessThanOrEqual(64);
      expect(log.length).toBeGreaterThanOrEqual(60);
      expect(log.at(-1)).toMatchObject({ seq: 1000, url: "/v1/licenses?n=1000", status: 200 });
      expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => 1000 - log.length + 1 + i));

      // answers fastify gives before routing are logged too
      await t.call("GET", "/v1/projects/%zz");
      expect(t.server.requestLog.at(-1)).toMatchObject({ url: "/v1/projects/%zz", status: 400 });

      const read = await t.call("GET", "/_control/requests");
      expect(read.body.data).toHaveLength(log.length);
      expect((await t.call("DELETE", "/_control/requests")).status).toBe(200);
      expect(t.server.requestLog).toEqual([]);
      expect((await t.call("GET", "/_control/requests")).body.data).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("the ring never exceeds its size, for any size, and keeps the newest entries", () => {
    for (const size of [1, 2, 7, 16, 100, 1000]) {
      const log = new RequestLog(true, size);
      let max = 0;
      for (let i = 0; i < size * 5 + 3; i++) {
        log.add({
          method: "GET",
          url: `/${i}`,
          operation: null,
          status: 200,
          fault: null,
          ms: 0,
          parentOrgId: null,
        });
        max = Math.max(max, log.entries.length);
      }
      expect(max).toBe(size);
      expect(log.entries.at(-1)!.seq).toBe(size * 5 + 3);
      expect(log.total).toBe(size * 5 + 3);
    }
    expect(() => new RequestLog(true, 0)).toThrow(/requestLogSize/);
  });
});
