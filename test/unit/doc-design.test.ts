/**
 * docs/design.md's layout table names every directory of src/ as it is today, and nothing
 * that is not there: a contributor finds where things live from it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { expect, it } from "vitest";

it("docs/design.md lists exactly the directories of src/", () => {
  const text = readFileSync(new URL("../../docs/design.md", import.meta.url), "utf8");
  const listed = [...text.matchAll(/^\|\s*`src\/([\w-]+)\/`\s*\|/gm)].map((m) => m[1]);
  const actual = readdirSync(new URL("../../src", import.meta.url), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  expect([...listed].sort()).toEqual([...actual].sort());
  expect(new Set(listed).size).toBe(listed.length);
});
