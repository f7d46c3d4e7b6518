/** The apply DAG: edges from dependsOn, deletes reversed, unreachable nodes, cycles. Pure. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planGraph } from "../../src/engine/apply.js";
import {
  buildGraph,
  criticalPath,
  CycleError,
  nodeId,
  type Graph,
} from "../../src/engine/graph.js";
import type { Action, PlanEntry } from "../../src/engine/plan.js";

function entry(
  action: Action,
  key: string,
  dependsOn: string[] = [],
  kind = "Thing",
  before: Record<string, unknown> | null = action === "create" ? null : {},
): PlanEntry {
  return {
    key,
    kind,
    action,
    before,
    after: action === "delete" ? null : {},
    changes: [],
    reason: "test",
    source: null,
    dependsOn,
    destructive: action === "delete",
  };
}

/** Position of each key in the graph's topological order. */
const positions = (g: Graph) =>
  new Map(g.order.map((id, i) => [id.split(" ").slice(1).join(" "), i]));

function before(g: Graph, first: string, then: string): boolean {
  const p = positions(g);
  return p.get(first)! < p.get(then)!;
}

describe("buildGraph", () => {
  it("orders creates along dependsOn: organization → user → service; project → group → subgroup → repo → mirror", () => {
    const g = buildGraph([
      entry("create", "project/p/mirror/ssh://x", ["project/p/repo/a/r"]),
      entry("create", "project/p/repo/a/r", ["project/p/group", "project/p/subgroup/a"]),
      entry("create", "project/p/subgroup/a", ["project/p/group"]),
      entry("create", "project/p/group", ["project/p"]),
      entry("create", "project/p", ["organization/o"]),
      entry("create", "user/u/service/git", ["user/u"]),
      entry("create", "user/u", ["organization/o"]),
      entry("create", "organization/o"),
    ]);
    expect(g.order).toHaveLength(8);
    expect(before(g, "organization/o", "user/u")).toBe(true);
    expect(before(g, "user/u", "user/u/service/git")).toBe(true);
    expect(before(g, "project/p", "project/p/group")).toBe(true);
    expect(before(g, "project/p/group", "project/p/subgroup/a")).toBe(true);
    expect(before(g, "project/p/subgroup/a", "project/p/repo/a/r")).toBe(true);
    expect(before(g, "project/p/repo/a/r", "project/p/mirror/ssh://x")).toBe(true);
    expect(g.nodes.get("create project/p/repo/a/r")!.deps.sort()).toEqual([
      "create project/p/group",
      "create project/p/subgroup/a",
    ]);
  });

  it("keeps only edges to keys in the plan: what exists already needs no waiting", () => {
    const g = buildGraph([entry("create", "project/p/repo/r", ["project/p/group", "project/p"])]);
    expect(g.nodes.get("create project/p/repo/r")!.deps).toEqual([]);
  });

  it("a fork waits for its source repository, even in another project", () => {
    const g = buildGraph([
      entry("create", "project/b/repo/fork", ["project/b/group", "project/a/repo/src"]),
      entry("create", "project/a/repo/src", ["project/a/group"]),
      entry("create", "project/a/group"),
      entry("create", "project/b/group"),
    ]);
    expect(g.nodes.get("create project/b/repo/fork")!.deps.sort()).toEqual([
      "create project/a/repo/src",
      "create project/b/group",
    ]);
  });

  it("never makes nodes of ticket and blocked entries", () => {
    const g = buildGraph([
      entry("ticket", "project/p", [], "Project", { visibility: "private" }),
      entry("blocked", "project/p/repo/r", [], "Repository", { fork: null }),
      entry("update", "project/p"),
    ]);
    expect([...g.nodes.keys()]).toEqual(["update project/p"]);
  });

  it("marks what needs a key whose create is blocked (or a ticket) as unreachable", () => {
    const g = buildGraph([
      entry("blocked", "project/p", [], "Project", null),
      entry("create", "project/p/group", ["project/p"]),
      entry("create", "project/p/repo/r", ["project/p/group"]),
    ]);
    expect(g.nodes.get("create project/p/group")!.unreachable).toEqual({
      key: "project/p",
      reason: "project/p is blocked: test",
    });
    // Its dependents are reached through the walk (skipped with the same root).
    expect(g.nodes.get("create project/p/repo/r")!.deps).toEqual(["create project/p/group"]);
  });

  it("walks deletes in reverse: a child's delete before its parent's", () => {
    const g = buildGraph([
      entry("delete", "project/p/group"),
      entry("delete", "project/p/group/x/y"),
      entry("delete", "project/p/group/x"),
    ]);
    expect(before(g, "project/p/group/x/y", "project/p/group/x")).toBe(true);
    expect(before(g, "project/p/group/x", "project/p/group")).toBe(true);
  });

  it("uses the kinds' owners for deletes whose keys do not nest (a repository before its git group)", () => {
    const g = planGraph([
      entry("delete", "project/p/group", [], "GitGroup"),
      entry("delete", "project/p/repo/r", [], "Repository"),
      entry("delete", "project/p/subgroup/s", [], "Subgroup"),
    ]);
    expect(g.nodes.get("delete project/p/group")!.deps.sort()).toEqual([
      "delete project/p/repo/r",
      "delete project/p/subgroup/s",
    ]);
  });

  it("deletes by containment: repositories, mirrors and artifact repositories before their subgroups and group, deeper subgroups first", () => {
    const g = planGraph([
      entry("delete", "project/p/subgroup/docs", [], "Subgroup"),
      entry("delete", "project/p/subgroup/docs/api", [], "Subgroup"),
      entry("delete", "project/p/repo/docs/api/spec", [], "Repository"),
      entry("delete", "project/p/repo/docs/guide", [], "Repository"),
      entry("delete", "project/p/repo/top", [], "Repository"),
      entry("delete", "project/p/mirror/ssh://git@h/x.git", [], "Mirror"),
      entry("delete", "project/p/artifact/releases", [], "ArtifactRepo"),
      entry("delete", "project/p/group", [], "GitGroup"),
    ]);
    expect(before(g, "project/p/repo/docs/api/spec", "project/p/subgroup/docs/api")).toBe(true);
    expect(before(g, "project/p/repo/docs/api/spec", "project/p/subgroup/docs")).toBe(true);
    expect(before(g, "project/p/repo/docs/guide", "project/p/subgroup/docs")).toBe(true);
    expect(before(g, "project/p/subgroup/docs/api", "project/p/subgroup/docs")).toBe(true);
    for (const k of [
      "project/p/subgroup/docs",
      "project/p/repo/top",
      "project/p/mirror/ssh://git@h/x.git",
      "project/p/artifact/releases",
    ])
      expect(before(g, k, "project/p/group")).toBe(true);
    // A repository elsewhere does not wait for an unrelated subgroup.
    expect(g.nodes.get("delete project/p/repo/top")!.deps).toEqual([]);
  });

  it("removes from an authoritative list only after adding to it (an admin is replaced, never missing)", () => {
    const g = buildGraph([
      entry("delete", "project/p/access/admins/user/old", [], "ProjectAccess"),
      entry("create", "project/p/access/admins/user/new", ["project/p"], "ProjectAccess"),
      entry("create", "project/p/access/developers/user/dev", ["project/p"], "ProjectAccess"),
      entry("delete", "team/t/member/a", [], "TeamMember"),
      entry("create", "team/t/member/b", ["team/t"], "TeamMember"),
    ]);
    expect(g.nodes.get("delete project/p/access/admins/user/old")!.deps).toEqual([
      "create project/p/access/admins/user/new",
    ]);
    expect(g.nodes.get("delete team/t/member/a")!.deps).toEqual(["create team/t/member/b"]);
  });

  it("deletes an object only after the creates and updates that still name it, and only those", () => {
    const g = buildGraph([
      entry("delete", "project/p/repo/old"),
      entry("update", "project/p/mirror/m", ["project/p/repo/old"]),
      entry("create", "project/p/repo/new", ["project/p/group"]),
    ]);
    expect(g.nodes.get("delete project/p/repo/old")!.deps).toEqual(["update project/p/mirror/m"]);
    expect(g.nodes.get("create project/p/repo/new")!.deps).toEqual([]);
  });

  it("refuses a cycle, naming it in apply order", () => {
    const run = () =>
      buildGraph([
        entry("create", "a", ["c"]),
        entry("create", "b", ["a"]),
        entry("create", "c", ["b"]),
        entry("create", "d", ["a"]),
      ]);
    expect(run).toThrow(CycleError);
    try {
      run();
    } catch (e) {
      const msg = (e as Error).message;
      expect(msg).toMatch(/^dependency cycle in the plan: /);
      // Every arrow is a real "must come first" edge, and the cycle closes.
      const cycle = (e as CycleError).cycle;
      expect(cycle[0]).toBe(cycle[cycle.length - 1]);
      expect(cycle).toHaveLength(4);
      expect(new Set(cycle)).toEqual(new Set(["a", "b", "c"]));
      const needs: Record<string, string> = { a: "c", b: "a", c: "b" };
      for (let i = 0; i + 1 < cycle.length; i++) expect(needs[cycle[i + 1]]).toBe(cycle[i]);
      expect(msg).toContain(cycle.join(" → "));
    }
  });

  it("ignores a self-dependency; names a cycle of two", () => {
    expect(() =>
      buildGraph([entry("create", "x", ["y"]), entry("create", "y", ["y", "x"])]),
    ).toThrow(/dependency cycle in the plan: (x → y → x|y → x → y)/);
  });

  it("the critical path is the heaviest chain", () => {
    const g = buildGraph([
      entry("create", "a"),
      entry("create", "b", ["a"]),
      entry("create", "c", ["b"]),
      entry("create", "d", ["a"]),
    ]);
    const w: Record<string, number> = { a: 1, b: 2, c: 3, d: 10 };
    const cp = criticalPath(g, (id) => w[id.split(" ")[1]]);
    expect(cp).toEqual({ length: 11, path: ["create a", "create d"] });
  });

  it("property: every edge of a random acyclic plan is respected by the order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.nat(30), { maxLength: 4 }), { minLength: 1, maxLength: 30 }),
        (deps) => {
          // Node i may only depend on nodes before it: acyclic by construction.
          const entries = deps.map((ds, i) =>
            entry(
              "create",
              `k${i}`,
              ds.filter((d) => d < i).map((d) => `k${d}`),
            ),
          );
          const g = buildGraph(entries);
          const pos = new Map(g.order.map((id, i) => [id, i]));
          expect(g.order).toHaveLength(entries.length);
          for (const e of entries)
            for (const d of e.dependsOn)
              expect(pos.get(nodeId({ action: "create", key: d }))!).toBeLessThan(
                pos.get(nodeId(e))!,
              );
        },
      ),
      { numRuns: 100 },
    );
  });
});
