/**
 * The loader at scale and at its edges: a file ending in `---` (an empty last document) is
 * read by the fast reader with the same documents as the full reader; nesting deeper than a
 * manifest can be is one diagnostic in our words, by either reader; locating fields costs
 * work in proportion to the repositories, not their square (counted, not timed).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { locateSteps } from "../../src/manifest/fast-events.js";
import { MAX_DEPTH, readFast } from "../../src/manifest/fast-read.js";
import { comparable } from "../layers/helpers.js";
import { loadManifestTexts } from "../../src/pipeline/load.js";
import { parseYamlText, readerCounts } from "../../src/manifest/parse.js";
import type { FieldPath } from "../../src/manifest/positions.js";
import { exampleFiles, fcRuns, text, yamlDocuments, yamlTree } from "./helpers.js";

const RUNS = fcRuns(100);

/** Every path of a value, and one past each leaf. */
function paths(v: unknown, prefix: (string | number)[] = []): FieldPath[] {
  if (v === null || typeof v !== "object") return [[...prefix, "beyond"]];
  const entries = Array.isArray(v) ? v.map((x, i) => [i, x] as const) : Object.entries(v);
  return [prefix, ...entries.flatMap(([k, x]) => paths(x, [...prefix, k]))];
}

/** The fast reader reads `content` and agrees with the full reader on values and positions. */
function expectReadFastAsFull(content: string): void {
  const auto = parseYamlText("f.yaml", content);
  expect(auto.reader, JSON.stringify(content)).toBe("fast");
  const fast = readFast("f.yaml", content)!;
  const full = parseYamlText("f.yaml", content, { reader: "full" });
  expect(full.diagnostics).toEqual([]);
  expect(fast.map((d) => d.value)).toEqual(full.documents.map((d) => d.value));
  fast.forEach((d, i) => {
    const f = full.documents[i].handle;
    expect(d.handle.start, `start of document ${i}`).toEqual(f.start);
    for (const p of paths(d.value)) {
      expect(d.handle.at(p, "value"), p.join(".")).toEqual(f.at(p, "value"));
      expect(d.handle.at(p, "key"), p.join(".")).toEqual(f.at(p, "key"));
    }
  });
}

const ENDINGS = [
  "---\n",
  "---",
  "--- # end\n",
  "---   \n",
  "---\n# done\n",
  "---\n---\n",
  "---\r\n",
];

describe("a file ending in ---", () => {
  it("is read by the fast reader: the same documents as the full reader", () => {
    const before = readerCounts.fast;
    for (const end of ENDINGS) {
      expectReadFastAsFull(`a: 1\n${end}`);
      expectReadFastAsFull(`---\na: [x, y]\nb: { c: d }\n${end}`);
      expectReadFastAsFull(`# lead\n---\n${end}a: 1\n${end}`);
    }
    expect(readerCounts.fast - before).toBe(ENDINGS.length * 3);
  });

  it("every example with a trailing --- loads alike by either reader (warning included)", () => {
    const inputs = exampleFiles().map((f) =>
      f.config ? f : { ...f, content: `${String(f.content)}---\n` },
    );
    const auto = loadManifestTexts(inputs);
    expect(comparable(auto)).toEqual(comparable(loadManifestTexts(inputs, { reader: "full" })));
    expect(auto.diagnostics.filter((d) => d.code === "empty-document")).toHaveLength(
      inputs.length - 1,
    );
    expect(auto.state).toBeDefined();
  });

  it("generated documents separated and ended by ---: read fast, as the full reader reads them", () => {
    const key = fc.oneof(
      fc.constantFrom("name", "spec", "a b", "x-y", "quote'"),
      fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/),
    );
    const leaf = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
    );
    const value = yamlTree(key, leaf, 3);
    let fast = 0;
    fc.assert(
      fc.property(
        yamlDocuments(key, value, 4),
        fc.constantFrom("any", "block", "flow"),
        fc.constantFrom(...ENDINGS),
        fc.boolean(),
        (docs, collectionStyle, end, emptyBetween) => {
          const sep = emptyBetween ? "---\n---\n" : "---\n";
          const content = `${docs.map((d) => stringify(d, { collectionStyle })).join(sep)}${end}`;
          // Text the fast reader declines anyway (tabs, `<<`, …) is the full reader's.
          if (!readFast("f.yaml", content)) return;
          fast++;
          expectReadFastAsFull(content);
        },
      ),
      { numRuns: RUNS },
    );
    expect(fast).toBeGreaterThan(RUNS / 2);
  });
});

