/**
 * A plan checked against the load's policies (src/engine/policy-check.ts): change rules see
 * every entry — tickets and blocked entries too — with the labels of the object they touch;
 * live rules see live objects, managed or not, only when asked (drift); a scoped plan keeps
 * the object violations of its scope; an exception waives, and says so.
 */
import { describe, expect, it } from "vitest";
import { planViolations } from "../../src/engine/policy-check.js";
import type { LiveObject } from "../../src/kinds/kind.js";
import { loadManifestTexts } from "../../src/pipeline/load.js";
import { entry, plan } from "../render/markdown-plans.js";

const NOW = new Date("2026-11-27T00:00:00Z");

const PROJECTS = `apiVersion: phctl/v1
kind: Project
metadata: { name: crit, labels: { tier: critical } }
spec: { title: Crit, description: Critical project, access: { admins: [jdoe] } }
---
apiVersion: phctl/v1
kind: Project
metadata: { name: side }
spec: { title: Side, description: Side project, access: { admins: [jdoe] } }
`;

const POLICIES = `apiVersion: phctl/v1
kind: Policy
metadata: { name: frozen }
spec:
  select: { kind: Project, matchLabels: { tier: critical } }
  scope: change
  rules:
    - name: no-change
      expression: 'false'
      messageExpression: '"no " + change.action + " of " + change.key'
---
apiVersion: phctl/v1
kind: Policy
metadata: { name: described }
spec:
  select: { kind: Project }
  scope: live
  enforcement: warn
  rules:
    - name: long
      expression: 'size(object.description) >= 5'
---
apiVersion: phctl/v1
kind: Policy
metadata: { name: two-admins }
spec:
  select: { kind: Project }
  rules:
    - name: two
      expression: 'size(object.spec.access.admins.users) >= 2'
  exceptions:
    - key: project/side
      reason: a one-person project
      expires: "2026-12-01"
      approvedBy: security-team
`;

function load() {
  const r = loadManifestTexts(
    [
      { file: "phctl.yaml", content: "organization: acme\n", config: true },
      { file: "projects.yaml", content: PROJECTS },
      { file: "policies.yaml", content: POLICIES },
    ],
    { now: NOW },
  );
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return { state: r.state!, policies: r.policies ?? [], objects: r.violations ?? [], now: NOW };
}

const live = (objects: [string, string][]): Map<string, LiveObject[]> =>
  new Map([
    [
      "Project",
      objects.map(([key, description]) => ({
        key,
        fields: { title: key, description },
        ids: {},
      })),
    ],
  ]);

describe("a plan checked against the policies", () => {
  it("change rules see tickets and blocked entries, with the object's labels", () => {
    const p = load();
    const entries = [
      entry("project/crit", "ticket", { kind: "Project" }),
      entry("project/crit/access/admins/user/x", "blocked", { kind: "ProjectAccess" }),
      entry("project/side", "update", { kind: "Project" }),
    ];
    const vs = planViolations(plan(entries), p.state, new Map(), p);
    const changes = vs.filter((v) => v.scope === "change");
    expect(changes.map((v) => [v.key, v.action, v.message])).toEqual([
      ["project/crit", "ticket", "no ticket of project/crit"],
      [
        "project/crit/access/admins/user/x",
        "blocked",
        "no blocked of project/crit/access/admins/user/x",
      ],
    ]);
  });

  it("object violations come from the load; an exception waives one and says it ends soon", () => {
    const p = load();
    const vs = planViolations(plan([]), p.state, new Map(), p);
    expect(vs.map((v) => [v.scope, v.key, v.enforcement, v.exception?.expires])).toEqual([
      ["object", "project/crit", "deny", undefined],
      ["object", "project/side", "deny", "2026-12-01"],
    ]);
    expect(vs[1].exception).toMatchObject({ status: "expiring", approvedBy: "security-team" });
  });

  it("a scoped plan keeps the object violations of its scope", () => {
    const p = load();
    const vs = planViolations(plan([], { scope: ["project/crit"] }), p.state, new Map(), p);
    expect(vs.map((v) => v.key)).toEqual(["project/crit"]);
  });

  it("live rules run only when asked, on managed and unmanaged objects alike", () => {
    const p = load();
    const objects = live([
      ["project/crit", "Critical project"],
      ["project/rogue", "tmp"],
      ["project/side", "no"],
    ]);
    expect(planViolations(plan([]), p.state, objects, p).filter((v) => v.scope === "live")).toEqual(
      [],
    );
    const vs = planViolations(plan([]), p.state, objects, { ...p, live: true }).filter(
      (v) => v.scope === "live",
    );
    expect(vs.map((v) => [v.key, v.managed, v.enforcement, v.source?.file ?? null])).toEqual([
      ["project/rogue", false, "warn", null],
      ["project/side", true, "warn", "projects.yaml"],
    ]);
  });
});
