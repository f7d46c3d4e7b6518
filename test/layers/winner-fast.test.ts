/**
 * The handle's short cut (the object's own document wins wherever it has a value, found
 * without building contributors) answers exactly what the full walk through every
 * contributor answers, at every path of every layered object: access levels written as
 * lists, tombstones shifting list indices, repositories with Repository layers,
 * inherit: false, plain lists.
 */
import { describe, expect, it } from "vitest";
import type { FieldPath } from "../../src/manifest/positions.js";
import type { Winner } from "../../src/layers/handle.js";
import { defaults, file, lines, load, project, user } from "./helpers.js";

/** Every path of a plain value (maps by key, lists by index), the value's own included. */
function paths(v: unknown, at: FieldPath = []): FieldPath[] {
  const out: FieldPath[] = [at];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...paths(x, [...at, i])));
  else if (v !== null && typeof v === "object")
    for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...at, k]));
  return out;
}

const where = (w: Winner | undefined) =>
  w && { layer: w.contributor.layer?.name, at: w.at, value: w.contributor.value };

describe("LayeredHandle.winner short cut", () => {
  it("gives the full walk's answer at every path", () => {
    const r = load(
      file(
        "users.yaml",
        user("jdoe"),
        user("asmith"),
        user("bob", { services: { artifactservice: {} } }),
      ),
      file(
        "projects.yaml",
        project("tf-a", {
          licenses: [{ $remove: "MIT" }, "BSD-3-Clause"],
          access: {
            admins: ["jdoe"],
            reporters: { users: [{ $remove: "bob" }, "asmith"] },
          },
          git: {
            subgroups: ["tools"],
            repositories: [
              { name: "docs", subgroup: "tools", enableForking: true },
              { name: "fw", inherit: false, requiresDCO: false },
              { name: "ci" },
            ],
          },
        }),
        project("plain", { licenses: ["MIT"] }),
      ),
      file(
        "defaults.yaml",
        defaults("base", {
          select: { kind: "Project" },
          values: {
            licenses: ["MIT", "Apache-2.0"],
            access: { reporters: ["bob"], developers: { organizationTeams: ["acme/qa"] } },
            git: { subgroups: ["docs"] },
          },
        }),
        defaults("repos", {
          select: { kind: "Repository" },
          values: { requiresDCO: true, enableForking: false, issueTracking: "enabled" },
        }),
        defaults("users", {
          select: { kind: "User" },
          values: { services: { git: { status: "active" } } },
        }),
      ),
    );
    expect(lines(r)).toEqual([]);
    let compared = 0;
    let short = 0;
    for (const object of r.layers!.layered.values()) {
      const handle = object.handle as unknown as {
        winner(p: FieldPath): Winner | undefined;
        walk(p: FieldPath): Winner | undefined;
        ownWinner(p: FieldPath): Winner | undefined;
      };
      for (const path of paths(object.doc.value).filter((p) => p[0] === "spec")) {
        if (handle.ownWinner(path)) short++;
        expect(where(handle.winner(path)), path.join(".")).toEqual(where(handle.walk(path)));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(50);
    // The short cut answers most paths, and the walk the rest.
    expect(short).toBeGreaterThan(compared / 3);
    expect(short).toBeLessThan(compared);
  });
});
