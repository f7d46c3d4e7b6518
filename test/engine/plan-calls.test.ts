/**
 * A no-change plan over an organization of 500 projects makes the fewest calls the API
 * allows for that scope. The minimum, per the API (see the arithmetic below):
 *   1 organization list + 1 user list (all=true) + 1 service read per declared user with
 *   services + ⌈teams/100⌉ team pages + 1 project list (all=true) + 1 license catalogue
 *   + per project: detail (roles, licenses) + git group + subgroups (all) + repositories
 *   (all) + ⌈mirrors/100⌉ mirror pages + artifact repositories (all) = 6.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { runPlan } from "../../src/engine/run-plan.js";
import { loadManifestTexts } from "../../src/pipeline/load.js";
import { seed, type SeedProject, type SeedUser } from "../../src/server/seed.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

const PROJECTS = 500;
const USERS = 60;
const TEAMS = 5;

let t: TestServer;
beforeAll(async () => {
  t = await startServer({ checkResponses: false, requestLog: true });
});
afterAll(() => t.close());

function organization() {
  const users: SeedUser[] = [];
  const docs: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const u = `user${i}`;
    users.push({
      username: u,
      firstName: "U",
      lastName: `N${i}`,
      externalEmail: `${u}@example.org`,
      services: { git: { status: "active" } },
    });
    docs.push(
      `apiVersion: phctl/v1\nkind: User\nmetadata: { name: ${u} }\nspec:\n  firstName: U\n  lastName: N${i}\n  externalEmail: ${u}@example.org\n  services:\n    git: { status: active }\n`,
    );
  }
  const teams = [];
  for (let i = 0; i < TEAMS; i++) {
    const members = [`user${i}`, `user${i + 1}`];
    teams.push({
      name: `team${i}`,
      gitservice: true,
      artifactservice: false,
      wiki: false,
      members,
    });
    docs.push(
      `apiVersion: phctl/v1\nkind: Team\nmetadata: { name: team${i} }\nspec:\n  services: { gitservice: true, artifactservice: false, wiki: false }\n  members: [${members.join(", ")}]\n`,
    );
  }
  const projects: SeedProject[] = [];
  for (let i = 0; i < PROJECTS; i++) {
    const slug = `p${i}`;
    const admin = `user${i % USERS}`;
    const dev = `user${(i + 1) % USERS}`;
    projects.push({
      slug,
      name: `Project ${i}`,
      description: `Project number ${i}`,
      licenses: ["Apache-2.0"],
      access: { admins: [admin], maintainers: [admin], developers: [dev] },
      git: {
        path: slug,
        subgroups: ["docs", "tools/ci"],
        repositories: [
          { name: "main", issueTracking: "enabled", mergeRequests: "enabled" },
          { name: "guide", subgroup: "docs" },
          { name: "ci", subgroup: "tools/ci" },
        ],
      },
      mirrors: [
        {
          repoURLFrom: `https://github.com/example/${slug}.git`,
          repoURLTo: `ssh://git@git.example.org/acme/${slug}/main.git`,
          refSpaceFrom: "refs/heads/*",
          refSpaceTo: "refs/heads/*",
          frequency: "daily",
        },
      ],
      artifacts: [{ name: "releases", repoType: "generic" }],
    });
    docs.push(`apiVersion: phctl/v1
kind: Project
metadata: { name: ${slug} }
spec:
  title: Project ${i}
  description: Project number ${i}
  licenses: [Apache-2.0]
  access:
    admins: [${admin}]
    maintainers: [${admin}]
    developers: [${dev}]
  git:
    group: { path: ${slug} }
    subgroups: [docs, tools/ci]
    repositories:
      - { name: main, issueTracking: enabled, mergeRequests: enabled }
      - { name: guide, subgroup: docs }
      - { name: ci, subgroup: tools/ci }
    mirrors:
      - { from: "https://github.com/example/${slug}.git", to: "ssh://git@git.example.org/acme/${slug}/main.git", refSpaceFrom: "refs/heads/*", refSpaceTo: "refs/heads/*", frequency: daily }
  artifacts:
    repositories:
      - { name: releases, type: generic }
`);
  }
  return { seedDoc: { parentOrganization: "acme", users, teams, projects }, docs };
}

describe("plan call count", () => {
  it("a no-change plan of 500 projects uses the minimum number of calls", async () => {
    const { seedDoc, docs } = organization();
    seed(t.server.ctx, seedDoc);
    const { state, diagnostics } = loadManifestTexts([
      { file: "phctl.yaml", content: "organization: acme\n", config: true },
      { file: "org.yaml", content: docs.join("---\n") },
    ]);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret, concurrency: 16 });
    const plan = await runPlan({ api, state: state!, apiUrl: t.url });
    await api.close();
    expect(
      plan.entries.map((e) => `${e.action} ${e.key} ${JSON.stringify(e.changes)}`).slice(0, 5),
    ).toEqual([]);
    const minimum = 1 + 1 + USERS + Math.ceil(TEAMS / 100) + 1 + 1 + PROJECTS * 6;
    console.log(
      `no-change plan: ${plan.stats.apiCalls} calls, minimum ${minimum}, ${plan.stats.objectsRead} objects, ${plan.stats.durationMs} ms`,
    );
    expect(plan.stats.apiCalls).toBeGreaterThanOrEqual(minimum);
    expect(plan.stats.apiCalls).toBeLessThanOrEqual(Math.ceil(minimum * 1.1));
  });
});
