/**
 * Identical changes counted together (issue 35, item 15): what makes two changes identical
 * (action, kind, field, before → after, source document), that the groups partition the
 * changes whatever the plan (fast-check), the clusters a summary line says, violations per
 * rule, and the JSON plan's `groups` (which a saved plan keeps and apply reads).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readSavedPlan } from "../../src/cli/saved-plan.js";
import type { PlanEntry, PolicyViolation } from "../../src/engine/plan.js";
import {
  changeClusters,
  changeGroups,
  groupedSummary,
  unitsOf,
} from "../../src/render/change-groups.js";
import { clusterLine } from "../../src/render/group-words.js";
import { renderJson } from "../../src/render/json.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import { renderText } from "../../src/render/text.js";
import { groupedViolations, violationGroups } from "../../src/render/violation-groups.js";
import { entry, plan } from "./markdown-plans.js";

const LAYER = { file: "defaults.yaml", line: 4 };

/** Repository r of project p: enableForking true → false, from the layer or its own file. */
function forking(p: number, r: number, own = false): PlanEntry {
  const file = `projects/p${p}.yaml`;
  return entry(`project/p${p}/repo/r${r}`, "update", {
    changes: [
      own
        ? { field: "enableForking", before: true, after: false, source: { file, line: 12 } }
        : { field: "enableForking", before: true, after: false, source: LAYER, layer: "no-forks" },
    ],
    source: own ? { file, line: 12 } : LAYER,
  });
}

/** 100 projects × 10 repositories, p7's r1 by its own manifest. */
const orgWide = (): PlanEntry[] =>
  Array.from({ length: 1_000 }, (_, i) => forking(Math.floor(i / 10) + 1, (i % 10) + 1, i === 60));

const PLAIN_SAY = { value: JSON.stringify, name: String, where: String, kind: String };

describe("identical changes", () => {
  it("a layer's change on 999 repositories is one group, the override another", () => {
    const groups = changeGroups(orgWide());
    expect(groups.map(({ keys, ...g }) => ({ ...g, keys: keys.length }))).toEqual([
      {
        action: "update",
        kind: "Repository",
        field: "enableForking",
        before: true,
        after: false,
        source: { layer: "no-forks", file: "defaults.yaml", line: 4 },
        count: 999,
        projects: 100,
        keys: 999,
      },
      {
        action: "update",
        kind: "Repository",
        field: "enableForking",
        before: true,
        after: false,
        source: { file: "projects/p7.yaml", line: 12 },
        count: 1,
        projects: 1,
        keys: 1,
      },
    ]);
    const [cluster] = changeClusters(groups);
    expect(clusterLine(cluster, PLAIN_SAY)).toBe(
      "enableForking: true → false on 999 repositories in 100 projects (layer no-forks, defaults.yaml:4); 1 override (projects/p7.yaml:12)",
    );
  });

  it("differs by action, kind, field, before, after and document — not by line or key", () => {
    const base = forking(1, 1);
    const variants: PlanEntry[] = [
      { ...base, key: "project/p2/repo/x", source: { file: "elsewhere.yaml", line: 99 } },
      { ...base, action: "ticket" },
      { ...base, kind: "Mirror" },
      { ...base, changes: [{ ...base.changes[0], field: "hasIssues" }] },
      { ...base, changes: [{ ...base.changes[0], before: null }] },
      { ...base, changes: [{ ...base.changes[0], after: "false" }] },
      { ...base, changes: [{ ...base.changes[0], layer: "other" }] },
      {
        ...base,
        changes: [
          {
            field: "enableForking",
            before: true,
            after: false,
            source: { file: "b.yaml", line: 4 },
          },
        ],
      },
    ];
    const groups = changeGroups([base, ...variants]);
    // The first variant only moved: same group as base; each other one is its own.
    expect(groups.map((g) => g.count)).toEqual([2, 1, 1, 1, 1, 1, 1, 1]);
    // Lines differ within the document's group: the group names the document, not a line.
    const twoLines = changeGroups([
      base,
      {
        ...forking(2, 1),
        changes: [{ ...base.changes[0], source: { file: "defaults.yaml", line: 5 } }],
      },
    ]);
    expect(twoLines.map((g) => g.source)).toEqual([{ layer: "no-forks", file: "defaults.yaml" }]);
  });

  it("object values compare as JSON whatever their keys' order", () => {
    const a = entry("project/a", "update", {
      kind: "Project",
      changes: [{ field: "git", before: { x: 1, y: 2 }, after: { x: 1, y: 3 } }],
    });
    const b = {
      ...a,
      key: "project/b",
      changes: [{ field: "git", before: { y: 2, x: 1 }, after: { y: 3, x: 1 } }],
    };
    expect(changeGroups([a, b]).map((g) => g.count)).toEqual([2]);
  });

  it("creates and deletes group whole objects per kind and file; a summary never folds deletes", () => {
    const entries = [
      ...Array.from({ length: 12 }, (_, i) =>
        entry(`project/p${i % 3}/repo/new-${i}`, "create", {
          source: { file: "projects/p.yaml", line: 5 + i },
        }),
      ),
      ...Array.from({ length: 11 }, (_, i) =>
        entry(`project/p1/repo/old-${i}`, "delete", { source: null }),
      ),
    ];
    const s = groupedSummary(entries)!;
    expect(s.clusters.map((c) => clusterLine(c, PLAIN_SAY))).toEqual([
      "create 12 repositories in 3 projects (projects/p.yaml)",
      "delete 11 repositories in 1 project (no longer declared)",
    ]);
    expect([...s.folded].map((e) => e.action)).toEqual(Array(12).fill("create"));
    expect(s.others).toBe(0);
  });

  it("a small plan has no summary", () => {
    expect(groupedSummary(orgWide().slice(0, 9))).toBeUndefined();
    expect(renderText(plan(orgWide().slice(0, 9)))).not.toContain("Summary");
  });
});

