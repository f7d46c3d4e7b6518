/**
 * A refusal of `apply --reviewed` names the live value of each field it refuses, beside the
 * value apply would set (issue 36, item 8): "title not reviewed (now "CI tooling")" read as
 * if the title were "CI tooling" live, when that is the manifest's value and the live title
 * is what someone changed by hand.
 */
import { describe, expect, it } from "vitest";
import type { PlanEntry } from "../../src/engine/plan.js";
import { compareReviewed } from "../../src/engine/reviewed.js";

function update(key: string, fields: Record<string, [unknown, unknown]>): PlanEntry {
  return {
    key,
    kind: "Project",
    action: "update",
    before: Object.fromEntries(Object.entries(fields).map(([f, [b]]) => [f, b])),
    after: Object.fromEntries(Object.entries(fields).map(([f, [, a]]) => [f, a])),
    changes: Object.entries(fields).map(([field, [before, after]]) => ({ field, before, after })),
    reason: "",
    source: null,
    dependsOn: [],
    destructive: false,
  };
}

describe("a refusal names the live value", () => {
  it("of a field changed live after the review (apply would set it back)", () => {
    const reviewed = [update("project/ci-tools", { description: ["Old", "New"] })];
    const fresh = [
      update("project/ci-tools", {
        description: ["Old", "New"],
        title: ["Renamed by hand", "CI tooling"],
      }),
    ];
    expect(compareReviewed(reviewed, fresh).differences).toEqual([
      'update project/ci-tools: title not reviewed (live "Renamed by hand", apply would set "CI tooling")',
    ]);
  });

  it("of a field whose value to set changed since the review", () => {
    const reviewed = [update("project/a", { description: ["Live", "Reviewed"] })];
    const fresh = [update("project/a", { description: ["Live", "Merged"] })];
    expect(compareReviewed(reviewed, fresh).differences).toEqual([
      'update project/a: description reviewed "Reviewed", apply would now set "Merged" (live "Live")',
    ]);
  });
});
