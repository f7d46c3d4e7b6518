/**
 * Which access-review rows become manifest edits (src/propose/edits.ts), on the report
 * fixture: every declared direct write or admin grant of an inactive user is removed, a
 * direct live-only grant on a declared project is declared, and what an edit of a project's
 * manifest cannot settle is listed once, with why.
 */
import { describe, expect, it } from "vitest";
import { accessEdits } from "../../src/propose/edits.js";
import type { AccessRow } from "../../src/report/types.js";
import { accessFixture } from "../helpers/report-fixture.js";

describe("accessEdits", () => {
  it("removes an inactive user's declared direct write; their write granted live only is said once, not proposed", () => {
    const report = accessFixture();
    const inactive = report.findings.find((f) => f.id === "inactive-with-write")!.rows[0].principal!; // prettier-ignore
    const template = report.rows[0];
    const row = (o: Partial<AccessRow>): AccessRow => ({ ...template, project: "extra", via: { kind: "direct" }, ...o }); // prettier-ignore
    report.projects.push({ ...report.projects[0], project: "extra", declared: true });
    report.rows.push(
      row({ principal: inactive, level: "admins", grade: "admin", declared: true }),
      row({ principal: inactive, level: "developers", grade: "write", declared: false }),
      row({ principal: inactive, level: "maintainers", grade: "write", declared: true, via: { kind: "userTeam", team: "ops" } }), // prettier-ignore
      row({ principal: "newcomer", level: "reporters", grade: "read", declared: false }),
    );
    const { edits, notProposed } = accessEdits(report);
    expect(edits.filter((e) => e.project === "extra")).toEqual([
      expect.objectContaining({ action: "remove", level: "admins", username: inactive, finding: "inactive-with-write" }), // prettier-ignore
      expect.objectContaining({ action: "declare", level: "reporters", username: "newcomer", finding: "live-only-access" }), // prettier-ignore
    ]);
    expect(notProposed.filter((n) => n.project === "extra")).toEqual([
      { finding: "inactive-with-write", principal: inactive, project: "extra", why: "granted live only: the next apply removes it" }, // prettier-ignore
      { finding: "inactive-with-write", principal: inactive, project: "extra", why: "held through user team ops: change the team" }, // prettier-ignore
    ]);
  });

  it("a live grant whose expires has passed is not declared again: its entry is the expired edit's to delete", () => {
    const report = accessFixture();
    const today = report.generatedAt.slice(0, 10);
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10); // prettier-ignore
    report.projects.push({ ...report.projects[0], project: "extra", declared: true });
    const row = { ...report.rows[0], project: "extra", via: { kind: "direct" as const }, level: "reporters", grade: "read" as const, declared: false }; // prettier-ignore
    report.rows.push(
      { ...row, principal: "ended", expires: yesterday },
      { ...row, principal: "lasts", expires: today },
    );
    const { edits } = accessEdits(report);
    expect(edits.filter((e) => e.project === "extra").map((e) => [e.action, e.username])).toEqual([
      ["declare", "lasts"],
    ]);
  });
});
