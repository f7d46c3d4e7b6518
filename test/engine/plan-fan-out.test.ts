/**
 * A no-change plan's per-user and per-project reads are not all started at once: each
 * kind keeps at most FAN_OUT (src/engine/bounded.ts) of its calls started and unsettled.
 * Started all at once, 10,000 users' service reads were 10,000 requests waiting for a slot
 * of the client — most of a large plan's peak memory (bench/results.md, session 15).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { FAN_OUT } from "../../src/engine/bounded.js";
import { runPlan } from "../../src/engine/run-plan.js";
import { loadManifestTexts } from "../../src/pipeline/load.js";
import { seed, type SeedProject, type SeedUser } from "../../src/server/seed.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

const USERS = FAN_OUT * 2 + 50;
const PROJECTS = FAN_OUT + 50;

let t: TestServer;
beforeAll(async () => {
  t = await startServer({ checkResponses: false });
});
afterAll(() => t.close());

function organization() {
  const users: SeedUser[] = [];
  const projects: SeedProject[] = [];
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
  for (let i = 0; i < PROJECTS; i++) {
    const slug = `p${i}`;
    projects.push({
      slug,
      name: `Project ${i}`,
      access: { admins: ["user0"] },
      git: { path: slug, repositories: [{ name: "main" }] },
    });
    docs.push(
      `apiVersion: phctl/v1\nkind: Project\nmetadata: { name: ${slug} }\nspec:\n  title: Project ${i}\n  access: { admins: [user0] }\n  git:\n    group: { path: ${slug} }\n    repositories: [{ name: main }]\n`,
    );
  }
  return { seedDoc: { parentOrganization: "acme", users, projects }, docs };
}

describe("a plan's fan-out", () => {
  it("keeps at most FAN_OUT calls of one operation started and unsettled", async () => {
    const { seedDoc, docs } = organization();
    seed(t.server.ctx, seedDoc);
    const { state, diagnostics } = loadManifestTexts([
      { file: "phctl.yaml", content: "organization: acme\n", config: true },
      { file: "org.yaml", content: docs.join("---\n") },
    ]);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret, concurrency: 4 });
    const pending = new Map<string, number>();
    const most = new Map<string, number>();
    const call = api.call.bind(api) as (op: string, ...a: unknown[]) => Promise<unknown>;
    Object.assign(api, {
      call: async (op: string, ...a: unknown[]) => {
        const n = (pending.get(op) ?? 0) + 1;
        pending.set(op, n);
        most.set(op, Math.max(most.get(op) ?? 0, n));
        try {
          return await call(op, ...a);
        } finally {
          pending.set(op, pending.get(op)! - 1);
        }
      },
    });
    const plan = await runPlan({ api, state: state!, apiUrl: t.url });
    await api.close();
    expect(plan.entries.map((e) => `${e.action} ${e.key}`)).toEqual([]);
    // Each was called for every user or project, never more than FAN_OUT at once.
    for (const op of ["users.services", "projects.get", "git.group.get"])
      expect({ op, most: most.get(op) }).toEqual({ op, most: FAN_OUT });
  });
});
