/**
 * The fast reader (src/manifest/fast-read.ts) against the full one (the `yaml` library):
 * the same values and the same positions wherever it reads a file, the same load results
 * (state, sources, diagnostics) for every fixture, the examples and random text, and it
 * declines what it does not read.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseAllDocuments, stringify, type ToStringOptions } from "yaml";
import { readFast } from "../../src/manifest/fast-read.js";
import { comparable } from "../layers/helpers.js";
import { readInputs } from "../../src/manifest/load.js";
import { loadManifestTexts } from "../../src/pipeline/load.js";
import { parseYamlText } from "../../src/manifest/parse.js";
import type { FieldPath } from "../../src/manifest/positions.js";
import {
  CASES,
  exampleFiles,
  fcRuns,
  mutateText,
  text,
  textMutation,
  YAML_BITS,
  yamlDocuments,
  yamlTree,
} from "./helpers.js";

const RUNS = fcRuns(150);

/** Every path of a value, and one step past each leaf (a path deeper than the document). */
function paths(v: unknown, prefix: (string | number)[] = []): FieldPath[] {
  if (v === null || typeof v !== "object") return [[...prefix, "beyond"]];
  const entries = Array.isArray(v) ? v.map((x, i) => [i, x] as const) : Object.entries(v);
  return [prefix, [...prefix, "missing"], ...entries.flatMap(([k, x]) => paths(x, [...prefix, k]))];
}

/** Both readers agree on a file: values, document starts, and every field's key and value. */
function expectSameReading(file: string, content: string): boolean {
  const fast = readFast(file, content);
  if (!fast) return false;
  const full = parseYamlText(file, content, { reader: "full" });
  expect(full.diagnostics).toEqual([]);
  expect(fast.map((d) => d.value)).toEqual(full.documents.map((d) => d.value));
  fast.forEach((d, i) => {
    const f = full.documents[i].handle;
    expect(d.handle.start).toEqual(f.start);
    for (const p of paths(d.value)) {
      expect(d.handle.at(p, "value"), `value of ${p.join(".")}`).toEqual(f.at(p, "value"));
      expect(d.handle.at(p, "key"), `key of ${p.join(".")}`).toEqual(f.at(p, "key"));
    }
  });
  return true;
}

describe("the fast reader reads as the full one", () => {
  it("the examples: read fast, same values and positions", () => {
    for (const f of exampleFiles())
      expect(expectSameReading(f.file, String(f.content)), f.file).toBe(true);
  });

  it("generated documents in every style: same values and positions", () => {
    const key = fc.oneof(
      fc.constantFrom("name", "spec", "a b", "x-y", "日本", "with: colon", "#hash", "quote'"),
      fc.string({ minLength: 1, maxLength: 6 }),
    );
    const leaf = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom("multi\nline\n", "trailing ", " lead", "a: b", "- x", "#c", "", "yes"),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
    );
    const value = yamlTree(key, leaf, 4);
    const options = fc.record({
      defaultStringType: fc.constantFrom(
        "PLAIN",
        "QUOTE_DOUBLE",
        "QUOTE_SINGLE",
        "BLOCK_LITERAL",
        "BLOCK_FOLDED",
      ),
      defaultKeyType: fc.constantFrom(null, "PLAIN", "QUOTE_DOUBLE", "QUOTE_SINGLE"),
      collectionStyle: fc.constantFrom("any", "block", "flow"),
      indent: fc.integer({ min: 2, max: 4 }),
      indentSeq: fc.boolean(),
    });
    let readFastCount = 0;
    fc.assert(
      fc.property(yamlDocuments(key, value, 5), options, fc.boolean(), (docs, o, comments) => {
        let content = docs.map((d) => stringify(d, null, o as ToStringOptions)).join("---\n");
        if (comments) content = `# leading comment\n${content.replace(/\n/g, "  \n")}`;
        if (expectSameReading("gen.yaml", content)) readFastCount++;
      }),
      { numRuns: RUNS },
    );
    // Most generated files are plain YAML the fast reader takes (not all declined).
    expect(readFastCount).toBeGreaterThan(RUNS / 2);
  });
});

describe("it declines what it does not read (the full reader takes the file)", () => {
  const declined: Record<string, string> = {
    anchor: "a: &x 1\nb: 2\n",
    alias: "a: &x 1\nb: *x\n",
    merge: "base: { a: 1 }\nother:\n  <<: { b: 2 }\n",
    tag: "a: !!str 1\n",
    directive: "%YAML 1.2\n---\na: 1\n",
    "duplicate key": "a: 1\na: 2\n",
    "syntax error": "a: [1, 2\n",
    "numeric key": "1: one\n",
    "null key": "~: x\n",
    "boolean key": "true: x\n",
    "list document": "- a\n- b\n",
    "scalar document": "just text\n",
    "empty stream": "# nothing\n",
    "collection key": "? [a]\n: 1\n",
  };
  for (const [what, content] of Object.entries(declined))
    it(what, () => {
      expect(readFast("x.yaml", content)).toBeUndefined();
    });
});

describe("loading gives the same result by either reader", () => {
  const same = (inputs: Parameters<typeof loadManifestTexts>[0]) =>
    expect(comparable(loadManifestTexts(inputs))).toEqual(
      comparable(loadManifestTexts(inputs, { reader: "full" })),
    );

  it("every fixture", async () => {
    for (const entry of readdirSync(CASES)) {
      const { inputs } = await readInputs([join(CASES, entry)], process.cwd());
      same(inputs);
    }
  });

  it("the examples", () => {
    same(exampleFiles());
  });

  it("random YAML-like text", () => {
    // The loader's random bits, whole manifest lines (so documents get far enough to be read
    // fast) and what the two readers were seen to disagree on.
    const bits = [
      ...YAML_BITS,
      "apiVersion: phctl/v1\n",
      "kind: User\n",
      "metadata:\n",
      "  name: x\n",
      "spec:\n",
      "  firstName: A\n",
      "  lastName: B\n",
      "  externalEmail: a@b.c\n",
      "  members: [x, y]\n",
      "---\n",
      "...\n",
      "  ---",
      " #",
      ">-",
      "\\",
      "%",
      "`",
      "\u0085",
      "\u2028",
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...bits), { maxLength: 60 }), (b) => {
        same([text("bits.yaml", b.join(""))]);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it("a directive line (found by the random text above): both readers warn alike", () => {
    same([text("bits.yaml", "%apiVersion: phctl/v1\r\n---\n")]);
    same([text("bits.yaml", "%YAML 1.2\n---\napiVersion: phctl/v1\nkind: Team\n")]);
  });

  it("textual mutations of the examples", () => {
    const examples = exampleFiles();
    fc.assert(
      fc.property(fc.nat(), fc.array(textMutation, { minLength: 1, maxLength: 4 }), (which, ms) => {
        const inputs = examples.map((f) => ({ ...f }));
        const target = inputs[which % inputs.length];
        target.content = mutateText(String(target.content), ms);
        same(inputs);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it("documents parsed by the yaml library and written back (so they read fast)", () => {
    const docs = exampleFiles()
      .filter((f) => !f.config)
      .flatMap((f) => parseAllDocuments(String(f.content)).map((d) => d.toJS() as unknown));
    fc.assert(
      fc.property(fc.shuffledSubarray(docs, { minLength: 1 }), fc.boolean(), (picked, flow) => {
        const content = picked
          .map((d) => stringify(d, { collectionStyle: flow ? "flow" : "any" }))
          .join("---\n");
        same([exampleFiles()[0], text("docs.yaml", content)]);
      }),
      { numRuns: Math.min(RUNS, 40) },
    );
  });
});
