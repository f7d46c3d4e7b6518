/**
 * The line reader (src/manifest/line-read.ts) against js-yaml: wherever it reads a text, the
 * same packed events (every position) and the same values; it reads the examples and the
 * manifests export writes; it leaves the rest to js-yaml. (fast-read.test.ts holds the fast
 * readers to the `yaml` library's values and positions.)
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { constructFromEvents, parseEvents } from "js-yaml";
import { describe, expect, it } from "vitest";
import { stringify, type ToStringOptions } from "yaml";
import { pack, type Packed } from "../../src/manifest/packed.js";
import { readLines } from "../../src/manifest/line-read.js";
import {
  CASES,
  exampleFiles,
  fcRuns,
  mutateText,
  textMutation,
  YAML_BITS,
  yamlDocuments,
  yamlTree,
} from "./helpers.js";

const RUNS = fcRuns(150);

/** Whether the line reader reads `text`; if it does, exactly as js-yaml does. */
function readsLikeJsYaml(text: string): boolean {
  const lines = readLines(text);
  if (!lines) return false;
  let events;
  try {
    events = parseEvents(text, {});
  } catch (e) {
    throw new Error(
      `the line reader read text js-yaml refuses: ${JSON.stringify(text)}: ${String(e)}`,
    );
  }
  // js-yaml's `fast` hint (bit 6 of a scalar's meta byte) differs for some one-line
  // scalars it cannot yet tell are one line; one-line text decodes the same either way.
  const hintless = (p: Packed) => ({ meta: [...p.meta].map((x) => x & ~64), ab: [...p.ab] });
  expect(hintless(lines.events), JSON.stringify(text)).toEqual(hintless(pack(events)));
  expect(lines.values, JSON.stringify(text)).toStrictEqual(
    constructFromEvents(events, { source: text }),
  );
  return true;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const full = join(dir, f);
    return statSync(full).isDirectory() ? files(full) : /\.ya?ml$/.test(f) ? [full] : [];
  });
}

describe("the line reader reads as js-yaml", () => {
  it("the examples: every file read, same events and values", () => {
    for (const f of exampleFiles()) expect(readsLikeJsYaml(String(f.content)), f.file).toBe(true);
  });

  it("every fixture it reads (the others are js-yaml's)", () => {
    let read = 0;
    for (const f of files(CASES)) if (readsLikeJsYaml(readFileSync(f, "utf8"))) read++;
    expect(read).toBeGreaterThan(10);
  });

  it("generated documents in every style", () => {
    const key = fc.oneof(
      fc.constantFrom(
        "name",
        "spec",
        "a b",
        "x-y",
        "日本",
        "with: colon",
        "#hash",
        "quote'",
        "-x",
        "a#b",
      ),
      fc.string({ minLength: 1, maxLength: 6 }),
    );
    const leaf = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom(
        "multi\nline\n",
        "trailing ",
        " lead",
        "a: b",
        "- x",
        "#c",
        "",
        "yes",
        "-1",
        "a,b",
        "x]",
      ),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
    );
    const value = yamlTree(key, leaf, 4);
    const options = fc.record({
      defaultStringType: fc.constantFrom("PLAIN", "QUOTE_DOUBLE", "QUOTE_SINGLE", "BLOCK_LITERAL"),
      defaultKeyType: fc.constantFrom(null, "PLAIN", "QUOTE_DOUBLE", "QUOTE_SINGLE"),
      collectionStyle: fc.constantFrom("any", "block", "flow"),
      indent: fc.integer({ min: 2, max: 4 }),
      indentSeq: fc.boolean(),
    });
    let read = 0;
    fc.assert(
      fc.property(
        yamlDocuments(key, value, 5),
        options,
        fc.constantFrom("", "---\n", "# end\n"),
        fc.boolean(),
        (docs, o, end, comments) => {
          let content =
            docs.map((d) => stringify(d, null, o as ToStringOptions)).join("---\n") + end;
          if (comments) content = `# lead\n${content.replace(/\n/g, "  # c\n")}`;
          if (readsLikeJsYaml(content)) read++;
        },
      ),
      { numRuns: RUNS },
    );
    // Multi-line strings, block scalars and escapes are js-yaml's: part of these only.
    expect(read).toBeGreaterThan(RUNS / 10);
  });

  it("generated manifests (what people and export write): read, as js-yaml reads them", () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9._/@-]{0,12}$/);
    const leaf = fc.oneof(word, fc.integer(), fc.boolean(), fc.constant(null), fc.constant("a b"));
    const value = yamlTree(word, leaf, 4);
    let read = 0;
    fc.assert(
      fc.property(
        yamlDocuments(word, value, 5),
        fc.constantFrom("any", "block", "flow"),
        fc.boolean(),
        fc.constantFrom("", "---\n", "---\n---\n", "# end\n"),
        (docs, collectionStyle, flowCollectionPadding, end) => {
          // As export writes them (src/export/yaml.ts): no line wrapping.
          const o = { collectionStyle, flowCollectionPadding, lineWidth: 0 } as ToStringOptions;
          const content = docs.map((d) => stringify(d, o)).join("---\n") + end;
          if (readsLikeJsYaml(content)) read++;
        },
      ),
      { numRuns: RUNS },
    );
    expect(read).toBeGreaterThan(RUNS * 0.9);
  });

  it("random YAML-like text and mutations of the examples", () => {
    const bits = [
      ...YAML_BITS,
      "- ",
      "-\n",
      "  ",
      "\n",
      "key: ",
      "[a, b]",
      "{ a: 1 }",
      "'q'",
      '"d"',
      "# c\n",
      "---\n",
      ": ",
      "\r\n",
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...bits), { maxLength: 50 }), (b) => {
        readsLikeJsYaml(b.join(""));
      }),
      { numRuns: RUNS * 3 },
    );
    const examples = exampleFiles().map((f) => String(f.content));
    fc.assert(
      fc.property(fc.nat(), fc.array(textMutation, { minLength: 1, maxLength: 4 }), (which, ms) => {
        readsLikeJsYaml(mutateText(examples[which % examples.length], ms));
      }),
      { numRuns: RUNS * 3 },
    );
  });

  it("leaves to js-yaml what it does not read", () => {
    for (const text of [
      "a: |\n  block\n",
      "a: &x 1\nb: *x\n",
      "a: !!str 1\n",
      "a: multi\n  line\n",
      'a: "esc\\n"\n',
      "a: [1,\n 2]\n",
      "a: 1\na: 2\n",
      "1: one\n",
      "  a: 1\n",
      "- a\n",
      "a:\n  plain on its own line\n  and the next\n",
      "a:\tb\n",
      "# only\n",
      "? a\n: b\n",
      "a: [x,]\n",
      "a: { b }\n",
      "a: [b: c]\n",
    ])
      expect(readLines(text), JSON.stringify(text)).toBeUndefined();
  });
});
