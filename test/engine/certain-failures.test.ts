/**
 * A plan never holds an action certain to fail: a user create whose e-mail another live user
 * has (a rename of metadata.name that kept the e-mail: usernames cannot change) is `blocked`
 * with what to do, and apply sends nothing for it nor for what needs it; a project whose
 * only admins (or git-group maintainers) are inactive fails the admin floor.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApplyEvent } from "../../src/engine/apply-events.js";
import { planGraph, runApply } from "../../src/engine/apply.js";
import { adminFloor, checkRails } from "../../src/engine/guards.js";
import type { PlanEntry } from "../../src/engine/plan.js";
import { runPlanWithLive } from "../../src/engine/run-plan.js";
import type { LiveObject } from "../../src/kinds/kind.js";
import type { DesiredState } from "../../src/manifest/types.js";
import { startClient, type ClientFixture } from "../api/helpers.js";
import { load } from "../helpers/kinds.js";

const user = (name: string, email: string, extra = "") =>
  `apiVersion: phctl/v1\nkind: User\nmetadata: { name: ${name} }\nspec:\n  firstName: J\n  lastName: D\n  externalEmail: ${email}\n${extra}`;
const project = (slug: string, admins: string[], git = false) =>
  `apiVersion: phctl/v1\nkind: Project\nmetadata: { name: ${slug} }\nspec:\n  title: ${slug}\n  access: { admins: [${admins.join(", ")}]${git ? `, maintainers: [${admins.join(", ")}]` : ""} }\n${git ? "  git: { group: { path: " + slug + " } }\n" : ""}`;
const docs = (...d: string[]) => d.join("---\n");

let f: ClientFixture;
beforeAll(async () => {
  f = await startClient();
  // jdoe exists live with jane@example.org.
  const r = await f.call("POST", "/v1/users", {
    body: { username: "jdoe", firstName: "J", lastName: "D", externalEmail: "jane@example.org" },
  });
  expect(r.status).toBe(201);
});
afterAll(() => f.stop());

const plan = (state: DesiredState) =>
  runPlanWithLive({ api: f.client, state, apiUrl: "test" }).then((r) => r.plan);

describe("a create whose e-mail belongs to another live user", () => {
  it("is blocked with the reason and what to do; apply sends nothing for it or what needs it", async () => {
    const state = load(
      docs(
        user("jane", "Jane@Example.org", "  services: { git: { status: active } }\n"),
        project("cf-rename", ["jane"]),
      ),
    );
    const p = await plan(state);
    const blocked = p.entries.find((e) => e.key === "user/jane")!;
    expect(blocked).toMatchObject({ action: "blocked", blocked: { field: "externalEmail" } });
    expect(blocked.reason).toBe(
      "externalEmail Jane@Example.org belongs to user jdoe, and a username cannot be changed: to rename jdoe, keep metadata.name: jdoe; to add jane as another user, give it an e-mail no other user has (freeing jdoe's e-mail takes a support ticket)",
    );
    // What needs jane is blocked with her, not planned as creates that cannot happen.
    expect(
      p.entries.filter((e) => e.key.includes("jane")).map((e) => `${e.action} ${e.key}`),
    ).toEqual([
      "blocked user/jane",
      "blocked user/jane/service/git",
      "blocked project/cf-rename/access/admins/user/jane",
    ]);
    expect(p.entries.find((e) => e.key === "user/jane/service/git")?.reason).toBe(
      "needs user/jane, which is blocked (its entry says why)",
    );
    expect(p.summary).toMatchObject({ create: 1, blocked: 3 });
    // Apply what else the plan holds: nothing for jane (nor her git account, her access).
    const entries = p.entries.filter((e) => !e.key.startsWith("project/"));
    const before = f.server.requestLog.length;
    const events: ApplyEvent[] = [];
    const r = await runApply({
      api: f.client,
      entries,
      graph: planGraph(entries),
      live: new Map(),
      reporter: (e) => events.push(e),
    });
    const writes = f.server.requestLog.slice(before).filter((l) => l.method !== "GET");
    expect(writes).toEqual([]);
    expect(r.summary).toMatchObject({ done: 0, failed: 0, blocked: 2 });
    expect(events.filter((e) => e.type === "action-skipped")).toEqual([]);
  });

  it("is a plain create when no other user has the e-mail, and no change for the user who has it", async () => {
    const p = await plan(
      load(docs(user("jdoe", "jane@example.org"), user("ann", "ann@example.org"))),
    );
    expect(p.entries.map((e) => `${e.action} ${e.key}`)).toEqual(["create user/ann"]);
  });
});

describe("the admin floor counts active users only", () => {
  it("refuses a plan whose project's only admin is declared inactive (status known from the manifest)", async () => {
    const state = load(
      docs(user("old", "old@example.org", "  status: inactive\n"), project("cf-floor", ["old"])),
    );
    const r = await runPlanWithLive({ api: f.client, state, apiUrl: "test" });
    const refusals = checkRails(r.plan.entries, r.live, state, {
      allowDelete: false,
      allowMassRemoval: false,
      maxRemovals: 0.25,
    });
    expect(refusals.map((x) => x.message)).toEqual([
      "refusing: project cf-floor would be left without any active admin (old is inactive: an inactive user does not count); declare an active one under spec.access.admins, or make old active (status: active) (or pass --allow-no-admin if that is intended)",
    ]);
  });

  const live = (...objects: [string, Record<string, unknown>][]) =>
    new Map<string, LiveObject>(objects.map(([key, fields]) => [key, { key, fields, ids: {} }]));
  const state = (users: [string, string][], admins: string[], teams: string[] = []) =>
    ({
      users: users.map(([username, status]) => ({ username, status })),
      projects: [
        {
          slug: "p",
          git: {},
          access: {
            admins: { users: admins, organizationTeams: [] },
            maintainers: { users: admins, organizationTeams: teams },
          },
        },
      ],
    }) as unknown as DesiredState;
  const update = (key: string, after: Record<string, unknown>): PlanEntry => ({
    key,
    kind: "User",
    action: "update",
    before: {},
    after,
    changes: [],
    reason: "r",
    source: null,
    dependsOn: [],
    destructive: false,
  });

  it("refuses a plan that makes the only admin inactive; another active admin, or a team, keeps the floor", () => {
    const one = live(
      ["user/a", { status: "active" }],
      ["project/p/access/admins/user/a", {}],
      ["project/p/access/maintainers/user/a", {}],
    );
    const s = state([["a", "inactive"]], ["a"]);
    expect(
      adminFloor([update("user/a", { status: "inactive" })], one, s).map((r) => r.message),
    ).toEqual([
      "refusing: project p would be left without any active admin (a is inactive: an inactive user does not count); declare an active one under spec.access.admins, or make a active (status: active) (or pass --allow-no-admin if that is intended)",
      "refusing: the git group of project p would be left without an active maintainer (a is inactive: an inactive user does not count); declare users or organizationTeams under spec.access.maintainers, or make a active (status: active) (or pass --allow-no-admin if that is intended)",
    ]);
    // A second, active admin and maintainer: fine.
    const two = live(
      ["user/a", { status: "active" }],
      ["user/b", { status: "active" }],
      ["project/p/access/admins/user/a", {}],
      ["project/p/access/admins/user/b", {}],
      ["project/p/access/maintainers/user/a", {}],
      ["project/p/access/maintainers/user/b", {}],
    );
    expect(adminFloor([update("user/a", { status: "inactive" })], two, s)).toEqual([]);
    // A team maintains the group; the admins level still fails.
    const team = new Map([
      ...one,
      ["project/p/access/maintainers/team/acme/t", { key: "x", fields: {}, ids: {} }],
    ]);
    expect(adminFloor([update("user/a", { status: "inactive" })], team, s)).toHaveLength(1);
    // Live already so and the plan leaves it alone: not this plan's doing, not judged.
    const idle = live(["user/a", { status: "inactive" }], ["project/p/access/admins/user/a", {}]);
    expect(adminFloor([update("user/x", { firstName: "X" })], idle, s)).toEqual([]);
  });
});
