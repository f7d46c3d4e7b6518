/**
 * A value a layer gives that makes an object invalid: the error sits at the layer's line, names
 * the object it was applied to and the layer, and keeps the rule's own hint (what to fix).
 */
import { describe, expect, it } from "vitest";
import { defaults, file, load, project, user } from "./helpers.js";

describe("an error in a value from a layer", () => {
  it("is at the layer's line, names the layer and the object, and keeps the rule's hint", () => {
    const r = load(
      file("users.yaml", user("jdoe"), user("asmith")),
      file("projects.yaml", project("p1")),
      file(
        "defaults.yaml",
        defaults("access-baseline", {
          select: { kind: "Project" },
          values: { access: { editors: ["asmith"] } },
        }),
      ),
    );
    const errors = r.diagnostics.filter((d) => d.severity === "error");
    expect(errors).toHaveLength(1);
    const [e] = errors;
    expect([e.file, e.line, e.kind, e.name, e.code]).toEqual([
      "defaults.yaml",
      11,
      "Project",
      "p1",
      "editor-without-wiki",
    ]);
    expect(e.hint).toMatch(/^declare spec\.services\.wiki for user asmith at users\.yaml:\d+/);
    expect(e.hint).toContain(
      "; the value comes from Defaults access-baseline, applied to Project p1 (projects.yaml:1); fix the layer, or override the field in the object",
    );
  });
});
