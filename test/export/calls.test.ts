/**
 * The scale figure: exporting an organization of 2,000 users and 500 projects costs
 * no more API calls than a no-change plan of the exported manifests (same scope).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SeedProject, SeedUser } from "../../src/server/seed.js";
import { seed } from "../../src/server/seed.js";
import { startServer, type TestServer } from "../helpers/server.js";
import { entryLines, roundTrip } from "./fixtures.js";

const USERS = 2000;
const PROJECTS = 500;

let t: TestServer;
beforeAll(async () => {
  t = await startServer({ checkResponses: false });
  const users: SeedUser[] = [];
  for (let i = 0; i < USERS; i++)
    users.push({
      username: `user${i}`,
      firstName: "U",
      lastName: `N${i}`,
      externalEmail: `user${i}@example.org`,
      services: { git: {} },
    });
  const projects: SeedProject[] = [];
  for (let i = 0; i < PROJECTS; i++)
    projects.push({
      slug: `p${i}`,
      name: `Project ${i}`,
      licenses: ["Apache-2.0"],
      access: { admins: [`user${i}`], developers: [`user${i + 1}`] },
      git: {
        subgroups: ["docs"],
        repositories: [{ name: "main" }, { name: "guide", subgroup: "docs" }],
      },
      mirrors: [
        {
          repoURLFrom: `https://github.com/example/p${i}.git`,
          repoURLTo: `ssh://git@git.example.org/acme/p${i}/main.git`,
          refSpaceFrom: "refs/heads/*",
          refSpaceTo: "refs/heads/*",
          frequency: "daily",
        },
      ],
      artifacts: [{ name: "releases" }],
    });
  seed(t.server.ctx, {
    parentOrganization: "acme",
    users,
    teams: [{ name: "all", members: ["user0", "user1"] }],
    projects,
  });
});
afterAll(() => t.close());

describe("export call count", () => {
  it("2,000 users and 500 projects: export calls ≤ no-change plan calls", async () => {
    const r = await roundTrip(t, { organization: "acme" });
    expect(entryLines(r.plan).slice(0, 5)).toEqual([]);
    console.log(
      `export of ${USERS} users / ${PROJECTS} projects: ${r.result.apiCalls} calls; no-change plan of the export: ${r.planCalls} calls`,
    );
    expect(r.result.apiCalls).toBeLessThanOrEqual(r.planCalls);
  }, 120_000);
});
