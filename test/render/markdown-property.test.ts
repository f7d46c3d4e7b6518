import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PlanEntry } from "../../src/engine/plan.js";
import { summarize } from "../../src/engine/plan.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import { destruction } from "../../src/render/style.js";
import {
  codeBlockLines,
  destructiveShown,
  detailsAccountFor,
  html,
  plan,
} from "./markdown-plans.js";

const chars = (s: string) => fc.constantFrom(...s.split(""));
const slug = fc.oneof(
  fc.string({ unit: chars("abz09_-.*|<>&"), minLength: 1, maxLength: 10 }),
  fc.constantFrom("big", "x_y_"),
);
const short = fc.string({ unit: chars("abz09_-.*|<>&` "), minLength: 1, maxLength: 14 });
const name = fc.oneof(
  { weight: 8, arbitrary: short.filter((s) => s.trim() === s) },
  { weight: 1, arbitrary: fc.constantFrom("<img src=x>", "a_b_", "x|y", "<script>", "``") },
  { weight: 1, arbitrary: fc.string({ unit: chars("ab_|"), minLength: 120, maxLength: 160 }) },
);
const key = fc.oneof(
  fc
    .tuple(slug, fc.constantFrom("repo", "access/developers/user", "mirror"), name)
    .map(([s, seg, n]) => `project/${s}/${seg}/${n}`),
  slug.map((s) => `project/${s}`),
  fc.tuple(fc.constantFrom("user", "team", "organization"), name).map(([k, n]) => `${k}/${n}`),
);
const value = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: chars("ab <>|_`"), minLength: 100, maxLength: 300 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
);
const fields = fc.dictionary(
  fc.string({ unit: chars("abcz_|"), minLength: 1, maxLength: 8 }),
  value,
  {
    minKeys: 1,
    maxKeys: 4,
  },
);
const source = fc.option(
  fc.record({
    file: fc.string({ unit: chars("ab_/.*|"), minLength: 1, maxLength: 30 }),
    line: fc.integer({ min: 1, max: 999 }),
  }),
);

const planEntry = fc
  .record({
    key,
    kind: fc.constantFrom("Repository", "ProjectAccess", "User", "Team", "Weird|Kind<x>"),
    action: fc.constantFrom("create", "update", "delete", "ticket", "blocked"),
    fields,
    archive: fc.boolean(),
    destructive: fc.boolean(),
    source,
    driftSome: fc.boolean(),
  })
  .map((r): PlanEntry => {
    const changes = Object.entries(r.fields).map(([field, after]) => ({
      field,
      before: "old",
      after,
    }));
    if (r.action === "update" && r.archive)
      changes.push({ field: "status", before: "active", after: "archived" });
    const changed = r.action === "update" || r.action === "ticket" || r.action === "blocked";
    return {
      key: r.key,
      kind: r.kind,
      action: r.action,
      before: r.action === "create" ? null : {},
      after: r.action === "delete" ? null : r.fields,
      changes: changed ? changes : [],
      reason: `because ${r.key}`,
      source: r.source,
      dependsOn: [],
      destructive: r.action === "delete" && r.destructive,
      ...(r.action === "ticket" ? { ticket: { subject: `Please ${r.key}`, body: "b" } } : {}),
      ...(r.action === "blocked"
        ? { blocked: { field: changes[0].field, reason: "fixed_field_" } }
        : {}),
      ...(r.driftSome && r.action === "update" ? { driftFields: [changes[0].field] } : {}),
    };
  });

/** Mostly budgets that bind (the plans are at most a few ten thousand characters). */
const budget = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 4_000, max: 15_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 15_000, max: 70_000 }) },
);

const plans = fc
  .record({
    entries: fc.uniqueArray(planEntry, {
      maxLength: 300,
      size: "max",
      selector: (e) => `${e.action} ${e.key}`,
    }),
    base: fc.boolean(),
    driftPick: fc.array(fc.boolean(), { minLength: 300, maxLength: 300 }),
    warnings: fc.array(fc.record({ message: fc.string({ maxLength: 80 }) }), { maxLength: 3 }),
  })
  .map(({ entries, base, driftPick, warnings }) =>
    plan(entries, {
      summary: summarize(entries, 0),
      warnings,
      ...(base ? { drift: entries.filter((_, i) => driftPick[i]).map((e) => e.key) } : {}),
    }),
  );

describe("markdown comment, any plan, any budget", () => {
  it("fits, names every destructive entry, accounts for every entry, keeps code lines short", () => {
    fc.assert(
      fc.property(plans, budget, (p, max) => {
        const md = renderMarkdown(p, {
          maxChars: max,
          marker: "<!-- phctl:default -->",
          artifactHint: "the plan artifact",
          footer: { baseCommit: "0123456789", headCommit: "abcdef0123", runUrl: "https://ci/x" },
        });
        expect(md.length).toBeLessThanOrEqual(max);
        expect(md.split("\n")[2]).toMatch(/^### phctl plan: /);
        // The verdict's parts add up to its total; the summary's total row says the same.
        const n = (s: string | undefined) => Number((s ?? "0").replace(/,/g, ""));
        const v = / (\d[\d,]*) changes? — ([\d,]+) to apply.*?, ([\d,]+) tickets?, ([\d,]+) blocked/.exec(md.split("\n")[2]); // prettier-ignore
        if (p.entries.length > 0) {
          expect(n(v?.[2]) + n(v?.[3]) + n(v?.[4])).toBe(p.entries.length);
          expect(n(v?.[1])).toBe(p.entries.length);
          expect(md).toMatch(new RegExp(`^\\| \\*\\*total\\*\\* \\|.*\\| \\*\\*${p.entries.length.toLocaleString("en-US")}\\*\\* \\|$`, "m")); // prettier-ignore
        }

        const destructive = p.entries.filter((e) => destruction(e) !== undefined);
        const shown = destructiveShown(md);
        expect(shown.total).toBe(destructive.length);
        if (!shown.countedOnly)
          expect(new Set(shown.keys)).toEqual(new Set(destructive.map((e) => e.key)));
        else expect(md).toContain("every key is in the plan artifact");

        expect(detailsAccountFor(md)).toBe(p.entries.length);
        for (const line of codeBlockLines(md)) expect(line.length).toBeLessThanOrEqual(110);

        const out = html(md);
        expect(out).not.toMatch(/<em>|<img|<script/);
        // Bold only from phctl: the actions, and the total row of the summary table.
        for (const m of out.matchAll(/<strong>(.*?)<\/strong>/g))
          expect(m[1]).toMatch(/^(create|update|delete|total|[\d,]+)$/);
        expect(out.match(/<details>/g)?.length ?? 0).toBe(out.match(/<\/details>/g)?.length ?? 0);
        const tickets = p.entries.filter((e) => e.action === "ticket").length;
        if (tickets > 0)
          expect(md).toContain(`#### Support tickets — ${tickets.toLocaleString("en-US")}`);
        const cud = p.entries.filter((e) => e.action !== "ticket" && e.action !== "blocked");
        if (p.drift !== undefined && cud.length > 0) {
          expect(md).toContain("#### Changes in this pull request — ");
          expect(md).toContain("#### Drift already present (apply will also revert it) — ");
        }
      }),
      // Shrinking big plans is slow: a failure is reported with what shrinking reached.
      { numRuns: 120, interruptAfterTimeLimit: 60_000 },
    );
  });
});
