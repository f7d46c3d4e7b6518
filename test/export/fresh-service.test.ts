/**
 * An export is a config repository that works against a service that has none of it: the
 * customer organizations it declares are created there (before their users and projects),
 * and once applied the plan shows no changes. Before organizations were exported, the
 * plan of such an export failed ("organization … is neither declared nor exists live").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { runPlan } from "../../src/engine/run-plan.js";
import { exportOrganization } from "../../src/export/index.js";
import { loadManifestTexts } from "../../src/pipeline/load.js";
import { seed } from "../../src/server/seed.js";
import { populate } from "../helpers/populate.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { entryLines, richOrganization } from "./fixtures.js";

let from: TestServer;
let to: TestServer;
beforeAll(async () => {
  [from, to] = await Promise.all([startServer(), startServer()]);
  seed(from.server.ctx, richOrganization());
  // Organization teams cannot be created through the API: the new service has them already.
  seed(to.server.ctx, { parentOrganization: "acme", orgTeams: richOrganization().orgTeams ?? [] });
});
afterAll(() => Promise.all([from.close(), to.close()]));

const client = (t: TestServer) => new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret });

describe("an export applied to a service that lacks its organizations", () => {
  it("plans the organization's creation first, applies, and then plans no changes", async () => {
    const source = client(from);
    const exported = await exportOrganization(source, { organization: "acme" });
    await source.close();
    const { state, diagnostics } = loadManifestTexts(
      exported.files
        .filter((f) => f.holds !== "schema")
        .map((f) => ({ file: f.path, content: f.text, config: f.holds === "config" })),
    );
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const api = client(to);
    try {
      const first = await runPlan({ api, state: state!, apiUrl: to.url });
      const org = first.entries.find((e) => e.key === "organization/acme-partner");
      expect(org?.action).toBe("create");
      const partnerUser = first.entries.find((e) => e.key === "user/cpartner");
      expect(partnerUser?.dependsOn).toContain("organization/acme-partner");
      await populate(api, state!);
      const again = await runPlan({ api, state: state!, apiUrl: to.url });
      expect(entryLines(again)).toEqual([]);
      expect(again.unmanaged).toEqual([]);
    } finally {
      await api.close();
    }
  });
});
