/**
 * What the README promises is always present in `object`: lists, label maps and the mappings
 * made only of them — `spec.access` and its levels — even when the manifest writes none, with
 * `admins: [a]` read as `admins: {users: [a]}`. The type-check at load agrees with the view.
 */
import { describe, expect, it } from "vitest";
import { evaluateObjects } from "../../src/policy/index.js";
import { load, NOW, policy, project } from "./helpers.js";

const rule = (expression: string) =>
  policy(
    "access",
    `  select: { kind: Project }\n  rules:\n    - name: r\n      expression: '${expression}'\n      messageExpression: 'string(size(object.spec.access.admins.users)) + " admin(s)"'\n`,
  );

const run = (files: Record<string, string>) => {
  const r = load(files);
  expect(r.diagnostics).toEqual([]);
  return evaluateObjects(r.policies, r.docs, NOW, { organization: "acme" }).violations.map((v) => [
    v.key,
    v.message,
  ]);
};

describe("object.spec.access is always present", () => {
  it("on a project without an access block: every level, with empty users and teams", () => {
    const expression =
      "size(object.spec.access.admins.users) == 0 && size(object.spec.access.developers.organizationTeams) == 0 && size(object.spec.access.reporters.users) == 0";
    expect(
      run({ "p.yaml": rule(expression), "a.yaml": project("a", "  description: no access") }),
    ).toEqual([]);
  });

  it("a project without access fails a two-admins rule by its count, not 'could not evaluate'", () => {
    expect(
      run({
        "p.yaml": rule("size(object.spec.access.admins.users) >= 2"),
        "a.yaml": project("a", "  description: no access"),
        "b.yaml": project("b", "  access: { admins: [x, y] }"),
      }),
    ).toEqual([["project/a", "0 admin(s)"]]);
  });

  it("with inherit: false, the levels written in short form read as {users: [...]}", () => {
    expect(
      run({
        "p.yaml": rule(
          'object.spec.access.admins.users == ["x"] && size(object.spec.access.maintainers.users) == 0',
        ),
        "a.yaml": project("a", "  access: { inherit: false, admins: [x] }"),
      }),
    ).toEqual([]);
  });

  it("inherit, a word of layering, is no field of object (the type-check says so at load)", () => {
    const r = load({
      "p.yaml": rule("object.spec.access.inherit"),
      "a.yaml": project("a", "  access: { inherit: false, admins: [x] }"),
    });
    expect(r.diagnostics.map((d) => [d.line, d.message])).toEqual([
      [8, expect.stringContaining("No such key: inherit") as unknown],
    ]);
  });
});
