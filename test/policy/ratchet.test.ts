/**
 * The ratchet's decision (issue 35, item 14): a violation of a `ratchet` rule is existing
 * (debt), worsened or new against the state the change starts from — the live object for a
 * full plan (its plan entries undone), the base config for `plan --base` — and only new and
 * worsened ones block. Pure: documents loaded from inline manifests, plan entries by hand.
 */
import { describe, expect, it } from "vitest";
import type { PlanEntry, PolicyViolation } from "../../src/engine/plan.js";
import { policyCounts } from "../../src/engine/plan.js";
import { liveDocuments } from "../../src/adopt/live-documents.js";
import { judgeRatchet } from "../../src/engine/policy-ratchet.js";
import { planViolation } from "../../src/engine/policy-check.js";
import { loadManifestTexts } from "../../src/pipeline/load.js";
import { blocks, RatchetBaseline, summarizeViolations } from "../../src/policy/index.js";
import type { LoadResult } from "../../src/pipeline/types.js";

const NOW = new Date("2026-11-28T00:00:00Z");

const POLICY = (enforcement: string) => `apiVersion: phctl/v1
kind: Policy
metadata: { name: titles }
spec:
  select: { kind: Project }
  enforcement: ${enforcement}
  rules:
    - name: prefixed
      expression: 'object.spec.title.startsWith("Project ")'
      messageExpression: '"title " + object.spec.title'
`;

const project = (name: string, title: string, extra = "") => `---
apiVersion: phctl/v1
kind: Project
metadata: { name: ${name} }
spec:
  title: ${title}
  licenses: [MIT]
  access: { admins: [jdoe] }
${extra}`;

const USER = `---
apiVersion: phctl/v1
kind: User
metadata: { name: jdoe }
spec: { firstName: J, lastName: Doe, externalEmail: j@example.org }
`;

function load(manifests: string, enforcement = "ratchet"): LoadResult {
  const r = loadManifestTexts(
    [
      { file: "phctl.yaml", content: "organization: acme\n", config: true },
      { file: "m.yaml", content: `${POLICY(enforcement)}${USER}${manifests}` },
    ],
    { now: NOW },
  );
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return r;
}

const violations = (r: LoadResult): PolicyViolation[] =>
  (r.violations ?? []).map((v) => planViolation(v));

const entry = (e: Partial<PlanEntry> & Pick<PlanEntry, "key" | "kind" | "action">): PlanEntry => ({
  before: null,
  after: null,
  changes: [],
  reason: "",
  source: null,
  dependsOn: [],
  destructive: false,
  ...e,
});

const statuses = (vs: readonly PolicyViolation[]) =>
  Object.fromEntries(vs.map((v) => [v.key, v.ratchet ?? "-"]));

describe("RatchetBaseline: new, worsened, existing", () => {
  const base = new RatchetBaseline([
    { policy: "p", rule: "r", key: "project/a", message: "title A" },
  ]);
  it("the same policy, rule, key and message: existing", () => {
    expect(base.judge({ policy: "p", rule: "r", key: "project/a", message: "title A" })).toEqual({
      status: "existing",
    });
  });
  it("the object broke the rule with another message: worsened, with what it said", () => {
    expect(base.judge({ policy: "p", rule: "r", key: "project/a", message: "title B" })).toEqual({
      status: "worsened",
      was: "title A",
    });
  });
  it("another object, or another rule of the same object: new", () => {
    expect(
      base.judge({ policy: "p", rule: "r", key: "project/b", message: "title A" }).status,
    ).toBe("new");
    expect(
      base.judge({ policy: "p", rule: "s", key: "project/a", message: "title A" }).status,
    ).toBe("new");
  });
  it("only new, worsened and unjudged ratchet violations block; debt and excepted ones never", () => {
    expect(blocks({ enforcement: "ratchet", ratchet: "new" })).toBe(true);
    expect(blocks({ enforcement: "ratchet", ratchet: "worsened" })).toBe(true);
    expect(blocks({ enforcement: "ratchet" })).toBe(true);
    expect(blocks({ enforcement: "ratchet", ratchet: "existing" })).toBe(false);
    expect(blocks({ enforcement: "ratchet", ratchet: "new", exception: {} })).toBe(false);
    expect(blocks({ enforcement: "warn" })).toBe(false);
    expect(blocks({ enforcement: "deny" })).toBe(true);
  });
});

