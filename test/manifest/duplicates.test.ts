/** eachDuplicate (src/manifest/rules/duplicates.ts) reports what a Map of first indices would. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eachDuplicate } from "../../src/manifest/rules/duplicates.js";
import { fcRuns } from "./helpers.js";

/** The reference: a Map from identity to its first index. */
function byMap(items: readonly [string, string][]): [number, number][] {
  const first = new Map<string, number>();
  const out: [number, number][] = [];
  items.forEach(([a, b], i) => {
    const id = JSON.stringify([a, b]);
    const j = first.get(id);
    if (j === undefined) first.set(id, i);
    else out.push([i, j]);
  });
  return out;
}

function found(items: readonly [string, string][]): [number, number][] {
  const out: [number, number][] = [];
  eachDuplicate(
    items.length,
    (i) => items[i][0],
    (i) => items[i][1],
    (i, first) => out.push([i, first]),
  );
  return out;
}

describe("eachDuplicate", () => {
  it("finds each later duplicate with its first occurrence, as a Map would", () => {
    const word = fc.constantFrom("", "a", "b", "ab", "tools/ci", "docs", "x\u0000y", "é");
    fc.assert(
      fc.property(fc.array(fc.tuple(word, word), { maxLength: 200 }), (items) => {
        expect(found(items)).toEqual(byMap(items));
      }),
      { numRuns: fcRuns(200) },
    );
  });

  it("tells the pair apart from its concatenation (a/b vs ab/)", () => {
    expect(
      found([
        ["a", "b"],
        ["ab", ""],
        ["", "ab"],
        ["a", "b"],
      ]),
    ).toEqual([[3, 0]]);
  });

  it("holds 100,000 distinct items with no report", () => {
    const n = 100_000;
    expect(
      found(Array.from({ length: n }, (_, i): [string, string] => [`g${i % 7}`, `r${i}`])),
    ).toEqual([]);
  });
});
