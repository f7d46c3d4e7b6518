/**
 * Small words of the comment (issue 36, item 8): with --base and --applied the sections'
 * counts add up to those to apply (they read "1+1+1 of the 2"); the footer's count of
 * objects planned says what it includes; the objects no manifest declares are named, not
 * only counted (a removed Team manifest showed as "2 … not managed").
 */
import { describe, expect, it } from "vitest";
import type { UnmanagedEntry } from "../../src/engine/plan.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import { renderText } from "../../src/render/text.js";
import { entry, plan } from "./markdown-plans.js";

describe("with --base and --applied, the sections add up", () => {
  // One update holds a field of this change and one merged earlier; another is drift.
  const both = entry("project/a", "update", {
    kind: "Project",
    changes: [
      { field: "description", before: "o", after: "n" },
      { field: "title", before: "T", after: "U" },
    ],
    unappliedFields: ["title"],
  });
  const drifted = entry("project/b/repo/r", "update", {
    changes: [{ field: "issueTracking", before: "disabled", after: "enabled" }],
  });

  it("each section after the first says how many a section above lists too", () => {
    const md = renderMarkdown(
      plan([both, drifted], { drift: [drifted.key], unapplied: [], applied: { known: true } }),
    );
    const counts = [...md.matchAll(/^#### .* — (\d+) of the (\d+) to apply(?: \((\d+) also [^)]*\))?$/gm)]; // prettier-ignore
    expect(counts.map((m) => m[0].replace(/^#### /, ""))).toEqual([
      "Changes in this pull request — 1 of the 2 to apply",
      "Merged but not applied (earlier merges whose apply did not carry them out; this apply will) — 1 of the 2 to apply (1 also changed in this pull request)",
      "Drift already present (apply will also revert it) — 1 of the 2 to apply",
    ]);
    const distinct = counts.reduce((a, m) => a + Number(m[1]) - Number(m[3] ?? 0), 0);
    expect(distinct).toBe(2);
  });

  it("drift over an entry merged earlier says it is listed above", () => {
    const three = entry("project/a", "update", {
      kind: "Project",
      changes: [
        { field: "description", before: "o", after: "n" },
        { field: "title", before: "T", after: "U" },
      ],
      unappliedFields: ["title"],
      driftFields: ["description"],
    });
    const md = renderMarkdown(
      plan([three], { drift: [], unapplied: [], applied: { known: true } }),
    );
    expect(md).toContain("#### Merged but not applied (earlier merges whose apply did not carry them out; this apply will) — 1 of the 1 to apply\n"); // prettier-ignore
    expect(md).toContain("#### Drift already present (apply will also revert it) — 1 of the 1 to apply (1 also listed above)"); // prettier-ignore
  });
});

describe("the footer's count of objects planned", () => {
  it("says that it holds what the change touches and what those need", () => {
    const p = plan([entry("project/a/repo/r", "create")], {
      drift: [],
      scope: ["organization/o", "project/a", "user/u"],
    });
    expect(renderMarkdown(p)).toContain(
      "scoped to 3 objects: what the change touches, and what those need",
    );
  });
});

describe("objects no manifest declares", () => {
  const unmanaged = (n: number): UnmanagedEntry[] =>
    Array.from({ length: n }, (_, i) => ({
      key: `team/t${String(i).padStart(2, "0")}`,
      kind: "Team",
      note: "no manifest declares it; never touched",
    }));

  it("are named in the comment and the text, the first few", () => {
    const two = plan([], { unmanaged: unmanaged(2) });
    expect(renderMarkdown(two)).toContain(
      "2 live objects are not managed by any manifest (never touched): `team/t00`, `team/t01`.",
    );
    expect(renderText(two)).toContain(
      "2 live objects are not managed by any manifest: team/t00, team/t01 (--verbose lists them).",
    );
    const many = plan([], { unmanaged: unmanaged(13) });
    expect(renderMarkdown(many)).toContain("`team/t09`, …and 3 more.");
    expect(renderText(many)).toContain("team/t04, …and 8 more (--verbose lists them).");
  });
});
