/** Subgroup kind: parents expanded and ordered, diff, and create / prune against the server. */
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diffObject } from "../../src/engine/diff.js";
import { parentPath, subgroupKind } from "../../src/kinds/subgroup.js";
import { seed } from "../../src/server/seed.js";
import { startClient, type ClientFixture } from "../api/helpers.js";
import { diffContext, lines, load, projectDoc } from "../helpers/kinds.js";
import { applyAndReplan, planFor, readKind } from "./git-fixtures.js";

const FW = projectDoc(
  "fw",
  `
title: Firmware
git:
  subgroups: [docs, tools/ci/nightly]
`,
);

describe("desired", () => {
  it("declares every level, each after its parent and the group", () => {
    const ds = subgroupKind.desired(load(FW));
    expect(ds.map((d) => [d.key, d.dependsOn])).toEqual([
      ["project/fw/subgroup/docs", ["project/fw/group"]],
      ["project/fw/subgroup/tools", ["project/fw/group"]],
      ["project/fw/subgroup/tools/ci", ["project/fw/group", "project/fw/subgroup/tools"]],
      [
        "project/fw/subgroup/tools/ci/nightly",
        ["project/fw/group", "project/fw/subgroup/tools/ci"],
      ],
    ]);
    // A parent added by the loader points at the line that declared its child.
    expect(ds[1].source?.line).toBe(ds[3].source?.line);
  });

  it("parentPath", () => {
    expect(parentPath("a")).toBeUndefined();
    expect(parentPath("a/b/c")).toBe("a/b");
  });

  it("property: a subgroup diffs to nothing against itself, to a create when absent", () => {
    const state = load(FW);
    const ctx = diffContext(state);
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,5}(\/[a-z]{1,5}){0,3}$/), (path) => {
        const d = {
          key: `project/fw/subgroup/${path}`,
          fields: { path },
          source: null,
          dependsOn: [],
        };
        expect(
          diffObject(subgroupKind, d, { key: d.key, fields: { path }, ids: { id: 1 } }, ctx),
        ).toEqual([]);
        expect(diffObject(subgroupKind, d, undefined, ctx).map((e) => e.action)).toEqual([
          "create",
        ]);
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

  it("reads 1 call per project with a group; none for a project without one", async () => {
    seed(t.server.ctx, {
      parentOrganization: "acme",
      projects: [
        { slug: "fw", name: "Firmware", git: { subgroups: ["docs", "tools/ci"] } },
        { slug: "nogroup", name: "No group" },
      ],
    });
    const state = load(`${FW}---\n${projectDoc("nogroup", "title: N\ngit: {}")}`);
    const { objects, calls } = await readKind(t.client, subgroupKind, state);
    expect(objects.map((o) => o.key)).toEqual([
      "project/fw/subgroup/docs",
      "project/fw/subgroup/tools",
      "project/fw/subgroup/tools/ci",
    ]);
    expect(objects[0]).toEqual({
      key: "project/fw/subgroup/docs",
      fields: { path: "docs" },
      ids: { id: expect.any(Number) },
    });
    // project list + 2 group reads (readGroup decides whether subgroups can be listed) + 1 list.
    expect(calls).toBe(4);
  });

  it("creates a nested subgroup level by level, then plans nothing", async () => {
    seed(t.server.ctx, {
      parentOrganization: "acme",
      projects: [{ slug: "fw", name: "Firmware", git: {} }],
    });
    const state = load(FW);
    const first = await planFor(t.client, state);
    expect(lines(first.plan)).toEqual([
      "create project/fw/subgroup/docs",
      "create project/fw/subgroup/tools",
      "create project/fw/subgroup/tools/ci",
      "create project/fw/subgroup/tools/ci/nightly",
    ]);
    const again = await applyAndReplan(t.client, state);
    expect(again.plan.entries).toEqual([]);
    const posts = t.server.requestLog.filter((r) => r.operation === "git.subgroups.create");
    expect(posts.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const live = await t.call("GET", "/v1/projects/fw/git/subgroups", { query: { all: true } });
    expect(live.body.data.map((s: { path: string }) => s.path)).toEqual([
      "docs",
      "tools",
      "tools/ci",
      "tools/ci/nightly",
    ]);
  });

  it("an existing path (409) is found again, not an error", async () => {
    seed(t.server.ctx, {
      parentOrganization: "acme",
      projects: [{ slug: "fw", name: "Firmware", git: { subgroups: ["docs"] } }],
    });
    const entry = (await planFor(t.client, load(FW))).plan.entries.find(
      (e) => e.key === "project/fw/subgroup/tools",
    )!;
    await subgroupKind.create!(t.client, entry, undefined);
    await subgroupKind.create!(t.client, entry, undefined);
    const tools = t.server.requestLog.filter((r) => r.operation === "git.subgroups.create");
    expect(tools.map((r) => r.status)).toEqual([201, 409]);
  });

  it("an undeclared subgroup is unmanaged, deleted with prune.subgroups (deeper levels too)", async () => {
    seed(t.server.ctx, {
      parentOrganization: "acme",
      projects: [
        { slug: "fw", name: "Firmware", git: { subgroups: ["docs", "tools/ci/nightly", "old/a"] } },
      ],
    });
    const kept = await planFor(t.client, load(FW));
    expect(kept.plan.entries).toEqual([]);
    expect(kept.plan.unmanaged.map((u) => u.key)).toEqual([
      "project/fw/subgroup/old",
      "project/fw/subgroup/old/a",
    ]);

    const pruning = load(FW, "organization: acme\nprune: { subgroups: true }\n");
    const p = await planFor(t.client, pruning);
    expect(lines(p.plan)).toEqual([
      "delete project/fw/subgroup/old",
      "delete project/fw/subgroup/old/a",
    ]);
    // Parent first: deleting `old` takes `old/a` with it, whose delete then finds nothing (404).
    const liveByKey = new Map(p.live.get("Subgroup")!.map((l) => [l.key, l]));
    for (const e of p.plan.entries) await subgroupKind.delete!(t.client, e, liveByKey.get(e.key)!);
    const deletes = t.server.requestLog.filter((r) => r.operation === "git.subgroups.delete");
    expect(deletes.map((r) => r.status)).toEqual([204, 404]);
    expect((await planFor(t.client, pruning)).plan.entries).toEqual([]);
  });
});
