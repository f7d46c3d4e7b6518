/**
 * Smoke of the layered-defaults benchmark (bench/layers.ts) at size S: the flat and the
 * layered configurations (bench/layered.ts) load without a diagnostic to the same desired
 * state, the 5 layers cover every project, repository and user; and the measurements run —
 * `phctl validate` of each in its own process (the built CLI), and the load + trace child —
 * with the block of results.md written from their figures.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SIZES } from "../../bench/generate.js";
import { layeredConfigs } from "../../bench/layered.js";
import { explainRun, layersSection, validateRun, writeFiles } from "../../bench/layers-measure.js";
import { writeExitHook } from "../../bench/serve.js";
import { desiredOf } from "../../src/engine/scope.js";
import { loadManifestTexts } from "../../src/manifest/load.js";
import type { LoadResult } from "../../src/manifest/types.js";

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
    });
  });

  it("validate each in its own process, and load + trace one object", async () => {
    const hook = writeExitHook(root);
    writeFiles(join(root, "flat"), configs.flat);
    writeFiles(join(root, "layered"), configs.layered);
    const f = await validateRun(join(root, "flat"), hook, root);
    const l = await validateRun(join(root, "layered"), hook, root);
    for (const x of [f, l]) {
      expect(x.wallMs).toBeGreaterThan(0);
      expect(x.cpuMs).toBeGreaterThan(0);
      expect(x.maxRssKB).toBeGreaterThan(10_000);
    }
    const e = explainRun(join(root, "layered"), "Project/p7");
    expect(e.entries).toBeGreaterThan(10);
    const lines = layersSection({
      size: "S",
      runs: 1,
      flatMs: f.wallMs,
      flatCpuMs: f.cpuMs,
      flatRssKB: f.maxRssKB,
      layeredMs: l.wallMs,
      layeredCpuMs: l.cpuMs,
      layeredRssKB: l.maxRssKB,
      loadMs: e.loadMs,
      traceMs: e.traceMs,
      traceEntries: e.entries,
      when: "now",
      machine: "here",
      load: "0",
    });
    expect(lines.join("\n")).toMatch(
      /\| `phctl validate` peak RSS \| \d+ MB \| \d+ MB \| [\d.]+× \| ≤ 1\.3× \|/,
    );
  }, 60_000);
});
