/** GitGroup kind: desired normalisation, diff outcomes, properties, and against the server. */
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diffObject } from "../../src/engine/diff.js";
import { gitGroupKind } from "../../src/kinds/git-group.js";
import type { DesiredObject, LiveObject } from "../../src/kinds/kind.js";
import { seed } from "../../src/server/seed.js";
import { startClient, type ClientFixture } from "../api/helpers.js";
import { diffContext, lines, load, projectDoc } from "../helpers/kinds.js";
import {
  actualOutcome,
  applyAndReplan,
  execute,
  expectedOutcome,
  planFor,
  readKind,
} from "./git-fixtures.js";

const TFA = projectDoc(
  "tf-a",
  `
title: Trusted Firmware-A
git:
  group: { path: tfa, requestAccessEnabled: true, enableCi: true }
`,
);
const NO_GIT = projectDoc("docs", "title: Docs");

describe("desired", () => {
  it("declares the group of a project with git, after the project; none without git", () => {
    const state = load(`${TFA}---\n${NO_GIT}`);
    const ds = gitGroupKind.desired(state);
    expect(ds).toHaveLength(1);
    expect(ds[0]).toMatchObject({
      key: "project/tf-a/group",
      fields: { path: "tfa", requestAccessEnabled: true, enableCi: true },
      dependsOn: ["project/tf-a"],
    });
    expect(ds[0].source?.file).toBe("projects/p.yaml");
  });

  it("defaults the path to the slug and the flags to false", () => {
    const state = load(projectDoc("x", "title: X\ngit: {}"));
    expect(gitGroupKind.desired(state)[0].fields).toEqual({
      path: "x",
      requestAccessEnabled: false,
      enableCi: false,
    });
  });
});

describe("diff", () => {
  const state = load(TFA);
  const d = gitGroupKind.desired(state)[0];
  const ctx = diffContext(state);
  const live = (over: object = {}): LiveObject => ({
    key: d.key,
    fields: { ...d.fields, ...over },
    ids: { id: 3 },
  });

  it("is empty in sync and a create when absent", () => {
    expect(diffObject(gitGroupKind, d, live(), ctx)).toEqual([]);
    const [c] = diffObject(gitGroupKind, d, undefined, ctx);
    expect(c).toMatchObject({ action: "create", after: d.fields, dependsOn: ["project/tf-a"] });
  });

  it("updates exactly the changed flag", () => {
    const es = diffObject(gitGroupKind, d, live({ enableCi: false }), ctx);
    expect(es).toHaveLength(1);
    expect(es[0]).toMatchObject({
      action: "update",
      changes: [{ field: "enableCi", before: false, after: true }],
    });
  });

  it("blocks a path change with the reason, beside the update of a flag", () => {
    const es = diffObject(
      gitGroupKind,
      d,
      live({ path: "tf-a", requestAccessEnabled: false }),
      ctx,
    );
    expect(es.map((e) => e.action).sort()).toEqual(["blocked", "update"]);
    const blocked = es.find((e) => e.action === "blocked")!;
    expect(blocked.blocked).toEqual({
      field: "path",
      reason: expect.stringContaining("the group path cannot be changed through the API"),
    });
    expect(es.find((e) => e.action === "update")!.changes.map((c) => c.field)).toEqual([
      "requestAccessEnabled",
    ]);
  });

  const fields = fc.record({
    path: fc.constantFrom("a", "b", "tf-a"),
    requestAccessEnabled: fc.boolean(),
    enableCi: fc.boolean(),
  });
  const obj = (f: Record<string, unknown>): DesiredObject => ({ ...d, fields: f });

  it("property: diff with itself is empty; a mutation is reported as exactly those fields", () => {
    fc.assert(
      fc.property(fields, fields, (a, b) => {
        expect(
          diffObject(gitGroupKind, obj(a), { key: d.key, fields: { ...a }, ids: {} }, ctx),
        ).toEqual([]);
        const es = diffObject(gitGroupKind, obj(a), { key: d.key, fields: b, ids: {} }, ctx);
        expect(actualOutcome(es)).toEqual(expectedOutcome(gitGroupKind, a, b));
      }),
    );
  });
});

