import { describe, expect, it } from "vitest";
import { splitByBase } from "../../src/engine/base-split.js";
import { summarize, type PlanEntry } from "../../src/engine/plan.js";
import { COLOR } from "../../src/render/style.js";
import { renderText } from "../../src/render/text.js";
import { entry, plan } from "./markdown-plans.js";

const update = (key: string, changes: PlanEntry["changes"]): PlanEntry =>
  entry(key, "update", { kind: "Project", changes, destructive: false });

/** Head: a new repository, a project with a new description and a reverted title, drift on tf-b. */
function headAndBase() {
  const head = [
    entry("project/tf-a/repo/new", "create", { after: { name: "new", subgroup: "" } }),
    update("project/tf-a", [
      { field: "description", before: "old", after: "new" },
      { field: "title", before: "T", after: "Trusted" },
    ]),
    update("project/tf-b", [{ field: "status", before: "inactive", after: "active" }]),
    entry("project/tf-c", "ticket", {
      kind: "Project",
      changes: [{ field: "visibility", before: "private", after: "public" }],
      ticket: { subject: "Make tf-c public", body: "Please." },
      destructive: false,
    }),
  ];
  const base = [
    update("project/tf-a", [{ field: "title", before: "T", after: "Trusted" }]),
    update("project/tf-b", [{ field: "status", before: "inactive", after: "active" }]),
    head[3],
  ];
  return splitByBase(plan(head, { summary: summarize(head, 0) }), plan(base));
}

describe("text rendering with plan --base", () => {
  const text = renderText(headAndBase());

  it("shows this change first, then the drift already present", () => {
    const mine = text.indexOf("This change (compared with the base):");
    const drift = text.indexOf("Drift already present (apply will also revert it):");
    expect(mine).toBeGreaterThanOrEqual(0);
    expect(drift).toBeGreaterThan(mine);
    expect(text.slice(mine, drift)).toContain(
      "+ project/tf-a/repo/new (Repository) will be created",
    );
    expect(text.slice(mine, drift)).toContain("~ project/tf-a (Project) will be updated in place");
    expect(text.slice(drift)).toContain("~ project/tf-b (Project) will be updated in place");
    expect(text.slice(mine, drift)).not.toContain("project/tf-b");
    expect(text).not.toContain("phctl will perform these actions:");
  });

  it("marks the fields of a mixed entry that are drift, and drifted tickets", () => {
    expect(text).toContain('      ~ title: "T" → "Trusted"  (drift)');
    expect(text).toContain('      ~ description: "old" → "new"\n');
    expect(text).toContain(
      "! project/tf-c (Project) needs a support ticket (not an API operation; never sent) (drift already present)",
    );
  });

  it("says so when the change itself changes nothing", () => {
    const onlyDrift = splitByBase(
      plan([update("project/tf-b", [{ field: "status", before: "inactive", after: "active" }])]),
      plan([update("project/tf-b", [{ field: "status", before: "inactive", after: "active" }])]),
    );
    const t = renderText(onlyDrift);
    expect(t).toContain("No changes compared with the base.");
    expect(t).toContain("Drift already present (apply will also revert it):");
  });

  it("without --base: one list, no drift marks even if an entry carries driftFields", () => {
    const noBase = headAndBase();
    delete noBase.drift;
    const t = renderText(noBase);
    expect(t).toContain("phctl will perform these actions:");
    expect(t).not.toContain("drift");
  });

  it("created objects list no empty fields; colour marks drift dimly", () => {
    expect(text).toContain('      + name: "new"\n');
    expect(text).not.toContain("subgroup");
    expect(renderText(headAndBase(), { style: COLOR })).toContain("  \u001b[2m(drift)\u001b[22m");
  });
});
