/** The blast radius of Defaults layers: which a plan involves, and what each selects. */
import { describe, expect, it } from "vitest";
import { changedLayers, decidingLayers } from "../../src/engine/layer-impact.js";
import type { PlanEntry } from "../../src/engine/plan.js";
import { defaults, file, load, project, user } from "../layers/helpers.js";

const users = file("users.yaml", user("jdoe"));
const projects = file(
  "projects.yaml",
  project("a", { git: { repositories: [{ name: "a1" }, { name: "a2" }] } }, { tier: "critical" }),
  project("b", { git: { repositories: [{ name: "b1" }] } }, { tier: "critical" }),
  project("c", { git: { repositories: [{ name: "c1" }] } }),
);
const layersOf = (...docs: ReturnType<typeof defaults>[]) => {
  const r = load(users, projects, file("defaults.yaml", ...docs));
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return r.layers!.layers;
};
const critical = (values: object, tier = "critical") =>
  defaults("critical", {
    select: { kind: "Project", matchLabels: { tier } },
    values,
  });
const repos = (values: object) =>
  defaults("repos", { select: { kind: "Repository", names: ["a", "c"] }, values });

describe("changedLayers (plan --base)", () => {
  it("an unchanged document touches nothing; moving it or its description neither", () => {
    const base = layersOf(critical({ externalContribution: false }), repos({ enableLFS: true }));
    const head = layersOf(repos({ enableLFS: true }), critical({ externalContribution: false }));
    expect(changedLayers(base, head)).toEqual({ layers: [], keys: [] });
  });

  it("a changed selector touches what the old or the new one selects, counted over both", () => {
    const base = layersOf(critical({ externalContribution: false }));
    const head = layersOf(
      defaults("critical", {
        select: { kind: "Project", names: ["c"] },
        values: { externalContribution: false },
      }),
    );
    const got = changedLayers(base, head);
    expect(got.keys).toEqual(["project/a", "project/b", "project/c"]);
    expect(got.layers).toEqual([
      {
        name: "critical",
        source: { file: "defaults.yaml", line: 1, column: 1 },
        kind: "Project",
        objects: 3,
        change: "changed",
      },
    ]);
  });

  it("changed values, priority; added and removed documents; repositories in projects", () => {
    const base = layersOf(critical({ externalContribution: false }), repos({ enableLFS: true }));
    const head = layersOf(repos({ enableLFS: false }));
    const got = changedLayers(base, head);
    expect(got.layers.map((l) => [l.name, l.change, l.objects, l.projects])).toEqual([
      ["repos", "changed", 3, 2],
      ["critical", "removed", 2, undefined],
    ]);
    expect(got.keys).toEqual(["project/a", "project/b", "project/c"]);
    const added = changedLayers([], base);
    expect(added.layers.map((l) => [l.name, l.change])).toEqual([
      ["critical", "added"],
      ["repos", "added"],
    ]);
    const prio = layersOf(
      defaults("critical", {
        priority: 5,
        select: { kind: "Project", matchLabels: { tier: "critical" } },
        values: { externalContribution: false },
      }),
    );
    expect(changedLayers(layersOf(critical({ externalContribution: false })), prio).keys).toEqual([
      "project/a",
      "project/b",
    ]);
  });
});

describe("decidingLayers (a plan of one config)", () => {
  it("the layers named by changed fields, with what each selects", () => {
    const layers = layersOf(critical({ externalContribution: false }), repos({ enableLFS: true }));
    const entry = (layer?: string): PlanEntry => ({
      key: "project/a/repo/a1",
      kind: "Repository",
      action: "update",
      before: {},
      after: {},
      changes: [{ field: "enableLFS", before: false, after: true, ...(layer ? { layer } : {}) }],
      reason: "",
      source: null,
      dependsOn: [],
      destructive: false,
    });
    expect(decidingLayers([entry()], layers)).toEqual([]);
    expect(decidingLayers([entry("repos"), entry("repos")], layers)).toEqual([
      {
        name: "repos",
        source: { file: "defaults.yaml", line: 13, column: 1 },
        kind: "Repository",
        objects: 3,
        projects: 2,
      },
    ]);
    expect(decidingLayers([entry("repos")], undefined)).toEqual([]);
  });
});
