/**
 * The markdown report at size M (issue 37, item 9): every table gets its own share of the
 * 65,536 characters, so each shows rows (before, the access review at M showed 0 of 3,600
 * live-only rows and 1 of 2,000 users, and delivery cut the whole DORA band legend); a cut
 * table says how many rows it leaves out and where they all are; the band legend is never
 * cut. Generated M-like data (test/helpers/report-fixture.ts), the renderer alone.
 */
import { describe, expect, it } from "vitest";
import { MARKDOWN_LIMIT, renderReportMarkdown } from "../../src/render/report-markdown.js";
import { reportTables, type ReportTable } from "../../src/render/report-tables.js";
import { bandTableRows } from "../../src/report/bands.js";
import type { AccessReport, DeliveryReport, Report } from "../../src/report/types.js";
import { accessFixture, deliveryFixture } from "../helpers/report-fixture.js";

/** An access review like size M's: 2,000 users, 500 projects, 3,600 live-only rows. */
function accessM(withSince: boolean): AccessReport {
  const r = accessFixture({ users: 2000, projects: 500, rowsPerProject: 14, seed: 5 });
  r.rows.forEach((row, i) => {
    row.declared = i >= 3600;
    row.name = `Name ${row.principal}`;
    row.email = `${row.principal}@example.org`;
    row.since = "2026-01-01";
    row.sinceBasis = "first-seen";
  });
  for (const u of r.users) Object.assign(u, { name: `Name ${u.username}`, email: `${u.username}@example.org` }); // prettier-ignore
  const live = r.findings.find((f) => f.id === "live-only-access")!;
  live.rows = r.rows
    .filter((x) => !x.declared)
    .map((x) => ({ principal: x.principal, project: x.project, level: x.level, detail: `${x.level} directly; not in the project's manifest` })); // prettier-ignore
  live.count = live.rows.length;
  // The two account findings (issue 37, item 7): 25 deactivated, 300 dormant readers.
  const byUser = (id: "deactivated-with-access" | "dormant-with-read", n: number, detail: string) => ({ id, title: id, severity: id === "deactivated-with-access" ? ("high" as const) : ("low" as const), count: n, rows: r.users.slice(0, n).map((u) => ({ principal: u.username, project: "project-001", level: "reporters", detail })) }); // prettier-ignore
  r.findings.unshift(byUser("deactivated-with-access", 25, "deactivated, still holds access to 3 projects: project-001 (reporters), project-002 (developers), project-003 (admins)")); // prettier-ignore
  r.findings.push(byUser("dormant-with-read", 300, "last login 2025-11-01 (212 days ago); read only, on 2 projects: project-001 (reporters), project-009 (member through user team reviewers)")); // prettier-ignore
  if (withSince)
    r.since = {
      previousGeneratedAt: "2026-05-01T06:00:00.000Z",
      granted: r.rows.slice(0, 400),
      revoked: r.rows.slice(400, 500),
      newFindings: [{ ...live, rows: live.rows.slice(0, 300), count: 300 }],
      resolvedFindings: [],
    };
  return r;
}

/** Delivery metrics of 500 projects, with the real band legend (src/report/bands.ts). */
function deliveryM(): DeliveryReport {
  const r = deliveryFixture({ projects: 500 });
  r.bands.table = bandTableRows();
  return r;
}

interface Shown {
  table: ReportTable;
  shown: number;
  cut: RegExpExecArray | null;
  text: string;
}

/** Each table's section of the markdown, in order, with the rows it shows and its cut line. */
function sections(r: Report, md: string): Shown[] {
  const parts = md.split(/\n(?=### )/).slice(1);
  const tables = reportTables(r);
  expect(parts).toHaveLength(tables.length);
  return tables.map((table, i) => {
    const text = parts[i];
    const lines = text.split("\n").filter((l) => l.startsWith("|"));
    const cut = /_([\d,]+) more rows? not shown \(([\d,]+) of ([\d,]+) here\): the HTML, CSV \(`([^`]+)`\) and JSON formats have them all\._/.exec(text); // prettier-ignore
    return { table, shown: Math.max(0, lines.length - 2), cut, text };
  });
}

const num = (s: string) => Number(s.replace(/,/g, ""));

/** The markdown within the limit, with at least one row of every table that has rows. */
function checkShares(r: Report) {
  const md = renderReportMarkdown(r);
  expect(md.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
  expect(md).not.toContain("Cut to fit");
  const shown = sections(r, md);
  for (const s of shown)
    if (s.table.rows.length > 0)
      expect(s.shown, `${s.table.name}: rows shown`).toBeGreaterThanOrEqual(1);
  return shown;
}

/** Each cut table says how many rows it left out, of how many, and where they all are. */
function checkCutNotes(shown: readonly Shown[]) {
  for (const s of shown) {
    const total = s.table.rows.length;
    if (s.shown === total) {
      expect(s.cut, s.table.name).toBeNull();
      continue;
    }
    expect(s.cut, `${s.table.name}: says what it left out`).not.toBeNull();
    const [, left, kept, all, file] = s.cut!;
    expect([num(left), num(kept), num(all), file]).toEqual([total - s.shown, s.shown, total, `${s.table.name}.csv`]); // prettier-ignore
  }
}

describe("markdown report at size M: every table has its own share", () => {
  it("access: rows from every table, live-only and users included, within 65,536", () => {
    const r = accessM(false);
    expect(r.rows.length).toBe(7000);
    const shown = checkShares(r);
    const of = (name: string) => shown.find((s) => s.table.name === name)!;
    expect(of("finding-live-only-access").table.rows.length).toBe(3600);
    expect(of("finding-live-only-access").shown).toBeGreaterThanOrEqual(10);
    expect(of("users").table.rows.length).toBe(2000);
    expect(of("users").shown).toBeGreaterThanOrEqual(10);
    expect(of("access").shown).toBeGreaterThanOrEqual(10);
    expect(of("projects").shown).toBeGreaterThanOrEqual(10);
    // A small table is whole.
    expect(of("findings").shown).toBe(r.findings.length);
    checkCutNotes(shown);
  });

  it("access with --since: the changes tables get their share too", () => {
    const shown = checkShares(accessM(true));
    expect(shown.find((s) => s.table.name === "changes")!.shown).toBeGreaterThanOrEqual(10);
    expect(shown.find((s) => s.table.name === "finding-changes")!.shown).toBeGreaterThanOrEqual(10); // prettier-ignore
    checkCutNotes(shown);
  });

  it("delivery: the band legend whole, rows from every other table", () => {
    const r = deliveryM();
    const shown = checkShares(r);
    const bands = shown.find((s) => s.table.name === "dora-bands")!;
    expect(bands.shown).toBe(r.bands.table.length);
    expect(bands.cut).toBeNull();
    for (const name of ["dora-projects", "ci-projects"])
      expect(shown.find((s) => s.table.name === name)!.shown, name).toBeGreaterThanOrEqual(50);
    checkCutNotes(shown);
  });

  it("the band legend stays whole even when everything else is squeezed", () => {
    const r = deliveryM();
    const md = renderReportMarkdown(r, 8_000);
    expect(md.length).toBeLessThanOrEqual(8_000);
    const bands = sections(r, md).find((s) => s.table.name === "dora-bands")!;
    expect(bands.shown).toBe(r.bands.table.length);
  });
});