describe("against the server", () => {
  let t: ClientFixture;
  beforeEach(async () => {
    t = await startClient();
  });
  afterEach(async () => t.stop());

  it("reads 1 group call per declared live project (+ the shared project list)", async () => {
    seed(t.server.ctx, {
      parentOrganization: "acme",
      projects: [
        {
          slug: "tf-a",
          name: "TF-A",
          git: { path: "tfa", enableCi: true, requestAccessEnabled: true },
        },
        { slug: "docs", name: "Docs" },
        { slug: "other", name: "Other", git: {} },
      ],
    });
    const state = load(`${TFA}---\n${NO_GIT}`);
    const { objects, calls } = await readKind(t.client, gitGroupKind, state);
    expect(objects).toEqual([
      {
        key: "project/tf-a/group",
        fields: { path: "tfa", requestAccessEnabled: true, enableCi: true },
        ids: { id: expect.any(Number) },
      },
    ]);
    // project list + tf-a's group; docs declares no git section, "other" is not declared.
    expect(calls).toBe(2);
  });

  it("creates the group, then plans nothing; an update names exactly the changed flag", async () => {
    seed(t.server.ctx, { parentOrganization: "acme", projects: [{ slug: "tf-a", name: "TF-A" }] });
    const state = load(TFA);
    const first = await planFor(t.client, state, [gitGroupKind]);
    expect(lines(first.plan)).toEqual(["create project/tf-a/group"]);
    const again = await applyAndReplan(t.client, state);
    expect(again.plan.entries).toEqual([]);
    const g = await t.call("GET", "/v1/projects/tf-a/git/groups");
    expect(g.body.data).toMatchObject({
      path: "tfa",
      request_access_enabled: true,
      enable_ci: true,
    });

    await t.call("PUT", "/v1/projects/tf-a/git/groups", { body: { enable_ci: false } });
    const drift = await planFor(t.client, state, [gitGroupKind]);
    expect(drift.plan.entries.map((e) => [e.action, e.changes.map((c) => c.field)])).toEqual([
      ["update", ["enableCi"]],
    ]);
    await execute(t.client, drift);
    expect((await planFor(t.client, state, [gitGroupKind])).plan.entries).toEqual([]);
  });

  it("a path change is blocked and never sent", async () => {
    seed(t.server.ctx, {
      parentOrganization: "acme",
      projects: [
        {
          slug: "tf-a",
          name: "TF-A",
          git: { path: "old", requestAccessEnabled: true, enableCi: true },
        },
      ],
    });
    const p = await planFor(t.client, load(TFA), [gitGroupKind]);
    expect(p.plan.entries.map((e) => e.action)).toEqual(["blocked"]);
    const seq = t.server.requestLog.at(-1)!.seq;
    await execute(t.client, p);
    expect(t.server.requestLog.filter((r) => r.seq > seq)).toEqual([]);
  });

  it("the group of a project declared without git is out of scope, even with prune.groups", async () => {
    seed(t.server.ctx, {
      parentOrganization: "acme",
      projects: [{ slug: "docs", name: "Docs", git: {} }],
    });
    const kept = await planFor(t.client, load(NO_GIT), [gitGroupKind]);
    expect(kept.plan.entries).toEqual([]);
    expect(kept.plan.unmanaged).toEqual([]);

    const pruning = load(NO_GIT, "organization: acme\nprune: { groups: true }\n");
    const p = await planFor(t.client, pruning, [gitGroupKind]);
    expect(p.plan.entries).toEqual([]);
    expect((await t.call("GET", "/v1/projects/docs/git/groups")).status).toBe(200);
  });
});