describe("judgeRatchet over a full plan: against the live object", () => {
  const head = load(
    `${project("a", "A")}${project("b", "B")}${project("c", "C")}${project("d", "D")}`,
  );
  const docs = head.layers!.docs;
  const input = (entries: PlanEntry[]) => ({
    policies: head.policies!,
    docs,
    entries,
    organization: "acme",
    liveDocuments,
    now: NOW,
  });

  it("untouched: existing; changed elsewhere: existing; made worse: worsened; absent live: new", () => {
    const vs = violations(head);
    judgeRatchet(
      vs,
      input([
        // b: its description changes; live has the same title, so the same violation.
        entry({
          key: "project/b",
          kind: "Project",
          action: "update",
          before: { description: "old" },
          after: { description: "" },
          changes: [{ field: "description", before: "old", after: "" }],
        }),
        // c: live's title was "Project C" (no violation) or "Old C" (another message).
        entry({
          key: "project/c",
          kind: "Project",
          action: "update",
          before: { title: "Old C" },
          after: { title: "C" },
          changes: [{ field: "title", before: "Old C", after: "C" }],
        }),
        // d does not exist live.
        entry({ key: "project/d", kind: "Project", action: "create", after: { title: "D" } }),
      ]),
    );
    expect(statuses(vs)).toEqual({
      "project/a": "existing",
      "project/b": "existing",
      "project/c": "worsened",
      "project/d": "new",
    });
    expect(vs.find((v) => v.key === "project/c")).toMatchObject({
      message: "title C",
      was: "title Old C",
    });
    expect(policyCounts(vs)).toEqual({ deny: 2, warn: 0, excepted: 0, debt: 2 });
  });

  it("a title fixed live but broken by the change: new", () => {
    const vs = violations(head).filter((v) => v.key === "project/a");
    judgeRatchet(
      vs,
      input([
        entry({
          key: "project/a",
          kind: "Project",
          action: "update",
          before: { title: "Project A" },
          after: { title: "A" },
          changes: [{ field: "title", before: "Project A", after: "A" }],
        }),
      ]),
    );
    expect(statuses(vs)).toEqual({ "project/a": "new" });
  });

  it("undoing an entry gives the live document; an entry with no place in it gives none", () => {
    const live = liveDocuments(
      docs,
      [
        entry({
          key: "project/b",
          kind: "Project",
          action: "update",
          before: { title: "Live B" },
          after: { title: "B" },
          changes: [{ field: "title", before: "Live B", after: "B" }],
        }),
        entry({ key: "project/c/welcome", kind: "WelcomeMail", action: "create" }),
      ],
      "acme",
    );
    const b = live.get("Project/b");
    expect((b?.value as { spec: { title: string } }).spec.title).toBe("Live B");
    expect(live.get("Project/c")).toBeNull();
    // The head's documents are not changed.
    expect(docs.find((d) => d.name === "b")?.value.spec).toMatchObject({ title: "B" });
  });

  it("warn and deny violations are left alone (no ratchet field)", () => {
    const warn = load(project("a", "A"), "warn");
    const vs = violations(warn);
    judgeRatchet(vs, { ...input([]), policies: warn.policies!, docs: warn.layers!.docs });
    expect(vs.map((v) => [v.enforcement, v.ratchet])).toEqual([["warn", undefined]]);
  });
});

describe("judgeRatchet with plan --base: against the base config", () => {
  it("violations the base config has: existing; an object the change adds: new; retitled: worsened", () => {
    const base = load(`${project("a", "A")}${project("b", "B")}`);
    const head = load(`${project("a", "A")}${project("b", "Bee")}${project("n", "N")}`);
    const vs = violations(head);
    judgeRatchet(vs, {
      policies: head.policies!,
      docs: head.layers!.docs,
      baseDocs: base.layers!.docs,
      entries: [],
      organization: "acme",
      now: NOW,
    });
    expect(statuses(vs)).toEqual({
      "project/a": "existing",
      "project/b": "worsened",
      "project/n": "new",
    });
  });

  it("a policy the change adds at ratchet: what the base's objects already break is debt", () => {
    const base = loadManifestTexts(
      [
        { file: "phctl.yaml", content: "organization: acme\n", config: true },
        { file: "m.yaml", content: `${USER}${project("a", "A")}` },
      ],
      { now: NOW },
    );
    const head = load(project("a", "A"));
    const vs = violations(head);
    judgeRatchet(vs, {
      policies: head.policies!,
      docs: head.layers!.docs,
      baseDocs: base.layers!.docs,
      entries: [],
      now: NOW,
    });
    expect(statuses(vs)).toEqual({ "project/a": "existing" });
  });
});

describe("validate: a ratchet violation is not judged", () => {
  it("counted apart, neither denied nor a warning", () => {
    const r = load(project("a", "A"));
    expect(summarizeViolations(r.violations ?? [])).toEqual({
      denied: 0,
      warnings: 0,
      excepted: 0,
      ratchet: 1,
    });
  });
});
