/**
 * Smoke of the layered-defaults benchmark (bench/layers.ts) at size S: the flat and the
 * layered configurations (bench/layered.ts) load without a diagnostic to the same desired
 * state, the layers cover every project, repository and user (one a tenth of the projects);
 * and the measurements run — `phctl validate` of each and `phctl explain` of one repository in
 * their own processes (the built CLI), the load + trace child, and the scoped PR plan of a
 * change to one layer against the seeded server (it reads the projects the layer selects,
 * each, and nothing else) — with the block of results.md made from their figures.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SIZES } from "../../bench/generate.js";
import { layeredConfigs, subsetProjects } from "../../bench/layered.js";
import { layersSection, planFigures } from "../../bench/layers-block.js";
import {
  EXPLAIN_KEY,
  explainCliRun,
  loadTraceRun,
  validateRun,
  writeFiles,
  type ExplainCliRun,
  type ValidateRun,
} from "../../bench/layers-measure.js";
import { scopedPlanBench, type ScopedPlanResult } from "../../bench/layers-plan.js";
import { writeExitHook } from "../../bench/serve.js";
import { desiredOf } from "../../src/engine/scope.js";
import { loadManifestTexts } from "../../src/pipeline/load.js";
import type { LoadResult } from "../../src/pipeline/types.js";

const configs = layeredConfigs(SIZES.S);
const root = mkdtempSync(join(tmpdir(), "phctl-bench-layers-smoke-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const load = (files: { file: string; content: string }[]) =>
  loadManifestTexts(files.map((f) => ({ ...f, config: f.file === "phctl.yaml" })));

function normalised(r: LoadResult): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [kind, list] of desiredOf(r.state!))
    for (const d of list) out[`${kind} ${d.key}`] = d.fields;
  return out;
}

describe("layered defaults bench (size S)", () => {
  it("flat and layered load to the same desired state; the layers cover every object", () => {
    const flat = load(configs.flat);
    const layered = load(configs.layered);
    expect(flat.diagnostics).toEqual([]);
    expect(layered.diagnostics).toEqual([]);
    expect(normalised(layered)).toEqual(normalised(flat));
    const selected = Object.fromEntries(
      layered.layers!.layers.map((l) => [l.name, l.selected.length]),
    );
    expect(selected).toEqual({
      "project-baseline": SIZES.S.projects,
      "security-access": SIZES.S.projects,
      "repository-baseline": SIZES.S.repos,
      "docs-repositories": SIZES.S.repos / 5,
      "user-baseline": SIZES.S.users,
      "lfs-repositories": SIZES.S.repos / 10,
    });
  });

  let f: ValidateRun, l: ValidateRun, x: ExplainCliRun;
  it("validate each, and explain one repository, in its own process (the built CLI)", async () => {
    const hook = writeExitHook(root);
    writeFiles(join(root, "flat"), configs.flat);
    writeFiles(join(root, "layered"), configs.layered);
    f = await validateRun(join(root, "flat"), hook, root);
    l = await validateRun(join(root, "layered"), hook, root);
    x = await explainCliRun(join(root, "layered"), EXPLAIN_KEY, hook, root);
    for (const v of [f, l, x]) {
      expect(v.wallMs).toBeGreaterThan(0);
      expect(v.cpuMs).toBeGreaterThan(0);
      expect(v.maxRssKB).toBeGreaterThan(10_000);
    }
    expect(x.heading).toMatch(
      /^project\/p7\/repo\/docs\/repo1 \(Project p7, layered\/projects\/p7\.yaml:1\)$/,
    );
    // repository-baseline, docs-repositories and lfs-repositories; name, subgroup and 4 values.
    expect(x.layers).toBe(3);
    expect(x.values).toBe(6);
  }, 30_000);

  let plan: ScopedPlanResult;
  it("a PR changing one layer plans and reads the projects it selects, each, and no other", async () => {
    plan = await scopedPlanBench(join(root, "plan"), configs, writeExitHook(root), {
      runs: 1,
      latency: 0,
      concurrency: 16,
    });
    const subset = subsetProjects(SIZES.S);
    expect(subset).toEqual(["p7", "p17", "p27", "p37", "p47"]);
    expect(plan.scope).toEqual(subset.map((p) => `project/${p}`).sort());
    expect(plan.selectedProjects).toBe(subset.length);
    expect(plan.selectedObjects).toBe(SIZES.S.repos / 10);
    expect(plan.entries).toBe(SIZES.S.repos / 10);
    for (const p of subset) expect(plan.callsByProject[p], p).toBeGreaterThanOrEqual(1);
    expect(plan.fewestProjectCalls).toBeGreaterThanOrEqual(1);
    expect(plan.outsideCalls).toBe(0);
    expect(Object.keys(plan.callsByProject).sort()).toEqual([...subset].sort());
    expect(plan.scoped.calls).toBeLessThan(plan.full.calls);
    // The full plan reads every project.
    expect(plan.full.calls).toBeGreaterThan(SIZES.S.projects);
  }, 60_000);

  it("the block shows the figures against the targets, nothing left to do", () => {
    const e = loadTraceRun(join(root, "layered"), "Project/p7");
    expect(e.entries).toBeGreaterThan(10);
    const text = layersSection({
      size: "S",
      runs: 1,
      layers: 6,
      flatMs: f.wallMs,
      flatCpuMs: f.cpuMs,
      flatRssKB: f.maxRssKB,
      layeredMs: l.wallMs,
      layeredCpuMs: l.cpuMs,
      layeredRssKB: l.maxRssKB,
      explainKey: EXPLAIN_KEY,
      explainMs: x.wallMs,
      explainCpuMs: x.cpuMs,
      explainRssKB: x.maxRssKB,
      explainValues: x.values,
      explainLayers: x.layers,
      loadMs: e.loadMs,
      traceMs: e.traceMs,
      traceEntries: e.entries,
      plan: planFigures(plan),
      when: "now",
      machine: "here",
      load: "0.50 0.40 0.30 → 0.60 0.40 0.30",
    }).join("\n");
    expect(text).toMatch(
      /\| `phctl validate` peak RSS \| \d+ MB \| \d+ MB \| [\d.]+× \| ≤ 1\.3× \|/,
    );
    expect(text).toMatch(
      /`phctl explain project\/p7\/repo\/docs\/repo1 DIR` \(.*\): wall \*\*\d\.\d\d s\*\*, .* — (meets|\*\*does not meet\*\*) the 0\.50 s target \(issue 28\), at load average 0\.50 0\.40 0\.30 → 0\.60 0\.40 0\.30\./,
    );
    expect(text).toContain(`old ∪ new select 50 repositories in 5 projects`);
    expect(text).toMatch(
      /\| `phctl plan HEAD --base BASE`: scoped \(exit 2, 50 changes\) \| \d+ \|/,
    );
    expect(text).toContain(
      "The scoped plan planned 5 projects (exactly those the layer selects), with at least 6 calls on each and none on any other project",
    );
    expect(text).not.toMatch(/TODO|not in this build/);
  }, 30_000);
});
