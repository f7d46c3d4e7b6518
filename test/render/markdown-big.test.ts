/**
 * A big plan as reviewers read it (issue 27, item 9): 1,714 changes in 200 projects. The
 * summary is a table per project and kind whose counts add up, data loss is listed before
 * access removals, every project's details are one section with its own counts, and the
 * comment renders short and within GitHub's column (github-layout.ts).
 */
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../src/render/markdown.js";
import { bigPlan } from "./big-plan.js";
import { COLUMN_PX, layout } from "./github-layout.js";
import { destructiveBlock, detailsAccountFor, html } from "./markdown-plans.js";

const num = (s: string) => Number(s.replace(/[,*]/g, "") || 0);
const p = bigPlan();
const md = renderMarkdown(p, { artifactHint: "the `phctl-plan` artifact" });

/** The summary table: its header cells and rows of cells. */
function summaryTable(): { head: string[]; rows: string[][] } {
  const start = md.indexOf("\n| project | kind |");
  expect(start).toBeGreaterThan(0);
  const lines = md
    .slice(start + 1)
    .split("\n\n", 1)[0]
    .split("\n");
  const cells = (l: string) =>
    l
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
  return { head: cells(lines[0]), rows: lines.slice(2).map(cells) };
}

describe("a plan of 1,714 changes", () => {
  it("renders in a few screens, no wider than the column, without a wall of text", () => {
    const l = layout(md);
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(l.height).toBeLessThanOrEqual(3_000);
    expect(l.widest).toBeLessThanOrEqual(COLUMN_PX);
    expect(l.tallestBlock).toBeLessThanOrEqual(6);
    expect(l.visibleSections).toBeLessThanOrEqual(12);
  });

  it("summarises per project and kind in a table whose counts add up to the verdict", () => {
    const { head, rows } = summaryTable();
    expect(head).toEqual(["project", "kind", "create", "update", "delete", "ticket", "blocked", "total"]); // prettier-ignore
    const total = rows.at(-1)!;
    expect(total[0]).toBe("**total**");
    const body = rows.slice(0, -1);
    for (const r of rows) {
      const parts = r.slice(2, -1).map(num);
      expect(parts.reduce((a, b) => a + b, 0)).toBe(num(r.at(-1)!));
    }
    for (let c = 2; c < head.length; c++)
      expect(body.reduce((a, r) => a + num(r[c]), 0)).toBe(num(total[c]));
    expect(num(total.at(-1)!)).toBe(1_714);
    expect(total.slice(2, -1).map(num)).toEqual([100, 1_580, 25, 5, 4]);
    // Projects by name, each with its kinds; the rest counted together, per kind.
    expect(body.some((r) => /^\d+ other projects$/.test(r[0]))).toBe(true);
    expect(body.some((r) => r[0] === "`platform-component-007`")).toBe(true);
    expect(body.length).toBeLessThanOrEqual(24);
  });

  it("lists repository deletions before access removals", () => {
    const lines = destructiveBlock(md)
      .split("\n")
      .filter((l) => l.startsWith("- "));
    expect(lines).toHaveLength(25);
    const lastDelete = lines.findLastIndex((l) => l.includes("/repo/"));
    const firstRemoval = lines.findIndex((l) => l.includes("/access/"));
    expect(lastDelete).toBe(9);
    expect(firstRemoval).toBe(10);
  });

  it("shows each project's details as one section with its own counts, adding up", () => {
    const summaries = [...html(md).matchAll(/<summary>(.*?)<\/summary>/g)].map((m) => m[1]);
    const projects = summaries
      .map((s) => /^project <code>(.*?)<\/code> — ([\d,]+) changes?: (.*)$/.exec(s))
      .filter((m) => m !== null);
    expect(projects.length).toBeGreaterThan(5);
    const seen = new Set<string>();
    for (const [, slug, n, parts] of projects) {
      expect(seen.has(slug)).toBe(false);
      seen.add(slug);
      const sum =
        [...parts.matchAll(/([\d,]+) (?:to create|to update|to delete|tickets?|blocked)/g)] // prettier-ignore
          .reduce((a, m) => a + num(m[1]), 0);
      expect(sum).toBe(num(n));
      expect(num(n)).toBe(p.entries.filter((e) => e.key.startsWith(`project/${slug}/`) || e.key === `project/${slug}`).length); // prettier-ignore
    }
    expect(md).toMatch(/^#### Details — 1,714 changes in 201 groups$/m);
    expect(detailsAccountFor(md)).toBe(1_714);
  });
});