const VALUES = fc.oneof(fc.constant(true), fc.constant(false), fc.constant(null), fc.constantFrom("a", "b"), fc.record({ k: fc.nat(2) })); // prettier-ignore
const CHANGE = fc.record({
  field: fc.constantFrom("enableForking", "description", "hasIssues"),
  before: VALUES,
  after: VALUES,
  source: fc.option(fc.record({ file: fc.constantFrom("a.yaml", "b.yaml"), line: fc.integer({ min: 1, max: 3 }) }), { nil: undefined }), // prettier-ignore
  layer: fc.option(fc.constantFrom("l1", "l2"), { nil: undefined }),
});
const ENTRY = fc
  .record({
    project: fc.integer({ min: 1, max: 4 }),
    name: fc.nat(30),
    kind: fc.constantFrom("Repository", "Mirror"),
    action: fc.constantFrom("create", "update", "delete", "ticket", "blocked"),
    changes: fc.uniqueArray(CHANGE, { maxLength: 3, selector: (c) => c.field }),
    file: fc.option(fc.constantFrom("a.yaml", "c.yaml"), { nil: null }),
  })
  .map(({ project, name, kind, action, changes, file }) =>
    entry(`project/p${project}/repo/r${name}`, action, {
      kind,
      changes: changes.map(({ source, layer, ...c }) => ({
        ...c,
        ...(source ? { source } : {}),
        ...(layer ? { layer } : {}),
      })),
      source: file ? { file, line: 1 } : null,
    }),
  );
const ENTRIES = fc.uniqueArray(ENTRY, { maxLength: 60, selector: (e) => `${e.key} ${e.action}` });

describe("the groups of any plan", () => {
  it("partition its changes: every change in one group, the counts adding up", () => {
    fc.assert(
      fc.property(ENTRIES, (entries) => {
        const groups = changeGroups(entries);
        const units = entries.flatMap(unitsOf);
        expect(groups.reduce((a, g) => a + g.count, 0)).toBe(units.length);
        for (const g of groups) expect(g.keys).toHaveLength(g.count);
        // Each entry's key is in as many groups as it makes changes.
        const seen = new Map<string, number>();
        for (const g of groups) for (const k of g.keys) seen.set(k, (seen.get(k) ?? 0) + 1);
        const made = new Map<string, number>();
        for (const u of units) made.set(u.entry.key, (made.get(u.entry.key) ?? 0) + 1);
        expect(seen).toEqual(made);
        // Largest first; clusters add up to the same total.
        for (let i = 1; i < groups.length; i++)
          expect(groups[i - 1].count).toBeGreaterThanOrEqual(groups[i].count);
        expect(changeClusters(groups).reduce((a, c) => a + c.count, 0)).toBe(units.length);
        // A summary counts every change: in its clusters or among the others.
        const s = groupedSummary(entries, 2);
        if (s) expect(s.clusters.reduce((a, c) => a + c.count, 0) + s.others).toBe(units.length);
      }),
      { numRuns: 300 },
    );
  });
});

