/** Every operation of the route table has a handler; deprecated ones say so in a header. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../../src/api/routes.js";
import { allHandlers } from "../../src/server/app.js";
import { startServer, type TestServer } from "../helpers/server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startServer();
});
afterAll(() => t.close());

describe("route coverage", () => {
  it("every operation of src/api/routes.ts has a handler", () => {
    const handlers = allHandlers();
    const missing = operations.map(([id]) => id).filter((id) => !(id in handlers));
    expect(missing).toEqual([]);
    expect(operations.length).toBeGreaterThan(130);
  });

  it("deprecated operations work and answer a Deprecation header; others do not", async () => {
    const users = await t.call("GET", "/v1/metrics/users/email");
    expect(users.status).toBe(200);
    expect(users.headers.deprecation).toBe("@1769904000");
    const live = await t.call("GET", "/v1/metrics/users/gitservice");
    expect(live.status).toBe(200);
    expect(live.headers.deprecation).toBeUndefined();
  });
});
