/**
 * Properties of the loader (fast-check): whatever the input — random text, random bytes,
 * mutated or restructured example manifests — loading never throws, finishes quickly, and
 * every diagnostic names a file and a line; normalisation ignores file and list order and
 * is idempotent (state → manifests → state).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseAllDocuments, stringify } from "yaml";
import { formatDiagnostic } from "../../src/manifest/diagnostics.js";
import { configDocument, toManifests } from "../../src/manifest/emit.js";
import { type ManifestInput } from "../../src/manifest/load.js";
import { loadManifestTexts } from "../../src/pipeline/load.js";
import type { LoadResult } from "../../src/pipeline/types.js";
import {
  exampleFiles,
  fcRuns,
  mutateText,
  text,
  textMutation,
  withoutSources,
  YAML_BITS,
} from "./helpers.js";

const RUNS = fcRuns(150);
/** Generous on a shared 2-core machine; a hang or an exponential blow-up is far above it. */
const BUDGET_MS = 2_000;

function loadChecked(inputs: ManifestInput[]): LoadResult {
  const started = performance.now();
  const r = loadManifestTexts(inputs);
  expect(performance.now() - started).toBeLessThan(BUDGET_MS);
  const files = inputs.map((i) => i.file);
  for (const d of r.diagnostics) {
    expect(files).toContain(d.file);
    expect(d.line).toBeGreaterThanOrEqual(1);
    expect(d.column).toBeGreaterThanOrEqual(1);
    expect(d.message).not.toBe("");
    expect(formatDiagnostic(d)).toMatch(/^\S+:\d+:\d+ /);
  }
  expect(r.state === undefined).toBe(r.diagnostics.some((d) => d.severity === "error"));
  return r;
}

const examples = exampleFiles();
const baseline = loadManifestTexts(examples);

describe("loading never throws and always points somewhere", () => {
  it("random text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), (s) => {
        loadChecked([text("random.yaml", s)]);
      }),
      { numRuns: RUNS },
    );
  });

  it("random YAML-like text", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...YAML_BITS), { maxLength: 80 }), (bits) => {
        loadChecked([text("bits.yaml", bits.join("")), text("lines.yaml", bits.join("\n"))]);
      }),
      { numRuns: RUNS },
    );
  });

  it("random bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        loadChecked([{ file: "bytes.yaml", content: bytes }]);
      }),
      { numRuns: RUNS },
    );
  });

  it("textual mutations of the examples", () => {
    fc.assert(
      fc.property(fc.nat(), fc.array(textMutation, { minLength: 1, maxLength: 6 }), (which, ms) => {
        const inputs = examples.map((f) => ({ ...f }));
        const target = inputs[which % inputs.length];
        const s = mutateText(String(target.content), ms);
        target.content = s;
        loadChecked(inputs);
      }),
      { numRuns: RUNS },
    );
  });

  it("structural mutations of the examples (and what still loads round-trips)", () => {
    const docs = examples
      .filter((f) => !f.config)
      .flatMap((f) => parseAllDocuments(String(f.content)).map((d) => d.toJS() as unknown));
    const paths = (v: unknown, prefix: (string | number)[] = []): (string | number)[][] =>
      v !== null && typeof v === "object"
        ? Object.entries(v).flatMap(([k, x]) => {
            const p = [...prefix, Array.isArray(v) ? Number(k) : k];
            return [p, ...paths(x, p)];
          })
        : [];
    fc.assert(
      fc.property(
        fc.nat(),
        fc.nat(),
        fc.oneof(
          fc.record({ op: fc.constant("set" as const), value: fc.jsonValue({ maxDepth: 2 }) }),
          fc.record({ op: fc.constant("delete" as const) }),
          fc.record({ op: fc.constant("rename" as const), suffix: fc.string({ maxLength: 3 }) }),
        ),
        (d, p, m) => {
          const doc = structuredClone(docs[d % docs.length]);
          const all = paths(doc);
          const path = all[p % all.length];
          const parent = path.slice(0, -1).reduce<any>((o, k) => o[k], doc);
          const last = path[path.length - 1];
          if (m.op === "set") parent[last] = m.value;
          else if (Array.isArray(parent)) parent.splice(Number(last), 1);
          else if (m.op === "delete") delete parent[last];
          else {
            parent[`${String(last)}${m.suffix}`] = parent[last];
            if (m.suffix !== "") delete parent[last];
          }
          const r = loadChecked([text("mutated.yaml", stringify(doc))]);
          if (r.state) {
            const again = loadChecked([
              text(
                "emitted.yaml",
                toManifests(r.state)
                  .map((x) => stringify(x))
                  .join("---\n"),
              ),
            ]);
            expect(withoutSources(again.state)).toEqual(withoutSources(r.state));
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});

/** A deterministic shuffle (so fast-check can shrink the seed). */
function shuffle<T>(xs: readonly T[], seed: number): T[] {
  const out = [...xs];
  let s = seed >>> 0 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Shuffle every list in a document (all lists of a manifest are sets or keyed by name). */
function shuffleLists(v: unknown, seed: number): unknown {
  if (Array.isArray(v)) return shuffle(v, seed).map((x, i) => shuffleLists(x, seed + i + 1));
  if (v === null || typeof v !== "object") return v;
  return Object.fromEntries(
    shuffle(Object.entries(v), seed).map(([k, x], i) => [k, shuffleLists(x, seed * 31 + i)]),
  );
}

describe("normalisation", () => {
  it("the examples load", () => {
    expect(baseline.diagnostics).toEqual([]);
    expect(baseline.state).toBeDefined();
  });

  it("does not depend on file, document, key or list order", () => {
    const config = examples.find((f) => f.config)!;
    const docs = examples
      .filter((f) => !f.config)
      .flatMap((f) => parseAllDocuments(String(f.content)).map((d) => d.toJS() as unknown));
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 5 }), (seed, nFiles) => {
        const files: unknown[][] = Array.from({ length: nFiles }, () => []);
        shuffle(docs, seed).forEach((d, i) =>
          files[(((i * 7 + seed) % nFiles) + nFiles) % nFiles].push(shuffleLists(d, seed + i)),
        );
        const inputs = [
          config,
          ...files
            .filter((f) => f.length > 0)
            .map((f, i) => text(`f${i}.yaml`, f.map((d) => stringify(d)).join("---\n"))),
        ];
        const r = loadChecked(inputs);
        expect(r.diagnostics).toEqual([]);
        expect(withoutSources(r.state)).toEqual(withoutSources(baseline.state));
      }),
      { numRuns: Math.min(RUNS, 60) },
    );
  });

  it("is idempotent: the state written back as manifests loads to the same state", () => {
    const state = baseline.state!;
    const emitted = [
      text("phctl.yaml", stringify(configDocument(state.config)), true),
      text(
        "all.yaml",
        toManifests(state)
          .map((d) => stringify(d))
          .join("---\n"),
      ),
    ];
    const again = loadChecked(emitted);
    expect(again.diagnostics).toEqual([]);
    expect(withoutSources(again.state)).toEqual(withoutSources(state));
    const third = loadChecked([
      emitted[0],
      text(
        "all.yaml",
        toManifests(again.state!)
          .map((d) => stringify(d))
          .join("---\n"),
      ),
    ]);
    expect(withoutSources(third.state)).toEqual(withoutSources(again.state));
  });
});