const violation = (key: string, rule: string, over: Partial<PolicyViolation> = {}): PolicyViolation => ({
  policy: "naming",
  rule,
  enforcement: "deny",
  scope: "object",
  key,
  kind: "Project",
  source: { file: `projects/${key}.yaml`, line: 1 },
  ruleSource: { file: "policies/naming.yaml", line: 7 },
  message: "the title starts with Project",
  ...over,
}); // prettier-ignore

describe("violations per rule", () => {
  const vs = [
    ...Array.from({ length: 40 }, (_, i) => violation(`project/p${i + 1}`, "title")),
    violation("project/p1", "slug", { enforcement: "warn" }),
    violation("project/p2", "title", { enforcement: "warn" }),
  ];

  it("one group per policy, rule and verdict, denials first; the rest one by one", () => {
    const groups = violationGroups(vs);
    expect(groups.map((g) => [g.rule, g.verdict, g.count, g.projects])).toEqual([
      ["title", "deny", 40, 40],
      ["slug", "warn", 1, 1],
      ["title", "warn", 1, 1],
    ]);
    expect(groups[0].keys.slice(0, 3)).toEqual(["project/p1", "project/p2", "project/p3"]);
    const { groups: big, rest } = groupedViolations(vs);
    expect(big).toHaveLength(1);
    expect(rest.map((v) => v.rule)).toEqual(["slug", "title"]);
  });

  it("text: one entry for the rule; markdown: one bullet naming its projects", () => {
    const p = plan([], { violations: vs });
    const text = renderText(p);
    expect(text).toContain(
      "  deny  policy naming, rule title denies 40 projects  policies/naming.yaml:7\n        the title starts with Project\n        project/p1, project/p2, project/p3, project/p4, project/p5, project/p6, …and 34 more (--verbose lists each)\n",
    );
    expect(text.match(/^ {2}(deny|warn) /gm)).toHaveLength(3);
    expect(renderText(p, { verbose: true }).match(/^ {2}(deny|warn) /gm)).toHaveLength(42);
    const md = renderMarkdown(p);
    expect(md).toContain(
      "- **deny** policy `naming`, rule `title` denies 40 projects — the title starts with Project · `policies/naming.yaml:7`: `project/p1`, `project/p2`,",
    );
    expect(md).toMatch(/, …and \d+ more \(see the JSON plan/);
  });
});

describe("the JSON plan's groups", () => {
  it("come right after the summary, and a saved plan holding them is read back", () => {
    const p = plan(orgWide(), { violations: [violation("project/p1", "title")] });
    const json = renderJson(p);
    const data = JSON.parse(json) as Record<string, unknown>;
    const keys = Object.keys(data);
    expect(keys[keys.indexOf("summary") + 1]).toBe("groups");
    const groups = data.groups as { changes: { count: number }[]; violations: { count: number }[] };
    expect(groups.changes.map((g) => g.count)).toEqual([999, 1]);
    expect(groups.violations.map((g) => g.count)).toEqual([1]);
    const dir = mkdtempSync(join(tmpdir(), "phctl-groups-"));
    try {
      writeFileSync(join(dir, "plan.json"), json);
      expect(readSavedPlan(join(dir, "plan.json")).groups).toEqual(data.groups);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("an organization-wide change rendered", () => {
  const p = plan(orgWide());

  it("text: the summary line, the objects folded; --verbose lists them", () => {
    const text = renderText(p);
    expect(text).toContain(
      "Summary (identical changes counted together):\n  ~ enableForking: true → false on 999 repositories in 100 projects (layer no-forks, defaults.yaml:4); 1 override (projects/p7.yaml:12)\n",
    );
    expect(text.split("\n").length).toBeLessThan(15);
    expect(renderText(p, { verbose: true }).match(/will be updated in place/g)).toHaveLength(1_000);
  });

  it("markdown: the summary first within the budget, the details collapsed after it", () => {
    for (const maxChars of [65_536, 8_000]) {
      const md = renderMarkdown(p, { maxChars });
      expect(md.length).toBeLessThanOrEqual(maxChars);
      const line =
        "- `enableForking`: `true` → `false` on 999 repositories in 100 projects (layer `no-forks`, `defaults.yaml:4`); 1 override (`projects/p7.yaml:12`)";
      expect(md).toContain(line);
      expect(md.indexOf(line)).toBeLessThan(md.indexOf("<details>"));
    }
  });
});
