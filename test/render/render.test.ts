import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { Plan, PLAN_FORMAT_VERSION, summarize, type PlanEntry } from "../../src/engine/plan.js";
import { planGroups, renderJson } from "../../src/render/json.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import { COLOR, useColor } from "../../src/render/style.js";
import { renderText } from "../../src/render/text.js";
import { layeredPlan, samplePlan } from "../fixtures/sample-plan.js";
import { expectGolden } from "../helpers/golden.js";

describe("plan renderers", () => {
  it("text (golden)", () => {
    expectGolden("plan/sample.txt", renderText(samplePlan()));
  });

  it("text lists unmanaged objects with --verbose", () => {
    expect(renderText(samplePlan(), { verbose: true })).toContain(
      "  user/legacy-bot (User) no manifest declares it",
    );
  });

  it("text with colour paints the symbols; without, no escape codes", () => {
    expect(renderText(samplePlan(), { style: COLOR })).toContain("\u001b[32m+\u001b[39m");
    expect(renderText(samplePlan())).not.toContain("\u001b[");
  });

  it("an empty plan says no changes", () => {
    const p = {
      ...samplePlan(),
      entries: [],
      unmanaged: [],
      warnings: [],
      summary: summarize([], 0),
    };
    expect(renderText(p)).toContain("No changes. Live state matches the manifests.");
  });

  it("markdown (golden)", () => {
    expectGolden("plan/sample.md", renderMarkdown(samplePlan()));
  });

  it("layers: each field names its layer's line, the blast radius is above the entries (golden)", () => {
    const text = renderText(layeredPlan());
    expectGolden("plan/layered.txt", text);
    expect(text).toContain(
      "~ enableForking: true → false  (defaults/repositories.yaml:7, Defaults repo-baseline)\n",
    );
    expect(text).toContain(
      '~ eccn: "EAR99" → "5D002"  (defaults/projects.yaml:9, Defaults export-control)',
    );
    expect(text.indexOf("repositories in 200 projects")).toBeLessThan(text.indexOf("project/tf-a"));
    const md = renderMarkdown(layeredPlan(true));
    expectGolden("plan/layered.md", md);
    expect(md).toContain(
      "- `defaults/repositories.yaml:1` Defaults **repo-baseline** (changed): 1,840 repositories in 200 projects",
    );
    expect(md).toContain("# defaults/repositories.yaml:7, Defaults repo-baseline");
    expect(md.indexOf("1,840 repositories")).toBeLessThan(md.indexOf("<details"));
    expectGolden("plan/layered-base.txt", renderText(layeredPlan(true)));
  });

  it("markdown stays under the limit and points to the JSON artifact", () => {
    const many: PlanEntry[] = [];
    for (let p = 0; p < 300; p++) {
      for (let r = 0; r < 10; r++) {
        many.push({
          key: `project/p${p}/repo/r${r}`,
          kind: "Repository",
          action: "create",
          before: null,
          after: { name: `r${r}`, description: "x".repeat(40) },
          changes: [],
          reason: "",
          source: { file: `projects/p${p}.yaml`, line: 10 + r },
          dependsOn: [],
          destructive: false,
        });
      }
    }
    const plan = { ...samplePlan(), entries: many, summary: summarize(many, 0) };
    const md = renderMarkdown(plan, { artifactHint: "plan.json" });
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(md).toMatch(/^Not shown here for length \(every entry is in plan\.json\):$/m);
    expect(
      md.startsWith("### phctl plan: 3,000 changes — 3,000 to apply, 0 tickets, 0 blocked · acme"),
    ).toBe(true);
  });

  it("json validates against the plan schema and round-trips", () => {
    const text = renderJson(samplePlan());
    const parsed: unknown = JSON.parse(text);
    const validate = new Ajv({ strict: false }).compile(Plan);
    expect(validate(parsed)).toBe(true);
    // The plan, and after its summary the groups derived from it.
    const { groups, ...plan } = parsed as Plan;
    expect(plan).toEqual(samplePlan());
    expect(groups).toEqual(planGroups(samplePlan()));
    expect(validate(JSON.parse(renderJson(layeredPlan(true))))).toBe(true);
    expect((parsed as { formatVersion: number }).formatVersion).toBe(PLAN_FORMAT_VERSION);
  });

  it("colour is off for NO_COLOR, --no-color and pipes", () => {
    expect(useColor({ isTTY: true }, undefined, {})).toBe(true);
    expect(useColor({ isTTY: true }, undefined, { NO_COLOR: "1" })).toBe(false);
    expect(useColor({ isTTY: true }, false, {})).toBe(false);
    expect(useColor({ isTTY: false }, undefined, {})).toBe(false);
  });
});
