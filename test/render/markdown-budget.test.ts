import { describe, expect, it } from "vitest";
import type { PlanEntry } from "../../src/engine/plan.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import { destructiveShown, detailsAccountFor, entry, html, plan } from "./markdown-plans.js";

const HINT = "the `phctl-plan` artifact";

function ticket(key: string): PlanEntry {
  return entry(key, "ticket", {
    kind: "Project",
    changes: [{ field: "visibility", before: "private", after: "public" }],
    ticket: { subject: `Change the visibility of ${key}`, body: "Please." },
    destructive: false,
  });
}

/** 600 repository deletions in 3 projects, 40 creates, 5 tickets. */
function sixHundredDeletes(): PlanEntry[] {
  const out: PlanEntry[] = [];
  for (let i = 0; i < 600; i++)
    out.push(entry(`project/p${i % 3}/repo/old-repository-${i}`, "delete"));
  for (let i = 0; i < 40; i++) out.push(entry(`project/p${i % 3}/repo/new-${i}`, "create"));
  for (let i = 0; i < 5; i++) out.push(ticket(`project/t${i}`));
  return out;
}

/** 5,000 entries in 500 projects: creates, updates, 200 deletions in 4 projects, tickets. */
function fiveThousand(): PlanEntry[] {
  const out: PlanEntry[] = [];
  for (let i = 0; i < 200; i++) out.push(entry(`project/big${i % 4}/repo/gone-${i}`, "delete"));
  for (let i = 0; i < 4700; i++) {
    const key = `project/p${i % 500}/repo/r${i}`;
    out.push(
      i % 3 === 0
        ? entry(key, "update", {
            changes: [{ field: "description", before: "old", after: `new description ${i}` }],
          })
        : entry(key, "create", { after: { name: `r${i}`, description: "x".repeat(60) } }),
    );
  }
  for (let i = 0; i < 100; i++) out.push(ticket(`project/p${i}`));
  return out;
}

describe("markdown comment within the platform's limit", () => {
  it("a 600-delete plan fits 65,536 with every deletion named and the tickets section", () => {
    const entries = sixHundredDeletes();
    const md = renderMarkdown(plan(entries), { artifactHint: HINT });
    expect(md.length).toBeLessThanOrEqual(65_536);
    const shown = destructiveShown(md);
    expect(shown.countedOnly).toBe(false);
    expect(new Set(shown.keys)).toEqual(
      new Set(entries.filter((e) => e.action === "delete").map((e) => e.key)),
    );
    expect(md).toContain("#### Support tickets — 5");
    for (let i = 0; i < 5; i++) expect(md).toContain(`\`project/t${i}\``);
    expect(md.split("\n")[0]).toContain(
      "645 changes — 640 to apply (600 destructive), 5 tickets, 0 blocked",
    );
    expect(detailsAccountFor(md)).toBe(entries.length);
  });

  const forms: [number, RegExp][] = [
    [65_536, /^- `project\/big0\/repo\/gone-0` — Repository deleted · `projects\/p\.yaml:1`$/m],
    [
      10_000,
      /^- project `big0`: 50 repositories deleted under `project\/big0\/repo\/` — `gone-0`, `gone-4`/m,
    ],
  ];
  for (const [max, form] of forms) {
    it(`a 5,000-entry plan within ${max.toLocaleString("en-US")}: verdict, every deletion, counts of the rest`, () => {
      const entries = fiveThousand();
      const md = renderMarkdown(plan(entries), {
        maxChars: max,
        artifactHint: HINT,
        marker: "<!-- phctl:default -->",
      });
      expect(md.length).toBeLessThanOrEqual(max);
      expect(md.split("\n")[2]).toMatch(
        /^### phctl plan: 5,000 changes — 4,900 to apply \(200 destructive\), 100 tickets, 0 blocked/,
      );
      const shown = destructiveShown(md);
      expect(shown.countedOnly).toBe(false);
      expect(shown.keys.length).toBe(200);
      expect(md).toMatch(form);
      expect(md).toMatch(/#### Support tickets — 100/);
      expect(detailsAccountFor(md)).toBe(entries.length);
      expect(md).toContain(`(see ${HINT})`);
      const out = html(md);
      expect(out.match(/<details>/g)?.length ?? 0).toBe(out.match(/<\/details>/g)?.length ?? 0);
    });
  }

  it("the same plan on GitLab (1,000,000) shows every detail, uncut", () => {
    const entries = fiveThousand();
    const md = renderMarkdown(plan(entries), { maxChars: 1_000_000 });
    expect(md.length).toBeLessThanOrEqual(1_000_000);
    expect(md).not.toContain("Not shown here");
    expect(md).not.toContain("(part shown)");
    expect(detailsAccountFor(md)).toBe(entries.length);
  });

  it("one project too big for the budget is shown in part and names what was left out", () => {
    const entries = Array.from({ length: 2_000 }, (_, i) =>
      entry(`project/one/repo/r${i}`, "create"),
    );
    const md = renderMarkdown(plan(entries), { artifactHint: HINT });
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(md).toContain(
      "<summary>project <code>one</code> — 2,000 changes: 2,000 to create (part shown)</summary>",
    );
    expect(md).toMatch(/^…and [\d,]+ more: `project\/one\/repo\/r\d+`, /m);
    expect(detailsAccountFor(md)).toBe(2_000);
  });

  it("groups that do not fit are listed by counts, then counted", () => {
    const entries = Array.from({ length: 2_000 }, (_, i) =>
      entry(`project/p${String(i).padStart(4, "0")}/repo/r`, "create"),
    );
    const md = renderMarkdown(plan(entries), { maxChars: 10_000, artifactHint: HINT });
    expect(md.length).toBeLessThanOrEqual(10_000);
    expect(md).toContain(`Not shown here for length (every entry is in ${HINT}):`);
    expect(md).toMatch(/^- project `p\d{4}` — 1 change: 1 to create$/m);
    expect(md).toMatch(/^- …and [\d,]+ more groups \([\d,]+ entries\): project `p\d{4}`/m);
    expect(detailsAccountFor(md)).toBe(2_000);
  });

  it("pathological: thousands of deletions in thousands of projects are counted, never dropped", () => {
    const entries = Array.from({ length: 3_000 }, (_, i) =>
      entry(`project/p${i % 1_500}/repo/r${i}`, "delete"),
    );
    const md = renderMarkdown(plan(entries), { maxChars: 4_000, artifactHint: HINT });
    expect(md.length).toBeLessThanOrEqual(4_000);
    const shown = destructiveShown(md);
    expect(shown.countedOnly).toBe(true);
    expect(shown.total).toBe(3_000);
    expect(md).toContain(`Too many to list here; every key is in ${HINT}.`);
    expect(md).toContain("- 3,000 repositories deleted");
  });

  it("marker, outcome and footer count against the limit", () => {
    const entries = fiveThousand();
    const md = renderMarkdown(plan(entries), {
      maxChars: 6_000,
      marker: `<!-- phctl:${"k".repeat(200)} -->`,
      outcome: `Applied: ${"x".repeat(300)}`,
      footer: {
        baseCommit: "a".repeat(40),
        headCommit: "b".repeat(40),
        runUrl: `https://ci/${"r".repeat(300)}`,
      },
    });
    expect(md.length).toBeLessThanOrEqual(6_000);
    expect(md).toContain(`Applied: ${"x".repeat(300)}`);
    expect(md.trimEnd().split("\n").at(-1)).toMatch(/^base aaaaaaa · head bbbbbbb · /);
  });
});
