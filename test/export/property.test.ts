/**
 * Property: for any small organization (users with accounts, teams, projects with access,
 * subgroups, repositories, forks, mirrors, artifact repositories), export → load → plan shows
 * no changes, and the export makes no more calls than that plan (apart from one services read
 * per user without any account, which the plan of such a user skips).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seed } from "../../src/server/seed.js";
import { organization } from "./arbitraries.js";
import { startServer } from "../helpers/server.js";
import { entryLines, roundTrip } from "./fixtures.js";

describe("export round trip (property)", () => {
  it("any small organization: export → plan shows no changes, with no more calls", async () => {
    await fc.assert(
      fc.asyncProperty(organization, async (doc) => {
        const t = await startServer();
        try {
          seed(t.server.ctx, doc);
          const r = await roundTrip(t, { organization: "acme" });
          expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
          expect(entryLines(r.plan)).toEqual([]);
          // The one read a plan can skip: the accounts of a user declared without any.
          const withoutAccounts = (doc.users ?? []).filter(
            (u) => Object.keys(u.services ?? {}).length === 0,
          ).length;
          expect(r.result.apiCalls).toBeLessThanOrEqual(r.planCalls + withoutAccounts);
        } finally {
          await t.close();
        }
      }),
      { numRuns: 8 },
    );
  }, 60_000);
});
