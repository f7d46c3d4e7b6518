/**
 * The delivery report's reads of 300 projects (290 with a git group) against the reference
 * server: each read once, the fewest the API allows with one period per DORA read —
 *   1 organization list + 1 project list
 *   + per project: its git group + its pipelines over both periods
 *   + per project with a git group: 9 DORA reads (each metric daily over the period and in
 *     all over the previous one, the change failure rate in all over the period)
 *   + per organization: 3 user counts
 * — and through a bounded fan-out: never thousands of calls pending at once (a section keeps
 * about FAN_OUT pending, engine/bounded.ts). Counted from the server's request log.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { FAN_OUT } from "../../src/engine/bounded.js";
import { ReadContext } from "../../src/engine/read-context.js";
import { readDeliveryLive } from "../../src/report/delivery-read.js";
import { periods } from "../../src/report/span.js";
import type { SectionStatus } from "../../src/report/types.js";
import { seed, type SeedProject } from "../../src/server/seed.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

const PROJECTS = 300;
const WITHOUT_GIT = 10;

let t: TestServer;
beforeAll(async () => {
  t = await startServer({ checkResponses: false });
  const projects: SeedProject[] = Array.from({ length: PROJECTS }, (_, i) => ({
    slug: `p${i}`,
    name: `Project ${i}`,
    ...(i < WITHOUT_GIT ? {} : { git: { path: `p${i}` } }),
  }));
  seed(t.server.ctx, {
    parentOrganization: "acme",
    organizations: [{ name: "partner", parent: "acme" }],
    projects,
    activity: { seed: 7 },
  });
});
afterAll(() => t.close());

describe("report delivery: calls", () => {
  it("reads each thing once, the fewest calls, never thousands pending", async () => {
    const api = new ApiClient({
      apiUrl: t.url,
      token: TOKENS.admin.secret,
      gitToken: TOKENS.admin.secret,
      concurrency: 16,
    });
    // Calls started and not yet settled, at most.
    let pending = 0;
    let most = 0;
    const call = api.call.bind(api);
    api.call = (async (...args: Parameters<typeof api.call>) => {
      most = Math.max(most, ++pending);
      try {
        return await call(...args);
      } finally {
        pending--;
      }
    }) as typeof api.call;
    t.server.requestLog.length = 0;
    const sections: SectionStatus[] = [];
    const live = await readDeliveryLive(
      new ReadContext(api),
      periods({ count: 3, unit: "m" }, Date.now()),
      sections,
    );
    await api.close();
    expect(sections.map((s) => `${s.name} ${s.status}`)).toEqual(["dora ok", "ci ok", "usage ok"]);
    expect(live.dora?.size).toBe(PROJECTS - WITHOUT_GIT);
    expect(live.pipelines?.size).toBe(PROJECTS);

    const log = t.server.requestLog.filter((e) => !e.url.startsWith("/_control"));
    const byOp: Record<string, number> = {};
    for (const e of log) byOp[e.operation ?? e.url] = (byOp[e.operation ?? e.url] ?? 0) + 1;
    const organizations = 2;
    const withGit = PROJECTS - WITHOUT_GIT;
    expect(byOp).toEqual({
      "organizations.list": 1,
      "projects.list": 1,
      "git.group.get": PROJECTS,
      "dora.group": 9 * withGit,
      "metrics.pipelines": PROJECTS,
      "metrics.users": organizations,
      "metrics.usersGit": organizations,
      "metrics.usersArtifact": organizations,
    });
    expect(log).toHaveLength(2 + PROJECTS * 2 + 9 * withGit + 3 * organizations);
    // None twice.
    expect(new Set(log.map((e) => `${e.method} ${e.url}`)).size).toBe(log.length);
    // DORA and pipelines each keep about FAN_OUT calls pending, and the user counts theirs.
    expect(most).toBeLessThanOrEqual(2 * FAN_OUT + 3 * organizations);
  }, 120_000);
});
