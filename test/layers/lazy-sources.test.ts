/**
 * A layered object's source positions are found when read, not when normalise records them
 * (src/manifest/lazy-source.ts): a load follows no contributor for them, and each reads,
 * spreads, serialises and compares as the plain `{ file, line, column }` it was before.
 */
import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LayeredHandle } from "../../src/layers/handle.js";
import { isLazySource } from "../../src/manifest/lazy-source.js";
import { defaults, file, load, project, user } from "./helpers.js";

const config = () =>
  load(
    file(
      "defaults.yaml",
      defaults("everyone", {
        select: { kind: "User" },
        values: { services: { git: { status: "active" } } },
      }),
      defaults("repos", { select: { kind: "Repository" }, values: { enableForking: false } }),
      defaults("teams", {
        select: { kind: "Project" },
        values: { git: { subgroups: ["docs"] }, access: { reporters: ["asmith"] } },
      }),
    ),
    file("users.yaml", user("jdoe"), user("asmith")),
    file(
      "projects.yaml",
      project("tf-a", { git: { repositories: [{ name: "one" }, { name: "two" }] } }),
    ),
  );

afterEach(() => vi.restoreAllMocks());

describe("a layered object's source positions", () => {
  it("are not found while loading, only when read", () => {
    const winner = vi.spyOn(LayeredHandle.prototype, "winner");
    const r = config();
    expect(r.diagnostics).toEqual([]);
    expect(winner).not.toHaveBeenCalled();
    const sources = r.state!.sources;
    // Given by layer `teams` (defaults.yaml) and `everyone`; the repository by its own line.
    expect(sources.get("project/tf-a/subgroup/docs")).toEqual({
      file: "defaults.yaml",
      line: 33,
      column: 11,
    });
    expect(winner).toHaveBeenCalledTimes(1);
    expect({ ...sources.get("project/tf-a/access/reporters/user/asmith") }).toEqual({
      file: "defaults.yaml",
      line: 36,
      column: 11,
    });
    const repo = sources.get("project/tf-a/repo/two")!;
    expect(isLazySource(repo)).toBe(true);
    expect({ ...repo }).toEqual({ file: "projects.yaml", line: 13, column: 9 });
  });

  it("read as plain objects: spread, JSON, keys, inspect, deep equality", () => {
    const s = config().state!.sources.get("project/tf-a/repo/one")!;
    const plain = { file: "projects.yaml", line: 12, column: 9 };
    expect(s).toStrictEqual(plain);
    expect(JSON.parse(JSON.stringify(s))).toEqual(plain);
    expect(Object.keys(s)).toEqual(["file", "line", "column"]);
    expect(Object.getPrototypeOf(s)).toBe(Object.prototype);
    expect(inspect(s)).toBe(inspect(plain));
    expect("line" in s && !("layer" in s)).toBe(true);
    expect(isLazySource(plain)).toBe(false);
  });
});
