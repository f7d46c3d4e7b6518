/** The planner and the generic diff, on a small fake kind: pure functions, no server. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { changedFields, diffObject } from "../../src/engine/diff.js";
import { buildPlan, globToRegExp, selectTargets } from "../../src/engine/planner.js";
import {
  defineKind,
  type DiffContext,
  type DesiredObject,
  type LiveObject,
  type ResourceKind,
} from "../../src/kinds/kind.js";
import type { DesiredState, PruneSettings } from "../../src/manifest/types.js";

interface ThingFields {
  size: number;
  color: string;
  tags: string[];
  [k: string]: unknown;
}

const src = { file: "things.yaml", line: 3, column: 1 };

function thingKind(
  mode: "authoritative" | "prune" | "unmanaged",
  desired: DesiredObject<ThingFields>[],
  live: LiveObject<ThingFields>[],
): ResourceKind {
  return defineKind<ThingFields>({
    kind: "Thing",
    ownership:
      mode === "unmanaged"
        ? { mode }
        : mode === "prune"
          ? { mode, setting: "repositories", parentKey: (k) => k.split("/thing/")[0] }
          : { mode, parentKey: (k) => k.split("/thing/")[0] },
    immutable: { color: { action: "blocked", reason: "the color cannot be changed" } },
    destructiveDelete: true,
    desired: () => desired,
    read: async () => live,
  });
}

function state(prune: Partial<PruneSettings> = {}, ignore: string[] = []): DesiredState {
  return {
    config: {
      concurrency: 8,
      queueTimeout: 600_000,
      outageTimeout: 120_000,
      maxRemovals: 0.25,
      prune: {
        groups: false,
        subgroups: false,
        repositories: false,
        mirrors: false,
        artifactRepositories: false,
        ...prune,
      },
      ignore,
    },
    organizations: [],
    users: [],
    teams: [],
    projects: [],
    referencedUsers: [],
    referencedOrganizations: [],
    sources: new Map([["project/p", src]]),
  };
}

const ctx = (s: DesiredState): DiffContext => ({
  state: s,
  licenses: new Set(),
  orgTeams: new Set(),
  liveUsers: new Set(),
  wikiUsers: new Set(),
});

const parent: DesiredObject<ThingFields> = {
  key: "project/p",
  fields: { size: 0, color: "", tags: [] },
  source: src,
  dependsOn: [],
};
const d = (
  name: string,
  f: Partial<ThingFields> = {},
  protect = false,
): DesiredObject<ThingFields> => ({
  key: `project/p/thing/${name}`,
  fields: { size: 1, color: "red", tags: ["a"], ...f },
  source: src,
  dependsOn: ["project/p"],
  ...(protect ? { protect } : {}),
});
const l = (name: string, f: Partial<ThingFields> = {}): LiveObject<ThingFields> => ({
  key: `project/p/thing/${name}`,
  fields: { size: 1, color: "red", tags: ["a"], ...f },
  ids: { id: name.length },
});

function plan(kinds: ResourceKind[], live: LiveObject[], s = state(), targets?: string[]) {
  return buildPlan({
    state: s,
    kinds,
    live: new Map([["Thing", [{ key: "project/p", fields: parent.fields, ids: {} }, ...live]]]),
    ctx: ctx(s),
    apiUrl: "http://x",
    organization: "acme",
    stats: { objectsRead: 0, apiCalls: 0, durationMs: 0 },
    now: "2026-01-01T00:00:00.000Z",
    ...(targets ? { targets } : {}),
  });
}

describe("diff", () => {
  it("create, update naming only changed fields, blocked for an immutable field, nothing in sync", () => {
    const k = thingKind("unmanaged", [], []);
    const c = ctx(state());
    expect(diffObject(k, d("a"), undefined, c)[0]).toMatchObject({
      action: "create",
      after: { size: 1, color: "red", tags: ["a"] },
    });
    expect(diffObject(k, d("a"), l("a"), c)).toEqual([]);
    const [u] = diffObject(k, d("a", { size: 2 }), l("a"), c);
    expect(u).toMatchObject({
      action: "update",
      changes: [{ field: "size", before: 1, after: 2 }],
      source: { file: "things.yaml", line: 3 },
    });
    const [b] = diffObject(k, d("a", { color: "blue" }), l("a"), c);
    expect(b).toMatchObject({
      action: "blocked",
      blocked: { field: "color", reason: "the color cannot be changed" },
    });
  });

  it("an undefined desired field is not managed", () => {
    expect(changedFields({ size: undefined, color: "x" }, { size: 5, color: "x" })).toEqual([]);
  });

  it("property: diff of an object with itself is empty; a mutation names exactly the mutated fields", () => {
    const fields = fc.record({
      size: fc.integer(),
      color: fc.string(),
      tags: fc.array(fc.string()).map((t) => [...t].sort()),
    });
    fc.assert(
      fc.property(fields, fields, (a, b) => {
        expect(changedFields(a, structuredClone(a))).toEqual([]);
        const expected = (["size", "color", "tags"] as const).filter(
          (f) => JSON.stringify(a[f]) !== JSON.stringify(b[f]),
        );
        expect(changedFields(b, a).map((c) => c.field)).toEqual(expected);
      }),
    );
  });

  it("never mutates its inputs", () => {
    const k = thingKind("unmanaged", [], []);
    const dd = d("a", { size: 9 });
    const ll = l("a");
    const before = JSON.stringify([dd, ll]);
    diffObject(k, dd, ll, ctx(state()));
    expect(JSON.stringify([dd, ll])).toBe(before);
  });
});

describe("ownership", () => {
  it("authoritative: an undeclared child of a declared parent is removed, with the parent's source", () => {
    const p = plan([thingKind("authoritative", [parent, d("a")], [])], [l("a"), l("extra")]);
    expect(p.entries).toEqual([
      expect.objectContaining({
        action: "delete",
        key: "project/p/thing/extra",
        destructive: true,
        source: { file: "things.yaml", line: 3, column: 1 },
      }),
    ]);
    expect(p.fingerprints["project/p/thing/extra"]).toMatch(/^[0-9a-f]{16}$/);
  });

  it("authoritative: children of an undeclared parent are out of scope", () => {
    const p = plan([thingKind("authoritative", [], [])], [l("x")]);
    expect(p.entries).toEqual([]);
    expect(p.unmanaged).toEqual([]);
  });

  it("prune: off → listed as not managed; on → deleted; protect → kept", () => {
    const kinds = [thingKind("prune", [parent], [])];
    expect(plan(kinds, [l("old")]).unmanaged).toEqual([
      {
        key: "project/p/thing/old",
        kind: "Thing",
        note: "not declared; prune.repositories is off in phctl.yaml",
      },
    ]);
    expect(
      plan(kinds, [l("old")], state({ repositories: true })).entries.map((e) => e.action),
    ).toEqual(["delete"]);
    const protectedKinds = [thingKind("prune", [{ ...parent, protect: true }], [])];
    const kept = plan(protectedKinds, [l("old")], state({ repositories: true }));
    expect(kept.entries).toEqual([]);
    expect(kept.unmanaged[0]?.note).toBe("not declared; kept: phctl/protect");
  });

  it("unmanaged objects are listed and never touched", () => {
    const p = plan([thingKind("unmanaged", [], [])], [l("z")]);
    expect(p.entries).toEqual([]);
    expect(p.unmanaged.map((u) => u.key)).toEqual(["project/p", "project/p/thing/z"]);
  });

  it("ignore globs leave matching objects alone", () => {
    const p = plan(
      [thingKind("authoritative", [parent], [])],
      [l("legacy-1"), l("keep")],
      state({}, ["project/p/thing/legacy-*"]),
    );
    expect(p.entries.map((e) => e.key)).toEqual(["project/p/thing/keep"]);
  });
});

describe("targets and globs", () => {
  it("--target keeps the target and what it depends on", () => {
    const p = plan(
      [
        thingKind(
          "authoritative",
          [{ ...parent, fields: { ...parent.fields, size: 5 } }, d("a"), d("b")],
          [],
        ),
      ],
      [],
      state(),
      ["project/p/thing/a"],
    );
    expect(p.entries.map((e) => e.key).sort()).toEqual(["project/p", "project/p/thing/a"]);
    expect(p.targets).toEqual(["project/p/thing/a"]);
    expect(selectTargets(p.entries, ["nothing"])).toEqual([]);
  });

  it("globs: * within a segment, ** across, a prefix covers children", () => {
    expect(globToRegExp("project/legacy-*").test("project/legacy-x")).toBe(true);
    expect(globToRegExp("project/legacy-*").test("project/legacy-x/repo/r")).toBe(true);
    expect(globToRegExp("project/*/repo").test("project/a/b/repo")).toBe(false);
    expect(globToRegExp("project/**/r").test("project/a/repo/r")).toBe(true);
  });
});
