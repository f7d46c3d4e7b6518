/**
 * docs/api.md lists every operation of the route table once, with its method, path and marks
 * (assumed, queue, paged, deprecated) as src/api/routes.ts has them: the page users adapt an
 * API profile from must not drift from the table phctl calls through.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { RouteDef } from "../../src/api/route-def.js";
import { routes } from "../../src/api/routes.js";

const ROW = /^\|\s*`([\w.]+)`\s*\|\s*`([A-Z]+) (\S+)`\s*\|(.*)\|\s*$/;
const text = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8");

interface Row {
  line: number;
  method: string;
  path: string;
  notes: string;
}

function operationRows(): Map<string, Row[]> {
  const rows = new Map<string, Row[]>();
  text.split("\n").forEach((l, i) => {
    const m = ROW.exec(l);
    if (!m) return;
    const list = rows.get(m[1]) ?? [];
    list.push({ line: i + 1, method: m[2], path: m[3], notes: m[4] });
    rows.set(m[1], list);
  });
  return rows;
}

/** The marks a row's notes must carry for an operation, and must not carry otherwise. */
function marks(def: RouteDef): Record<string, boolean> {
  return {
    "**assumed**": def.assumed === true,
    [`queued (${def.queue ?? "none"})`]: def.queue !== undefined,
    paged: def.paging !== undefined,
    "`all`": def.paging?.all === true,
    deprecated: def.deprecated === true,
  };
}

describe("docs/api.md and the route table", () => {
  const rows = operationRows();
  const table = routes as Readonly<Record<string, RouteDef>>;

  it("lists every operation exactly once, and nothing else", () => {
    expect([...rows.keys()].sort()).toEqual(Object.keys(table).sort());
    expect([...rows].filter(([, r]) => r.length > 1).map(([id]) => id)).toEqual([]);
  });

  it("gives each its method, path and marks", () => {
    const wrong: string[] = [];
    for (const [id, [row]] of rows) {
      const def = table[id];
      if (!def) continue;
      if (row.method !== def.method || row.path !== def.path)
        wrong.push(`docs/api.md:${row.line} ${id}: ${def.method} ${def.path} in the table`);
      for (const [mark, wanted] of Object.entries(marks(def)))
        if (row.notes.includes(mark) !== wanted)
          wrong.push(`docs/api.md:${row.line} ${id}: ${wanted ? "missing" : "stray"} ${mark}`);
    }
    expect(wrong).toEqual([]);
  });

  it("says how many operations are assumed", () => {
    const assumed = Object.values(table).filter((d) => d.assumed).length;
    expect(text.replace(/\s+/g, " ")).toContain(`the method and path of ${assumed} operations`);
  });
});
