/**
 * A smoke of the reference server soak (bench/soak.ts; finding 2 of issue 16 at length):
 * the built `phctl serve --control --request-log 200` in a child process takes 3,000
 * requests of the soak's mix over keep-alive connections; every answer is the one the mix
 * expects, memory is sampled, and the log stays at its bound with the newest request last.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { drive, flatness, readSoakLog, startSoakServer } from "../../bench/soak-load.js";

const dir = mkdtempSync(join(tmpdir(), "phctl-soak-smoke-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("reference server soak, small", () => {
  it("3,000 requests: expected answers, memory sampled, the request log at its bound", async () => {
    const server = await startSoakServer(dir, 200);
    try {
      const r = await drive(server, { requests: 3000, concurrency: 8, samples: 10 });
      expect(r.unexpected).toBe(0);
      expect(r.samples).toHaveLength(10);
      const f = flatness(r.samples);
      expect(f.firstHeapMB).toBeGreaterThan(1);
      expect(Number.isFinite(f.heapRatio)).toBe(true);
      const log = await readSoakLog(server.url);
      expect(log.length).toBeLessThanOrEqual(200);
      expect(log.length).toBeGreaterThan(180);
      expect(log.at(-1)!.seq).toBe(3000);
    } finally {
      await server.stop();
    }
  });
});
