/**
 * The mass-removal rail counts the removals a Defaults layer causes: one entry removed from
 * many of the objects a layer selects (a user dropped from a layer's access list leaves every
 * selected project) is refused above maxRemovals of those objects, naming the layer.
 */
import { describe, expect, it } from "vitest";
import { layerRemovals, massRemovalRails } from "../../src/engine/removals.js";
import type { LiveObject } from "../../src/kinds/kind.js";
import type { PlanEntry } from "../../src/engine/plan.js";
import type { LayerSummary } from "../../src/layers/effective.js";

const del = (key: string): PlanEntry => ({
  key,
  kind: "ProjectAccess",
  action: "delete",
  before: {},
  after: null,
  changes: [],
  reason: "",
  source: null,
  dependsOn: [],
  destructive: true,
});
/** A layer that writes the lists removals are in (a Project layer's reporters, a Team's members). */
const layer = (
  name: string,
  kind: "Project" | "Team",
  selected: string[],
  values: Record<string, unknown> = kind === "Project"
    ? { access: { reporters: ["asmith"] } }
    : { members: ["asmith"] },
): LayerSummary => ({
  name,
  source: { file: "defaults/access.yaml", line: 3, column: 1 },
  priority: 0,
  select: { kind },
  values,
  selected,
});
const projects = (n: number) => Array.from({ length: n }, (_, i) => `project/p${i + 1}`);
const access = layer("access-baseline", "Project", projects(8));

describe("layerRemovals", () => {
  it("refuses one entry removed from more than maxRemovals of the projects a layer selects", () => {
    const removed = projects(3).map((p) => del(`${p}/access/reporters/user/bwong`));
    expect(layerRemovals(removed, [access], 0.25).map((r) => r.message)).toEqual([
      "refusing a mass removal: Defaults access-baseline (defaults/access.yaml:3) selects 8 projects, and the plan removes access/reporters/user/bwong from 3 of them (38 %, more than maxRemovals 25 %): project/p1/access/reporters/user/bwong, project/p2/access/reporters/user/bwong, project/p3/access/reporters/user/bwong; pass --allow-mass-removal if that is intended, or raise maxRemovals in phctl.yaml",
    ]);
    expect(layerRemovals(removed.slice(0, 2), [access], 0.25)).toEqual([]);
    expect(layerRemovals(removed, [access], 0.5)).toEqual([]);
  });

  it("counts the same entry only: different users from different projects are no layer's", () => {
    const removed = projects(4).map((p, i) => del(`${p}/access/reporters/user/u${i}`));
    expect(layerRemovals(removed, [access], 0.25)).toEqual([]);
  });

  it("counts only the objects the layer selects; team memberships by Team layers", () => {
    const some = layer("some", "Project", ["project/p1"]);
    const removed = projects(3).map((p) => del(`${p}/access/reporters/user/bwong`));
    expect(layerRemovals(removed, [some], 0.25)).toEqual([]);
    const teams = layer("members", "Team", ["team/a", "team/b"]);
    const left = ["team/a", "team/b"].map((t) => del(`${t}/member/bwong`));
    expect(layerRemovals(left, [teams], 0.25).map((r) => r.rail)).toEqual(["mass-removal"]);
    expect(layerRemovals(left, [], 0.25)).toEqual([]);
    expect(layerRemovals(left, undefined, 0.25)).toEqual([]);
  });
});

describe("who removes an entry", () => {
  const removed = projects(3).map((p) => del(`${p}/access/reporters/user/bwong`));

  it("never a layer that writes no such list, though it selects the projects", () => {
    const groups = layer("groups", "Project", projects(8), { git: { group: { enableCi: true } } });
    expect(layerRemovals(removed, [groups], 0.25)).toEqual([]);
  });

  it("the layer a pull request's plan blames, even one it deleted (only in its base)", () => {
    const blamed = removed.map((e) => ({ ...e, layer: "bwong-reports" }));
    const gone = {
      name: "bwong-reports",
      source: { file: "base/defaults/bwong.yaml", line: 1, column: 1 },
      kind: "Project" as const,
      objects: 8,
      change: "removed" as const,
    };
    const messages = layerRemovals(blamed, [access], 0.25, [gone]).map((r) => r.message);
    expect(messages).toEqual([
      expect.stringMatching(
        /^refusing a mass removal: Defaults bwong-reports \(base\/defaults\/bwong\.yaml:1, removed by this change\) selected 8 projects, and the plan removes access\/reporters\/user\/bwong from 3 of them /,
      ),
    ]);
  });
});

describe("massRemovalRails", () => {
  const liveOf = (keys: string[]) =>
    new Map<string, LiveObject>(keys.map((k) => [k, { key: k, fields: {}, ids: {} }]));
  const four = projects(4);
  const live = liveOf(
    four.flatMap((p) =>
      ["jdoe", "asmith", "bwong", "carol"].map((u) => `${p}/access/reporters/user/${u}`),
    ),
  );
  const layer4 = layer("access-baseline", "Project", four);

  it("a project's removals that a layer's refusal covers are said once, naming the layer", () => {
    const removed = four.flatMap((p) =>
      ["bwong", "carol"].map((u) => del(`${p}/access/reporters/user/${u}`)),
    );
    const messages = massRemovalRails(removed, live, [layer4], 0.25).map((r) => r.message);
    expect(messages).toHaveLength(2);
    expect(
      messages.every((m) => m.startsWith("refusing a mass removal: Defaults access-baseline")),
    ).toBe(true);
    // Without layers, each project is refused on its own.
    expect(massRemovalRails(removed, live, undefined, 0.25)).toHaveLength(4);
  });

  it("a project's refusal with a removal of its own stays", () => {
    const removed = [
      ...four.map((p) => del(`${p}/access/reporters/user/bwong`)),
      del("project/p1/access/reporters/user/jdoe"),
    ];
    const messages = massRemovalRails(removed, live, [layer4], 0.25).map((r) => r.message);
    expect(messages).toEqual([
      expect.stringMatching(
        /^refusing a mass removal: the plan removes 2 of 4 access entries of project p1 /,
      ),
      expect.stringMatching(
        /^refusing a mass removal: Defaults access-baseline .* removes access\/reporters\/user\/bwong from 4 of them/,
      ),
    ]);
  });
});
