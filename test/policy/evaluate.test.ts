import { describe, expect, it } from "vitest";
import {
  COST_LIMIT,
  evaluateChanges,
  evaluateLive,
  evaluateObjects,
  summarizeViolations,
} from "../../src/policy/index.js";
import { load, NOW, policy, project } from "./helpers.js";

const run = (files: Record<string, string>, now = NOW) => {
  const r = load(files, now);
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return { ...evaluateObjects(r.policies, r.docs, now, { organization: "acme" }), compiled: r };
};

describe("evaluateObjects", () => {
  it("reports a rule that does not hold on each selected object, with its source", () => {
    const { violations } = run({
      "p.yaml": policy(
        "admins",
        "  select: { kind: Project, matchLabels: { tier: critical } }\n  rules:\n    - name: two\n      expression: size(object.spec.access.admins.users) >= 2\n      message: two admins\n",
      ),
      "a.yaml": project("a", "  access: { admins: [x] }", "{ tier: critical }"),
      "b.yaml": project("b", "  access: { admins: [x] }"),
      "c.yaml": project("c", "  access: { admins: { users: [x, y] } }", "{ tier: critical }"),
    });
    expect(
      violations.map((v) => [v.key, v.rule, v.enforcement, v.message, v.source?.file]),
    ).toEqual([["project/a", "two", "deny", "two admins", "a.yaml"]]);
  });

  it("fails closed: a rule that cannot be evaluated is a violation, never a pass", () => {
    const { violations } = run({
      "p.yaml": policy(
        "eccn",
        '  select: { kind: Project }\n  enforcement: deny\n  rules:\n    - name: eccn\n      expression: object.spec.eccn != "5D002"\n',
      ),
      "a.yaml": project("a", "  eccn: EAR99"),
      "b.yaml": project("b", "  description: no eccn"),
    });
    expect(violations.map((v) => [v.key, v.enforcement, v.message])).toEqual([
      ["project/b", "deny", "could not evaluate: No such key: eccn"],
    ]);
    expect(violations[0].evaluationError).toBe("No such key: eccn");
  });

  it("a binding overrides the enforcement for the objects it selects", () => {
    const { violations } = run({
      "p.yaml": policy(
        "lic",
        "  select: { kind: Project }\n  enforcement: warn\n  bindings:\n    - select: { kind: Project, names: [core-*] }\n      enforcement: deny\n  rules: [{ name: lic, expression: 'size(object.spec.licenses) > 0' }]\n",
      ),
      "a.yaml": project("core-a", "  description: x"),
      "b.yaml": project("b", "  description: x"),
    });
    expect(violations.map((v) => [v.key, v.enforcement])).toEqual([
      ["project/core-a", "deny"],
      ["project/b", "warn"],
    ]);
    expect(summarizeViolations(violations)).toEqual({ denied: 1, warnings: 1, excepted: 0 });
  });

  it("each repository is an object with its project's metadata (selector: repository and subgroup globs)", () => {
    const { violations } = run({
      "p.yaml": policy(
        "fork",
        '  select: { kind: Repository, subgroups: [tools/**], matchLabels: { tier: critical } }\n  rules:\n    - name: nofork\n      expression: \'!object.enableForking\'\n      messageExpression: object.project.metadata.name + "/" + object.name + " in " + object.project.organization\n',
      ),
      "a.yaml": project(
        "a",
        "  git:\n    repositories:\n      - { name: r1 }\n      - { name: r2, subgroup: tools/ci }\n      - { name: r3, subgroup: tools/ci, enableForking: false }",
        "{ tier: critical }",
      ),
    });
    expect(violations.map((v) => [v.key, v.message, v.source?.line])).toEqual([
      ["project/a/repo/tools/ci/r2", "a/r2 in acme", 9],
    ]);
  });

  it("an active exception waives a violation; an expired one does not", () => {
    const files = {
      "p.yaml": policy(
        "lic",
        "  select: { kind: Project }\n  rules: [{ name: lic, expression: 'size(object.spec.licenses) > 0' }]\n  exceptions:\n    - { key: project/old-*, reason: legacy, expires: 2026-06-30, approvedBy: sec }\n",
      ),
      "a.yaml": project("old-a", "  description: x"),
    };
    const before = run(files, new Date("2026-06-30T23:00:00Z")).violations;
    expect(before.map((v) => [v.exception?.status, v.exception?.reason])).toEqual([
      ["expiring", "legacy"],
    ]);
    expect(summarizeViolations(before)).toEqual({ denied: 0, warnings: 0, excepted: 1 });
    const after = run(files, new Date("2026-07-01T00:00:00Z")).violations;
    expect(after.map((v) => [v.exception, v.enforcement])).toEqual([[undefined, "deny"]]);
  });

  it("warns of a policy whose selector matches nothing", () => {
    const { diagnostics } = run({
      "p.yaml": policy(
        "none",
        "  select: { kind: Team, names: [x-*] }\n  rules: [{ name: r, expression: 'true' }]\n",
      ),
    });
    expect(diagnostics.map((d) => `${d.severity} ${d.line}:${d.message}`)).toEqual([
      "warning 5:the policy selects nothing: no teams named x-* are declared",
    ]);
  });

  it("reads other users through `users`", () => {
    const { violations } = run({
      "p.yaml": policy(
        "svc",
        '  select: { kind: Project }\n  rules:\n    - name: svc\n      expression: object.spec.access.admins.users.all(u, !(u in users) || users[u].spec.role != "system-admin")\n',
      ),
      "a.yaml": project("a", "  access: { admins: [root, ghost] }"),
      "u.yaml":
        "apiVersion: phctl/v1\nkind: User\nmetadata: { name: root }\nspec: { firstName: R, lastName: T, externalEmail: r@x.org, role: system-admin }\n",
    });
    expect(violations.map((v) => v.key)).toEqual(["project/a"]);
  });

  it("stops a rule whose cost exceeds the limit, naming it", () => {
    const repos = Array.from({ length: 120 }, (_, i) => `      - { name: r${i} }`).join("\n");
    const { violations } = run({
      "p.yaml": policy(
        "cost",
        "  select: { kind: Project }\n  rules:\n    - name: cubic\n      expression: object.spec.git.repositories.all(a, object.spec.git.repositories.all(b, object.spec.git.repositories.all(c, a.name != '' )))\n",
      ),
      "a.yaml": project("a", `  git:\n    repositories:\n${repos}`),
    });
    expect(violations.map((v) => v.message)).toEqual([
      expect.stringMatching(
        /^could not evaluate: rule cubic exceeds the evaluation cost limit \([\d,]+ > 1,000,000 steps\)$/,
      ),
    ]);
    expect(COST_LIMIT).toBe(1_000_000);
  });
});

