/**
 * A one-shot fault with a `rate` (armed through /_control/faults): it strikes each matching
 * request with that probability, from the server's seeded PRNG, until its `times` are spent —
 * the crash benchmark's "dropped answer after the server acted" on a share of the POSTs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startServer({ faultSeed: 7 });
});
afterAll(() => t.close());

describe("a one-shot fault with a rate", () => {
  it("drops the answers of some POSTs after they landed, leaves the others alone", async () => {
    const armed = await t.call("POST", "/_control/faults", {
      body: { faults: [{ kind: "dropAfter", method: "POST", rate: 0.5, times: 1000 }] },
    });
    expect(armed.status).toBe(200);
    const answered: boolean[] = [];
    for (let i = 0; i < 20; i++) {
      const ok = await t
        .call("POST", "/v1/organization", { body: { organization: `rate-${i}` } })
        .then(
          (r) => r.status === 201,
          () => false,
        );
      answered.push(ok);
    }
    // Some answered, some dropped — and every one landed.
    expect(answered.filter(Boolean).length).toBeGreaterThan(2);
    expect(answered.filter((a) => !a).length).toBeGreaterThan(2);
    const names = (await t.call("GET", "/v1/organization/list")).body.map(
      (o: { name: string }) => o.name,
    );
    for (let i = 0; i < 20; i++) expect(names).toContain(`rate-${i}`);
    const log = t.server.requestLog.filter((e) => e.operation === "organizations.create");
    expect(log.filter((e) => e.fault === "dropAfter")).toHaveLength(
      answered.filter((a) => !a).length,
    );
    await t.call("DELETE", "/_control/faults");
    // A rate is a probability.
    const bad = await t.call("POST", "/_control/faults", {
      body: { faults: [{ kind: "dropAfter", rate: 2 }] },
    });
    expect(bad.status).toBe(400);
  });
});