/** Nested `n` deep below a Team's spec: flow lists, block mappings or block lists. */
function nested(kind: "flow" | "block" | "list", n: number): string {
  const head = "apiVersion: phctl/v1\nkind: Team\nmetadata: { name: t }\nspec:\n";
  if (kind === "flow") return `${head}  members: ${"[".repeat(n)}${"]".repeat(n)}\n`;
  const lines: string[] = [];
  if (kind === "list") lines.push("  members:");
  for (let i = 0; i < n; i++)
    lines.push(`${" ".repeat(i + 2)}${kind === "block" ? `k${i}:` : "-"}`);
  lines.push(`${" ".repeat(n + 2)}${kind === "block" ? "x: 1" : "- x"}`);
  return `${head}${lines.join("\n")}\n`;
}

describe("nesting deeper than a manifest can be", () => {
  // Where the 101st level starts (root mapping = 1): the same line by either reader.
  const where = { flow: [5, 110], block: [104, 102], list: [104, 101] } as const;
  for (const kind of ["flow", "block", "list"] as const)
    for (const n of [MAX_DEPTH + 50, 4000])
      it(`${kind}, ${n} deep: one diagnostic at file:line in our words, by either reader`, () => {
        const content = nested(kind, n);
        for (const reader of ["auto", "full"] as const) {
          const r = loadManifestTexts([text("deep.yaml", content)], { reader });
          expect(r.state).toBeUndefined();
          expect(r.diagnostics).toHaveLength(1);
          const [d] = r.diagnostics;
          expect([d.file, d.line, d.column, d.code, d.severity]).toEqual([
            "deep.yaml",
            ...where[kind],
            "too-deep",
            "error",
          ]);
          expect(d.message).toMatch(/nested more than 100 deep/);
          expect(d.message).not.toMatch(/stack|Maximum/i);
        }
      });

  it("nesting up to the limit still reads (and is the schema's to judge)", () => {
    const r = parseYamlText("ok.yaml", nested("flow", MAX_DEPTH - 2));
    expect(r.reader).toBe("fast");
    expect(r.diagnostics).toEqual([]);
  });
});

/** One project with `n` repositories over the group and two subgroups. */
function project(n: number): string {
  const repos = Array.from(
    { length: n },
    (_, i) =>
      `      - name: repo-${i}\n${i % 3 ? `        subgroup: ${i % 3 === 1 ? "docs" : "tools/ci"}\n` : ""}`,
  );
  return `apiVersion: phctl/v1
kind: Project
metadata: { name: big }
spec:
  title: Big
  access: { admins: [alice] }
  git:
    subgroups: [docs, tools/ci]
    repositories:
${repos.join("")}`;
}

describe("loading is linear in the repositories", () => {
  const load = (n: number) => {
    const before = locateSteps.count;
    const r = loadManifestTexts([text("big.yaml", project(n))]);
    return { r, steps: locateSteps.count - before };
  };

  it("positions cost the same work per repository at 2,000 and 20,000 (a smoke: 20,000 load)", () => {
    const small = load(2_000);
    const large = load(20_000);
    expect(large.r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(large.r.state?.projects[0].git?.repositories).toHaveLength(20_000);
    // Quadratic lookups would make this 10× per repository.
    expect(large.steps / 20_000).toBeLessThan((small.steps / 2_000) * 1.2);
    expect(large.steps / 20_000).toBeLessThan(40);
  }, 20_000);
});
