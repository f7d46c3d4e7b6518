/**
 * README's merge table ("Defaults and layers") and src/layers/shape.ts say the same: every
 * place the table calls keyed merges by key, every place it says is replaced is replaced,
 * and every keyed list of the Project and Team schemas is in the table.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AccessLevels } from "../../src/api/schemas.js";
import { listRule } from "../../src/layers/shape.js";
import { ProjectSpec } from "../../src/manifest/schema/project.js";
import { TeamSpec } from "../../src/manifest/schema/team.js";

interface Row {
  places: string[];
  kind: string;
  merge: string;
}

/** The table's rows, each place written out (`LEVEL` as every access level). */
function tableRows(): Row[] {
  const lines = readFileSync("README.md", "utf8").split("\n");
  const start = lines.findIndex((l) => l.startsWith("<!-- merge-table"));
  expect(start).toBeGreaterThan(0);
  const rows: Row[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const [place, kind, merge] = line
      .split("|")
      .slice(1, 4)
      .map((c) => c.trim());
    if (place === "place" || place.startsWith("---")) continue;
    const places = [...place.matchAll(/`(spec\.[^`]+)`/g)].flatMap(([, p]) =>
      p.includes("LEVEL") ? AccessLevels.map((l) => p.replace("LEVEL", l)) : [p],
    );
    rows.push({ places, kind, merge });
  }
  return rows;
}

/** Every place of a schema that holds a list (a dotted path without indices). */
function listPlaces(schema: unknown, at: string, out: Set<string>): Set<string> {
  if (schema === null || typeof schema !== "object") return out;
  const s = schema as Record<string, unknown>;
  if (s.type === "array" || s.items !== undefined) out.add(at);
  if (s.items) listPlaces(s.items, at, out);
  for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, unknown>))
    listPlaces(v, `${at}.${k}`, out);
  for (const k of ["anyOf", "oneOf", "allOf"])
    for (const v of (s[k] as unknown[] | undefined) ?? []) listPlaces(v, at, out);
  for (const k of ["then", "else"]) listPlaces(s[k], at, out);
  return out;
}

describe("README's merge table", () => {
  const rows = tableRows();

  it("holds the places shape.ts keys, and the lists it replaces, as shape.ts says", () => {
    const keyed = rows.filter((r) => r.merge === "merge by key");
    const replaced = rows.filter((r) => r.merge === "replace");
    expect(keyed.length).toBeGreaterThanOrEqual(8);
    expect(replaced.length).toBeGreaterThanOrEqual(1);
    for (const r of keyed)
      for (const p of r.places)
        expect([r.kind, p, listRule(r.kind, p).merge]).not.toContain("replace");
    for (const r of replaced)
      for (const p of r.places)
        expect([r.kind, p, listRule(r.kind, p).merge]).toEqual([r.kind, p, "replace"]);
  });

  it("lists every keyed list of the Project and Team schemas", () => {
    const inTable = new Set(
      rows
        .filter((r) => r.merge === "merge by key")
        .flatMap((r) => r.places.map((p) => `${r.kind} ${p}`)),
    );
    const schemas = { Project: ProjectSpec, Team: TeamSpec };
    const keyedPlaces = Object.entries(schemas).flatMap(([kind, schema]) =>
      [...listPlaces(schema, "spec", new Set())]
        .filter((p) => listRule(kind, p).merge !== "replace")
        .map((p) => `${kind} ${p}`),
    );
    expect(keyedPlaces.length).toBeGreaterThanOrEqual(8);
    for (const p of keyedPlaces) expect(inTable, p).toContain(p);
  });
});