describe("evaluateChanges and evaluateLive", () => {
  it("change rules see each plan entry of the selected objects, deletes included", () => {
    const r = load({
      "p.yaml": policy(
        "arch",
        "  select: { kind: Repository }\n  scope: change\n  rules:\n    - name: arch\n      expression: change.action != 'delete' || change.before.status == 'archived'\n",
      ),
    });
    expect(r.diagnostics).toEqual([]);
    const { violations } = evaluateChanges(
      r.policies,
      [
        {
          action: "delete",
          kind: "Repository",
          key: "project/a/repo/x",
          before: { status: "active" },
          after: null,
          fields: [],
        },
        {
          action: "delete",
          kind: "Repository",
          key: "project/a/repo/y",
          before: { status: "archived" },
          after: null,
          fields: [],
        },
        {
          action: "delete",
          kind: "Project",
          key: "project/a",
          before: {},
          after: null,
          fields: [],
        },
      ],
      NOW,
    );
    expect(violations.map((v) => [v.key, v.scope, v.kind])).toEqual([
      ["project/a/repo/x", "change", "Repository"],
    ]);
  });

  it("a misspelled change field is a type error", () => {
    const r = load({
      "p.yaml": policy(
        "c",
        "  select: { kind: Project }\n  scope: change\n  rules: [{ name: c, expression: change.actoin == 'x' }]\n",
      ),
    });
    expect(r.diagnostics.map((d) => d.hint)).toEqual(["did you mean action?"]);
  });

  it("live rules see live objects, managed or not", () => {
    const r = load({
      "p.yaml": policy(
        "l",
        "  select: { kind: Project }\n  scope: live\n  rules: [{ name: l, expression: object.visibility != 'public' || size(object.description) > 0 }]\n",
      ),
    });
    const { violations } = evaluateLive(
      r.policies,
      [
        {
          kind: "Project",
          key: "project/u",
          name: "u",
          object: { visibility: "public", description: "" },
        },
        {
          kind: "Project",
          key: "project/v",
          name: "v",
          object: { visibility: "public", description: "Firmware" },
        },
      ],
      NOW,
    );
    expect(violations.map((v) => [v.key, v.source])).toEqual([["project/u", undefined]]);
  });

  it("live rules are type-checked against the live object's schema: a misspelled field is a load error", () => {
    const r = load({
      "p.yaml": policy(
        "l",
        "  select: { kind: Project }\n  scope: live\n  rules: [{ name: l, expression: size(object.descripton) > 0 }]\n",
      ),
    });
    const errors = r.diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => [d.file, d.line, d.message])).toEqual([
      ["p.yaml", 7, "rule l: expression: No such key: descripton"],
    ]);
    expect(errors[0].hint).toBe("did you mean description?");
    // The manifest's document is not what a live rule sees.
    const spec = load({
      "p.yaml": policy(
        "l",
        "  select: { kind: Repository }\n  scope: live\n  rules: [{ name: l, expression: object.spec.title != '' }]\n",
      ),
    });
    expect(spec.diagnostics.filter((d) => d.severity === "error")).toHaveLength(1);
  });
});
