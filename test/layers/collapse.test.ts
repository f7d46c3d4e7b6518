/**
 * One mistake in a layer's value, found in every object the layer selects, is one line for
 * people (collapseLayered) and one entry per object for machines (the load's diagnostics).
 */
import { describe, expect, it } from "vitest";
import { collapseLayered, formatDiagnostic } from "../../src/manifest/diagnostics.js";
import { defaults, file, load, project, user } from "./helpers.js";

const config = { file: "phctl.yaml", content: "organization: acme\n", config: true };
const layered = (projects: number) =>
  load(
    config,
    file("users.yaml", user("jdoe"), user("bob", { status: "inactive" })),
    file(
      "defaults.yaml",
      defaults("everyone", {
        select: { kind: "Project" },
        values: { access: { developers: ["bob"] } },
      }),
    ),
    ...Array.from({ length: projects }, (_, i) => file(`p${i}.yaml`, project(`p${i}`))),
  );

describe("collapseLayered", () => {
  it("a layer's value that is wrong in 5 projects: 5 entries, one line naming the layer and the count", () => {
    const r = layered(5);
    const inactive = r.diagnostics.filter((d) => d.code === "inactive-user");
    expect(inactive.map((d) => [d.file, d.name, d.layer])).toEqual(
      ["p0", "p1", "p2", "p3", "p4"].map((p) => ["defaults.yaml", p, "everyone"]),
    );
    const shown = collapseLayered(r.diagnostics).filter((d) => d.code === "inactive-user");
    expect(shown).toHaveLength(1);
    const line = formatDiagnostic(shown[0]);
    expect(line).toMatch(/^defaults\.yaml:\d+:\d+ warning: Project p0, p1, p2 and 2 more: /);
    expect(line).toContain("user bob is declared inactive");
    expect(line).toContain("the value comes from Defaults everyone, applied to 5 Projects");
    expect(line).not.toContain("p3.yaml");
  });

  it("one object keeps its own line; problems not from a layer and different places are kept apart", () => {
    const one = collapseLayered(layered(1).diagnostics).filter((d) => d.code === "inactive-user");
    expect(one).toHaveLength(1);
    expect(formatDiagnostic(one[0])).toContain("applied to Project p0 (p0.yaml:1)");
    const plain = { severity: "warning", code: "x", file: "a.yaml", line: 1, column: 1, message: "m", kind: "Project" } as const; // prettier-ignore
    const ds = [
      { ...plain, name: "a" },
      { ...plain, name: "b" },
      { ...plain, name: "c", layer: "L", line: 2 },
      { ...plain, name: "d", layer: "L", line: 3 },
    ];
    expect(collapseLayered(ds)).toEqual(ds);
  });

  it("two layers that disagree on 4 projects: 4 errors, one line naming both layers and the projects", () => {
    const r = load(
      config,
      file(
        "defaults.yaml",
        defaults("a", { select: { kind: "Project" }, values: { visibility: "private" } }),
        defaults("b", { select: { kind: "Project" }, values: { visibility: "public" } }),
      ),
      ...Array.from({ length: 4 }, (_, i) => file(`p${i}.yaml`, project(`p${i}`))),
    );
    const conflicts = r.diagnostics.filter((d) => d.code === "layer-conflict");
    expect(conflicts).toHaveLength(4);
    const shown = collapseLayered(r.diagnostics).filter((d) => d.code === "layer-conflict");
    expect(shown).toHaveLength(1);
    const line = formatDiagnostic(shown[0]);
    expect(line).toMatch(
      /^defaults\.yaml:\d+:\d+ Project p0, p1, p2 and 1 more: spec\.visibility: /,
    );
    expect(line).toContain("Defaults a (defaults.yaml:");
    expect(line).toContain("Defaults b (defaults.yaml:");
    expect(line).toMatch(
      /\(give one of them a higher priority, narrow a selector, or set the field in the object's own manifest\)$/,
    );
  });
});
