/**
 * What a change rule reads of where a change was written (issue 38, item 2): `change.file`
 * relative to the config's root (the base's, for a removal located in the base), `layer`,
 * `project`, `organization`, and the declared `users`; the fields type-check, and a rule
 * misspelling one is a load error.
 */
import { describe, expect, it } from "vitest";
import { configRelative } from "../../src/engine/policy-check.js";
import { evaluateChanges, usersOf } from "../../src/policy/index.js";
import { load, NOW, policy } from "./helpers.js";

const RULE = policy(
  "folders",
  `  select: { kind: Project }
  scope: change
  rules:
    - name: own
      expression: '!change.file.startsWith("projects/") || change.file.split("/")[1] == change.project'
      messageExpression: 'change.file + " " + change.layer + " " + change.organization'
    - name: partner-admins
      expression: >-
        change.kind != "ProjectAccess" || !(change.after.username in users) ||
        users[change.after.username].metadata.labels.size() == 0
`,
);
const USER = `apiVersion: phctl/v1
kind: User
metadata: { name: pk, labels: { partner: "yes" } }
spec: { firstName: P, lastName: K, externalEmail: pk@example.net }
`;

describe("change.file and its neighbours", () => {
  it("reads the file, layer, project and organization of each entry", () => {
    const { policies, diagnostics, docs } = load({ "p.yaml": RULE, "u.yaml": USER });
    expect(diagnostics).toEqual([]);
    const entry = (file: string, key: string) => ({
      action: "create",
      kind: "ProjectAccess",
      key,
      before: null,
      after: { project: key.split("/")[1], level: "maintainers", username: "asmith" },
      fields: [],
      file,
      layer: "reach",
      organization: "acme",
    });
    const { violations } = evaluateChanges(
      policies,
      [
        entry("projects/alpha/x.yaml", "project/beta/access/maintainers/user/asmith"),
        entry("projects/beta/x.yaml", "project/beta/access/maintainers/user/asmith"),
        entry("teams.yaml", "project/beta/access/maintainers/user/asmith"),
      ],
      NOW,
    );
    expect(violations.map((v) => [v.rule, v.message])).toEqual([
      ["own", "projects/alpha/x.yaml reach acme"],
    ]);
    const users = usersOf(docs, "acme");
    const admin = {
      ...entry("teams.yaml", "project/beta/access/admins/user/pk"),
      after: { project: "beta", level: "admins", username: "pk" },
    };
    const found = evaluateChanges(policies, [admin], NOW, () => users).violations;
    expect(found.map((v) => v.rule)).toEqual(["partner-admins"]);
    // Without the users, `pk in users` is false: the rule passes.
    expect(evaluateChanges(policies, [admin], NOW).violations).toEqual([]);
  });

  it("type-checks the new fields: a misspelt one is a load error with a suggestion", () => {
    const bad = RULE.replace("change.layer", "change.layr");
    const { diagnostics } = load({ "p.yaml": bad });
    expect(diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining("No such key: layr"),
    ]);
  });
});

describe("configRelative", () => {
  it("is relative to the first root that holds the file, with / separators", () => {
    expect(configRelative(["head"], "head/projects/a/p.yaml")).toBe("projects/a/p.yaml");
    expect(configRelative(["head", "base"], "base/projects/a/p.yaml")).toBe("projects/a/p.yaml");
    expect(configRelative(["."], "projects/a/p.yaml")).toBe("projects/a/p.yaml");
    expect(configRelative(["head"], "elsewhere/p.yaml")).toBe("elsewhere/p.yaml");
    expect(configRelative(undefined, "x/p.yaml")).toBe("x/p.yaml");
  });
});
