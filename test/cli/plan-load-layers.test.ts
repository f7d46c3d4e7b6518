/**
 * `plan --base` loads both configs as `loadManifests` does, layers included: a Defaults
 * document's values reach the effective objects of each side, and a change to one is a
 * change of the objects it selects.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { loadHeadAndBase } from "../../src/cli/plan-load.js";
import { loadManifests } from "../../src/pipeline/load.js";
import { defaults, project, user } from "../layers/helpers.js";

let dir: string;
const write = (path: string, ...docs: object[]) => {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), docs.map((d) => stringify(d)).join("---\n"));
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "phctl-plan-load-"));
  for (const side of ["base", "head"]) {
    write(`${side}/phctl.yaml`, { organization: "acme" });
    write(`${side}/users.yaml`, user("jdoe"));
    write(`${side}/projects.yaml`, project("p1"), project("p2", { externalContribution: true }));
  }
  const layer = (v: boolean) =>
    defaults("forking", { select: { kind: "Project" }, values: { externalContribution: v } });
  write("base/defaults.yaml", layer(false));
  write("head/defaults.yaml", layer(true));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("loadHeadAndBase", () => {
  it("applies each side's Defaults, as loadManifests does", async () => {
    const both = await loadHeadAndBase(["head"], "base", dir);
    const alone = await loadManifests(["head"], { cwd: dir });
    const value = (s: typeof alone.state) =>
      s?.projects.map((p) => [p.key, p.externalContribution]);
    expect(both.head.diagnostics).toEqual([]);
    expect(value(both.head.state)).toEqual(value(alone.state));
    expect(value(both.head.state)).toEqual([
      ["project/p1", true],
      ["project/p2", true],
    ]);
    expect(value(both.base.state)).toEqual([
      ["project/p1", false],
      ["project/p2", true],
    ]);
    expect(both.head.layers?.layers.map((l) => [l.name, l.selected])).toEqual([
      ["forking", ["project/p1", "project/p2"]],
    ]);
    expect(
      both.head.state?.layerSources?.("Project", "project/p1", "externalContribution"),
    ).toEqual({ file: "head/defaults.yaml", line: 9, column: 5, layer: "forking" });
  });
});
