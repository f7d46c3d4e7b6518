/**
 * Defect 8 of issue 34 (second half: the server's memory under fuzzing). The request log
 * is bounded in entries, but each entry kept its whole URL, and Node takes URLs up to its
 * 16 KiB header limit: a full log of long URLs held 160 MB at the default size. Now a URL
 * over MAX_LOGGED_URL characters is kept cut, saying how long it was.
 */
import { describe, expect, it } from "vitest";
import { MAX_LOGGED_URL, RequestLog } from "../../src/server/request-log.js";
import { contractServer } from "./contract-helpers.js";

describe("defect 8: the request log keeps long URLs cut", () => {
  it("a 15,000-character URL is logged as its first 2,000 characters and its length", async () => {
    const t = await contractServer({ control: true, requestLog: true, requestLogSize: 100 });
    try {
      const url = `/v1/licenses?q=${"x".repeat(15_000)}`;
      expect((await t.call("GET", url)).status).toBe(200);
      const e = t.server.requestLog.at(-1)!;
      expect(e.url).toBe(`${url.slice(0, MAX_LOGGED_URL)}…(${url.length} characters)`);
      // a short one is kept as it came
      await t.call("GET", "/v1/licenses?q=short");
      expect(t.server.requestLog.at(-1)!.url).toBe("/v1/licenses?q=short");
    } finally {
      await t.close();
    }
  });

  it("10,000 entries of 16,000-character URLs hold about 20 MB of URLs, not 160 MB", () => {
    const log = new RequestLog(true, 10_000);
    for (let i = 0; i < 10_000; i++) {
      log.add({
        method: "GET",
        url: `/v1/licenses?n=${i}&q=${"y".repeat(16_000)}`,
        operation: null,
        status: 200,
        fault: null,
        ms: 0,
        parentOrgId: null,
      });
    }
    const chars = log.entries.reduce((a, e) => a + e.url.length, 0);
    expect(chars).toBeLessThan(10_000 * 2_050);
  });
});
