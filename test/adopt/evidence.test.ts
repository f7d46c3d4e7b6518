/**
 * What adoption may take as live's doing (src/adopt/evidence.ts), one case per rule: an
 * object absent live is removed only with proof it existed (the journal, the applied
 * config); with the applied config, a field or list entry is adopted only as drift.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sortByEvidence } from "../../src/adopt/evidence.js";
import type { Action, FieldChange, Plan, PlanEntry } from "../../src/engine/plan.js";

function entry(
  action: Action,
  key: string,
  changes: [string, unknown, unknown][] = [],
  live: Record<string, unknown> | null = action === "create" ? null : {},
): PlanEntry {
  const fc: FieldChange[] = changes.map(([field, before, after]) => ({ field, before, after }));
  return {
    key,
    kind: "Fake",
    action,
    before: live,
    after: action === "delete" ? null : Object.fromEntries(changes.map(([f, , a]) => [f, a])),
    changes: fc,
    reason: "",
    source: null,
    dependsOn: [],
    destructive: action === "delete",
  };
}

const plan = (entries: PlanEntry[]) => ({ entries, unmanaged: [] }) as unknown as Plan;
const keys = (p: Plan) => p.entries.map((e) => `${e.action} ${e.key}`);

describe("sortByEvidence", () => {
  const gone = entry("create", "user/gone");
  const fresh = entry("create", "user/fresh");
  const title = entry("update", "project/p", [
    ["title", "Live", "Merged"],
    ["description", "Live", "Old"],
  ]);
  const extra = entry("delete", "project/p/access/admins/user/x");

  it("without evidence: no object absent live is adopted, everything else is", () => {
    const s = sortByEvidence(plan([gone, title, extra]));
    expect(keys(s.plan)).toEqual(["update project/p", "delete project/p/access/admins/user/x"]);
    expect(s.held.map((h) => h.key)).toEqual(["user/gone"]);
    expect(s.held[0].why).toMatch(/^declared and absent live, and nothing shows it ever existed/);
  });

  it("the journal's create or update of a key proves it existed; a ticket does not", () => {
    const s = sortByEvidence(plan([gone, fresh]), {
      journalDone: ["create user/gone", "ticket user/fresh", "delete user/fresh"],
    });
    expect(keys(s.plan)).toEqual(["create user/gone"]);
    expect(s.held.map((h) => h.key)).toEqual(["user/fresh"]);
  });

  it("the applied config's create proves it; a change it does not plan is held, per field", () => {
    const applied = plan([
      entry("create", "user/gone"),
      entry("update", "project/p", [["description", "Live", "Old"]]),
    ]);
    const s = sortByEvidence(plan([gone, fresh, title, extra]), {
      applied,
      hint: "pass --applied DIR",
    });
    expect(keys(s.plan)).toEqual(["create user/gone", "update project/p"]);
    expect(s.plan.entries[1].changes.map((c) => c.field)).toEqual(["description"]);
    expect(s.plan.entries[1].driftFields).toBeUndefined();
    expect(s.held).toEqual([
      {
        key: "user/fresh",
        kind: "Fake",
        why: expect.stringMatching(/not applied yet.*; pass --applied DIR$/) as string,
      },
      {
        key: "project/p",
        kind: "Fake",
        why: "title merged since the last applied commit and not applied yet (not drift): its apply carries it out",
      },
      {
        key: "project/p/access/admins/user/x",
        kind: "Fake",
        why: "merged since the last applied commit and not applied yet (not drift): its apply carries it out",
      },
    ]);
  });

  it("a list entry live added that the applied config would remove too is drift", () => {
    const s = sortByEvidence(plan([extra]), { applied: plan([extra]) });
    expect(keys(s.plan)).toEqual(["delete project/p/access/admins/user/x"]);
    expect(s.held).toEqual([]);
  });

  it("property: an entry is adopted or held, never both whole, never lost; nothing absent live is adopted unproven", () => {
    const arbEntry = fc
      .record({
        action: fc.constantFrom<Action>("create", "update", "delete", "ticket"),
        name: fc.constantFrom("a", "b", "c", "d", "e"),
        fields: fc.uniqueArray(fc.constantFrom("x", "y", "z"), { maxLength: 3 }),
      })
      .map(({ action, name, fields }) =>
        entry(
          action,
          `user/${name}`,
          action === "update" ? fields.map((f) => [f, 1, 2] as [string, unknown, unknown]) : [],
          action === "create" || action === "ticket" ? null : {},
        ),
      );
    const uniq = (es: PlanEntry[]) => [...new Map(es.map((e) => [e.key, e])).values()];
    fc.assert(
      fc.property(
        fc.array(arbEntry).map(uniq),
        fc.array(arbEntry).map(uniq),
        fc.array(fc.constantFrom("create user/a", "update user/b", "create user/c")),
        (head, was, done) => {
          const s = sortByEvidence(plan(head), { applied: plan(was), journalDone: done });
          const held = new Set(s.held.map((h) => h.key));
          for (const e of head) {
            const kept = s.plan.entries.find((k) => k.key === e.key);
            expect(kept !== undefined || held.has(e.key)).toBe(true);
            if (e.before === null && kept) {
              const proven =
                done.some((d) => d.endsWith(` ${e.key}`)) ||
                was.some((w) => w.key === e.key && w.action === "create");
              expect(proven).toBe(true);
            }
            if (kept) expect(kept.changes.every((c) => e.changes.includes(c))).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
