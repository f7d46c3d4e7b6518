/** The report's markdown fits GitHub's 65,536 characters, cut between whole rows. */
import { describe, expect, it } from "vitest";
import { MARKDOWN_LIMIT, renderReportMarkdown } from "../../src/render/report-markdown.js";
import type { AccessReport } from "../../src/report/types.js";

function big(rows: number): AccessReport {
  return {
    formatVersion: 1,
    kind: "access",
    generatedAt: "2025-06-01T00:00:00.000Z",
    phctlVersion: "0.1.0",
    apiUrl: "embedded",
    parentOrganization: "acme",
    sections: [{ name: "access", title: "Access", status: "ok" }],
    partial: false,
    stats: { objectsRead: 0, apiCalls: 0, durationMs: 0 },
    inactiveDays: 90,
    serviceAccountPatterns: [],
    rows: Array.from({ length: rows }, (_, i) => ({
      principal: `user-${i}`,
      principalKind: "user" as const,
      organization: "acme",
      project: `project-${i % 50}`,
      projectOrganization: "acme",
      level: "developers",
      grade: "write" as const,
      via: { kind: "direct" as const },
      declared: false,
      lastLogin: null,
    })),
    users: [],
    projects: [],
    findings: [],
  };
}

describe("report markdown", () => {
  it("keeps a small report whole", () => {
    const md = renderReportMarkdown(big(3));
    expect(md).toContain("| user-2 |");
    expect(md).not.toContain("not shown");
  });
  it("cuts a large one between whole rows and says how many rows were left out", () => {
    const md = renderReportMarkdown(big(5000));
    expect(md.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    const m = /_([\d,]+) more rows not shown/.exec(md);
    expect(m).not.toBeNull();
    const shown = md.split("\n").filter((l) => /^\| user-\d+ \|/.test(l)).length;
    expect(shown + Number(m![1].replace(/,/g, ""))).toBe(5000);
    for (const l of md.split("\n").filter((x) => x.startsWith("| user-")))
      expect(l.endsWith("|")).toBe(true);
  });
});

describe("report markdown: what changed since the previous review", () => {
  it("lists new and resolved finding rows, each with its change and finding", () => {
    const r = big(1);
    const finding = (id: "never-logged-in" | "service-account-admin", principal: string) => ({
      id,
      title: id === "never-logged-in" ? "Never logged in" : "Service accounts with admin",
      count: 1,
      rows: [{ principal, detail: `${principal} detail` }],
    });
    r.since = {
      previousGeneratedAt: "2025-05-01T00:00:00.000Z",
      granted: [],
      revoked: [],
      newFindings: [finding("never-logged-in", "nina")],
      resolvedFindings: [finding("service-account-admin", "deploy-bot")],
    };
    const md = renderReportMarkdown(r);
    expect(md).toContain("Findings since the previous review");
    expect(md).toMatch(/\| new \| Never logged in \| nina \|[^\n]*\| nina detail \|/);
    expect(md).toMatch(
      /\| resolved \| Service accounts with admin \| deploy-bot \|[^\n]*\| deploy-bot detail \|/,
    );
    expect(md.indexOf("| new |")).toBeLessThan(md.indexOf("| resolved |"));
  });
});
