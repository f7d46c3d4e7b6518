/**
 * Exceptions that can except nothing are said so: a key that is no object key is an error at
 * the key, one that matches no object the policy selects is a warning at the exception, with
 * did-you-mean.
 */
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/manifest/diagnostics.js";
import { loadManifestTexts } from "../../src/pipeline/load.js";
import { exceptionKeyProblem } from "../../src/policy/exceptions.js";
import { NOW, policy, project } from "./helpers.js";

const withExceptions = (select: string, ...keys: string[]) =>
  policy(
    "lic",
    `  select: ${select}\n  rules: [{ name: lic, expression: '${select.includes("Repository") ? "has(object.name)" : "size(object.spec.licenses) > 0"}' }]\n  exceptions:\n${keys
      .map(
        (k) =>
          `    - key: ${k}\n      reason: legacy\n      expires: 2026-09-30\n      approvedBy: security`,
      )
      .join("\n")}\n`,
  );

/** validate's lines for the policy file, through the whole loader. */
function validate(files: Record<string, string>): string[] {
  const r = loadManifestTexts(
    Object.entries(files).map(([file, content]) => ({ file, content })),
    { now: NOW },
  );
  return r.diagnostics.filter((d) => d.file === "p.yaml").map(formatDiagnostic);
}

const projects = {
  "a.yaml": project("core-a", "  licenses: [MIT]"),
  "b.yaml": project("docs", "  licenses: [MIT]", "{ tier: low }"),
};

describe("policy exception keys", () => {
  it("a malformed key is an error at the key, with the key it likely means", () => {
    expect(
      validate({ ...projects, "p.yaml": withExceptions("{ kind: Project }", "prj/p1") }),
    ).toEqual([
      "p.yaml:8:12 Policy lic: the exception's key prj/p1 is not an object key (project/NAME, project/NAME/repo/[SUBGROUP/]NAME, user/NAME or team/NAME) (did you mean project/p1?)",
    ]);
  });

  it("a key that matches no declared object is a warning at the exception naming it, with did-you-mean", () => {
    expect(
      validate({
        ...projects,
        "p.yaml": withExceptions(
          "{ kind: Project }",
          "project/does-not-exist",
          "project/core-b",
          "project/core-*",
        ),
      }),
    ).toEqual([
      "p.yaml:8:7 warning: Policy lic: the exception for project/does-not-exist matches no project the policy selects: it excepts nothing",
      "p.yaml:12:7 warning: Policy lic: the exception for project/core-b matches no project the policy selects: it excepts nothing (did you mean project/core-a?)",
    ]);
  });

  it("a key naming a declared object the policy does not select says so", () => {
    expect(
      validate({
        ...projects,
        "p.yaml": withExceptions("{ kind: Project, names: [core-*] }", "project/docs"),
      }),
    ).toEqual([
      "p.yaml:8:7 warning: Policy lic: the exception for project/docs matches no project the policy selects: it excepts nothing (project/docs is declared, but the policy's select does not choose it)",
    ]);
  });

  it("repository keys: a project's key on a Repository policy matches none of its repositories", () => {
    const files = {
      "a.yaml": project(
        "a",
        "  git:\n    repositories: [{ name: r1 }, { name: r2, subgroup: tools }]",
      ),
      "p.yaml": withExceptions(
        "{ kind: Repository }",
        "project/a",
        "project/a/repo/tools/r2",
        "project/a/repo/r3",
        "project/*/repo/**",
      ),
    };
    expect(validate(files)).toEqual([
      "p.yaml:8:7 warning: Policy lic: the exception for project/a matches no repository the policy selects: it excepts nothing",
      "p.yaml:16:7 warning: Policy lic: the exception for project/a/repo/r3 matches no repository the policy selects: it excepts nothing (did you mean project/a/repo/r1?)",
    ]);
  });

  it("tells which keys can never match a kind's objects", () => {
    expect(exceptionKeyProblem("project/p", "Project")).toBeUndefined();
    expect(exceptionKeyProblem("project/*/repo/**", "Repository")).toBeUndefined();
    expect(exceptionKeyProblem("**", "User")).toBeUndefined();
    expect(exceptionKeyProblem("*/legacy", "Team")).toBeUndefined();
    expect(exceptionKeyProblem("user/jdoe", "Project")).toEqual({
      message:
        "the exception's key user/jdoe names a user, and the policy selects projects (keys project/…): it can match nothing",
      hint: "did you mean project/jdoe?",
    });
    expect(exceptionKeyProblem("p1", "Project")?.hint).toBe("did you mean project/p1?");
    expect(exceptionKeyProblem("project/", "Project")).toEqual({
      message:
        "the exception's key project/ is not an object key (project/NAME, project/NAME/repo/[SUBGROUP/]NAME, user/NAME or team/NAME)",
    });
    expect(exceptionKeyProblem("team//x", "Team")?.message).toMatch(/is not an object key/);
  });
});
