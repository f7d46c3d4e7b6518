/**
 * The structured comparison behind `apply --reviewed` and the per-field base split behind
 * `plan --base`: pure functions, checked on examples and with fast-check.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fieldsByOrigin, splitByBase } from "../../src/engine/base-split.js";
import type { PlanEntry } from "../../src/engine/plan.js";
import { changesDigest, compareReviewed } from "../../src/engine/reviewed.js";
import { samplePlan } from "../fixtures/sample-plan.js";

function update(key: string, fields: Record<string, [unknown, unknown]>): PlanEntry {
  return {
    key,
    kind: "Project",
    action: "update",
    before: Object.fromEntries(Object.entries(fields).map(([f, [b]]) => [f, b])),
    after: Object.fromEntries(Object.entries(fields).map(([f, [, a]]) => [f, a])),
    changes: Object.entries(fields).map(([field, [before, after]]) => ({ field, before, after })),
    reason: "",
    source: null,
    dependsOn: [],
    destructive: false,
  };
}

const entryArb: fc.Arbitrary<PlanEntry> = fc
  .record({
    key: fc.stringMatching(/^project\/[a-z_]{1,6}(\/repo\/[a-z]{1,4})?$/),
    fields: fc.dictionary(
      fc.constantFrom("title", "description", "archived", "enableCi"),
      fc.tuple(fc.jsonValue(), fc.jsonValue()),
      { minKeys: 1 },
    ),
  })
  .map(({ key, fields }) => update(key, fields));
const plansArb = fc.uniqueArray(entryArb, { selector: (e) => e.key, maxLength: 12 });

describe("compareReviewed", () => {
  it("finds nothing between a plan and itself, and the digest ignores order and live values outside the changes", () => {
    fc.assert(
      fc.property(plansArb, (entries) => {
        expect(compareReviewed(entries, entries)).toEqual({ differences: [], inPlace: [] });
        const reordered = [...entries].reverse().map((e) => ({ ...e, before: null }));
        expect(changesDigest(reordered)).toBe(changesDigest(entries));
      }),
    );
  });

  it("property: a plan read back from its saved file equals a re-plan of the same state (undefined fields, key order)", () => {
    // What defaults leave undefined in memory is absent from the saved JSON: the same plan.
    const valueArb = fc.oneof(fc.jsonValue(), fc.constant(undefined));
    const createArb = fc
      .record({
        key: fc.stringMatching(/^user\/[a-z]{1,6}(\/service\/git)?$/),
        after: fc.dictionary(fc.constantFrom("displayName", "status", "limit", "role"), valueArb),
      })
      .map(({ key, after }): PlanEntry => ({
        key,
        kind: "User",
        action: "create",
        before: null,
        after,
        changes: [],
        reason: "",
        source: null,
        dependsOn: [],
        destructive: false,
      }));
    const mixedArb = fc.uniqueArray(fc.oneof(createArb, entryArb), {
      selector: (e) => e.key,
      maxLength: 12,
    });
    fc.assert(
      fc.property(mixedArb, (fresh) => {
        const saved = JSON.parse(JSON.stringify(fresh)) as PlanEntry[];
        const reordered = saved.map((e) => ({
          ...e,
          after: e.after && Object.fromEntries(Object.entries(e.after).reverse()),
        }));
        expect(compareReviewed(reordered, fresh)).toEqual({ differences: [], inPlace: [] });
        expect(changesDigest(reordered)).toBe(changesDigest(fresh));
      }),
    );
  });

  it("refuses an update whose changed field moved live since the review, naming both values", () => {
    const reviewed = [update("project/p", { visibility: ["enabled", "private"] })];
    const now = [update("project/p", { visibility: ["disabled", "private"] })];
    const r = compareReviewed(reviewed, now);
    expect(r.differences).toEqual([
      'update project/p: visibility was "enabled" live at review ("enabled" → "private" was reviewed), now "disabled"',
    ]);
    expect(changesDigest(now)).not.toBe(changesDigest(reviewed));
  });

  it("accepts a fresh plan that does part of the reviewed one, and reports the rest in place", () => {
    fc.assert(
      fc.property(plansArb, fc.nat(), (entries, cut) => {
        const fresh = entries.slice(0, entries.length === 0 ? 0 : cut % entries.length);
        const r = compareReviewed(entries, fresh);
        expect(r.differences).toEqual([]);
        expect(r.inPlace).toHaveLength(entries.length - fresh.length);
      }),
    );
  });

  it("refuses any change that was not reviewed, or another value, naming key and field", () => {
    fc.assert(
      fc.property(plansArb, entryArb, (entries, extra) => {
        fc.pre(!entries.some((e) => e.key === extra.key));
        const r = compareReviewed(entries, [...entries, extra]);
        expect(r.differences).toEqual([`update ${extra.key}: not in the reviewed plan`]);
      }),
    );
    const reviewed = [update("project/a", { title: ["x", "y"] })];
    const other = [update("project/a", { title: ["x", "z"], description: [null, "d"] })];
    expect(compareReviewed(reviewed, other).differences).toEqual([
      'update project/a: title reviewed "y", apply would now set "z" (live "x"); description not reviewed (live null, apply would set "d")',
    ]);
    expect(compareReviewed(reviewed, other, new Set(["project/a"])).differences).toHaveLength(1);
  });

  it("lets side effects an earlier apply owes through", () => {
    const mail = { ...samplePlan().entries[0], key: "user/a/welcome", kind: "WelcomeMail" };
    expect(compareReviewed([], [mail], new Set(["user/a/welcome"])).differences).toEqual([]);
    expect(compareReviewed([], [mail]).differences).toHaveLength(1);
  });
});

describe("splitByBase", () => {
  it("splits per field: drift the base plans the same way, the rest is this change", () => {
    const plan = samplePlan();
    const head = {
      ...plan,
      entries: [
        update("project/a", { title: ["x", "y"], description: ["d", "e"] }),
        update("project/b", { title: ["x", "y"] }),
        update("project/c", { title: ["x", "y"] }),
      ],
    };
    const base = {
      entries: [
        update("project/a", { title: ["x", "y"] }),
        update("project/b", { title: ["x", "y"] }),
        update("project/c", { title: ["x", "other"] }),
      ],
    };
    const split = splitByBase(head, base);
    expect(split.drift).toEqual(["project/b"]);
    expect(split.entries[0].driftFields).toEqual(["title"]);
    expect(split.entries[1].driftFields).toBeUndefined();
    expect(split.entries[2].driftFields).toBeUndefined();
  });

  it("never loses or alters an entry's change, and marks a plan split against itself all drift", () => {
    fc.assert(
      fc.property(plansArb, plansArb, (head, base) => {
        const plan = { ...samplePlan(), entries: head };
        const split = splitByBase(plan, { entries: base });
        expect(changesDigest(split.entries)).toBe(changesDigest(head));
        for (const e of split.entries)
          for (const f of e.driftFields ?? []) expect(e.changes.map((c) => c.field)).toContain(f);
        expect(splitByBase(plan, plan).drift).toEqual(head.map((e) => e.key).sort());
      }),
    );
  });

  it("with the applied config: what the base plans and it does not is merged but not applied, per field", () => {
    const head = {
      ...samplePlan(),
      entries: [
        update("project/a", { title: ["x", "y"], description: ["d", "e"], archived: [1, 2] }),
        update("project/b", { title: ["x", "y"] }),
        update("project/c", { title: ["x", "y"] }),
        update("project/d", { title: ["x", "y"], description: ["d", "e"] }),
      ],
    };
    // The base plans a's title and description, b, c and d whole; the applied config plans
    // a's description and c (live moved away from it) and d's title only.
    const base = {
      entries: [
        update("project/a", { title: ["x", "y"], description: ["d", "e"] }),
        update("project/b", { title: ["x", "y"] }),
        update("project/c", { title: ["x", "y"] }),
        update("project/d", { title: ["x", "y"], description: ["d", "e"] }),
      ],
    };
    const applied = {
      entries: [
        update("project/a", { description: ["d", "e"] }),
        update("project/c", { title: ["x", "y"] }),
        update("project/d", { title: ["x", "y"], description: ["d", "other"] }),
      ],
    };
    const split = splitByBase(head, base, applied);
    expect(split.drift).toEqual(["project/c"]);
    expect(split.unapplied).toEqual(["project/b", "project/d"]);
    expect(fieldsByOrigin(split, split.entries[0])).toEqual({
      change: ["archived"],
      unapplied: ["title"],
      drift: ["description"],
    });
    expect(fieldsByOrigin(split, split.entries[3])).toEqual({
      change: [],
      unapplied: ["description"],
      drift: ["title"],
    });
    // Applied = base: nothing is merged but not applied, the split is the two-way one.
    const same = splitByBase(head, base, base);
    expect(same.unapplied).toEqual([]);
    expect(same.drift).toEqual(splitByBase(head, base).drift);
  });

  it("property: with an applied config, every field has one origin, and those are the base split's", () => {
    fc.assert(
      fc.property(plansArb, plansArb, plansArb, (head, base, applied) => {
        const plan = { ...samplePlan(), entries: head };
        const two = splitByBase(plan, { entries: base });
        const three = splitByBase(plan, { entries: base }, { entries: applied });
        expect(changesDigest(three.entries)).toBe(changesDigest(head));
        for (const [i, e] of three.entries.entries()) {
          const by = fieldsByOrigin(three, e);
          const was = fieldsByOrigin(two, two.entries[i]);
          expect([...by.change, ...by.unapplied, ...by.drift].sort()).toEqual(
            e.changes.map((c) => c.field).sort(),
          );
          expect(by.change).toEqual(was.change);
          expect([...by.unapplied, ...by.drift].sort()).toEqual([...was.drift].sort());
        }
      }),
    );
  });
});
