/** The merge rules, tombstones, inherit: false, precedence and conflicts, as a user writes them. */
import { describe, expect, it } from "vitest";
import { defaults, effective, file, lines, load, project, team, user } from "./helpers.js";

const users = file("users.yaml", user("jdoe"), user("asmith"), user("bob"));

describe("merge rules", () => {
  it("scalars: the object's own value wins; maps merge; plain lists replace", () => {
    const r = load(
      users,
      file(
        "projects.yaml",
        project("tf-a", {
          description: "own",
          git: {
            repositories: [{ name: "tf-a", commitBlocker: { author: ["arm.com"] } }],
          },
        }),
      ),
      file(
        "defaults.yaml",
        defaults("base", {
          select: { kind: "Project" },
          values: {
            description: "layer",
            externalContribution: true,
            git: { group: { enableCi: true } },
          },
        }),
        defaults("repos", {
          select: { kind: "Repository" },
          values: { commitBlocker: { author: ["example.org", "linaro.org"], since: null } },
        }),
      ),
    );
    expect(lines(r)).toEqual([]);
    const spec = effective(r, "Project/tf-a")!;
    expect(spec.description).toBe("own");
    expect(spec.externalContribution).toBe(true);
    expect(spec.git).toEqual({
      repositories: [{ name: "tf-a", commitBlocker: { author: ["arm.com"], since: null } }],
      group: { enableCi: true },
    });
  });

  it("keyed lists merge by key: access by user, repositories by subgroup and name", () => {
    const r = load(
      users,
      file(
        "p.yaml",
        project("tf-a", {
          access: { admins: ["jdoe"], reporters: { users: ["asmith"] } },
          git: {
            subgroups: ["tools"],
            repositories: [{ name: "ci", subgroup: "tools", enableLFS: true }],
          },
        }),
      ),
      file(
        "d.yaml",
        defaults("access", {
          select: { kind: "Project" },
          values: {
            access: { reporters: ["bob"], developers: { organizationTeams: ["acme/dev"] } },
            git: {
              subgroups: ["docs"],
              repositories: [
                { name: "ci", subgroup: "tools", mergeRequests: "disabled" },
                { name: "handbook", subgroup: "docs" },
              ],
            },
          },
        }),
      ),
    );
    expect(lines(r)).toEqual([]);
    const spec = effective(r, "Project/tf-a")!;
    expect(spec.access).toEqual({
      admins: { users: ["jdoe"] },
      reporters: { users: ["asmith", "bob"] },
      developers: { organizationTeams: ["acme/dev"] },
    });
    expect(spec.git).toEqual({
      subgroups: ["tools", "docs"],
      repositories: [
        { name: "ci", subgroup: "tools", enableLFS: true, mergeRequests: "disabled" },
        { name: "handbook", subgroup: "docs" },
      ],
    });
    // The state the planner gets has the layer's access and repository.
    const p = r.state!.projects[0];
    expect(p.access.reporters.users).toEqual(["asmith", "bob"]);
    expect(p.git!.repositories.map((x) => x.key)).toEqual([
      "project/tf-a/repo/docs/handbook",
      "project/tf-a/repo/tools/ci",
    ]);
  });

  it("a tombstone removes one inherited entry; one that removes nothing is an error", () => {
    const layer = defaults("security", {
      select: { kind: "Project" },
      values: { access: { reporters: ["bob", "asmith"] } },
    });
    const r = load(
      users,
      file("d.yaml", layer),
      file(
        "p.yaml",
        project("tf-a", { access: { admins: ["jdoe"], reporters: [{ $remove: "bob" }] } }),
      ),
    );
    expect(lines(r)).toEqual([]);
    expect(r.state!.projects[0].access.reporters.users).toEqual(["asmith"]);

    const bad = load(
      users,
      file("d.yaml", layer),
      file(
        "p.yaml",
        project("tf-a", { access: { admins: ["jdoe"], reporters: [{ $remove: "carol" }] } }),
      ),
    );
    expect(bad.state).toBeUndefined();
    expect(lines(bad)).toEqual([
      expect.stringMatching(
        /^p\.yaml:\d+ error tombstone-unused spec\.access\.reporters\.users: \$remove carol removes nothing/,
      ),
    ]);
  });

  it("inherit: false drops every layer for the object or for one repository", () => {
    const r = load(
      users,
      file(
        "d.yaml",
        defaults("repos", { select: { kind: "Repository" }, values: { enableForking: false } }),
        defaults("desc", { select: { kind: "Project" }, values: { description: "layered" } }),
      ),
      file(
        "p.yaml",
        project("tf-a", {
          git: { repositories: [{ name: "a" }, { name: "b", inherit: false }] },
        }),
        project("tf-b", { inherit: false, git: { repositories: [{ name: "c" }] } }),
      ),
    );
    expect(lines(r)).toEqual([]);
    expect(effective(r, "Project/tf-a")!.git).toEqual({
      repositories: [{ name: "a", enableForking: false }, { name: "b" }],
    });
    expect(effective(r, "Project/tf-a")!.description).toBe("layered");
    const b = effective(r, "Project/tf-b")!;
    expect(b.description).toBeUndefined();
    expect(b.git).toEqual({ repositories: [{ name: "c" }] });
    expect(b.inherit).toBeUndefined();
  });
});

describe("precedence", () => {
  const two = (pa: number, pb: number, va: string, vb: string) =>
    load(
      users,
      file(
        "a.yaml",
        defaults("a", { priority: pa, select: { kind: "Project" }, values: { description: va } }),
      ),
      file(
        "b.yaml",
        defaults("b", { priority: pb, select: { kind: "Project" }, values: { description: vb } }),
      ),
      file("p.yaml", project("tf-a")),
    );

  it("the higher priority wins, whatever the file order", () => {
    expect(effective(two(10, 5, "ten", "five"), "Project/tf-a")!.description).toBe("ten");
    expect(effective(two(5, 10, "five", "ten"), "Project/tf-a")!.description).toBe("ten");
  });

  it("equal priorities that agree are fine; that disagree are an error naming both files and the object", () => {
    expect(lines(two(3, 3, "same", "same"))).toEqual([]);
    const r = two(3, 3, "one", "two");
    expect(r.state).toBeUndefined();
    expect(r.diagnostics).toHaveLength(1);
    const d = r.diagnostics[0];
    expect(d).toMatchObject({
      code: "layer-conflict",
      kind: "Project",
      name: "tf-a",
      file: "a.yaml",
    });
    expect(d.message).toMatch(
      /Defaults a \(a\.yaml:\d+\) and Defaults b \(b\.yaml:\d+\) both have priority 3/,
    );
  });

  it("an equal-priority tombstone against an add is a conflict", () => {
    const r = load(
      users,
      file("a.yaml", defaults("a", { select: { kind: "Team" }, values: { members: ["bob"] } })),
      file(
        "b.yaml",
        defaults("b", { select: { kind: "Team" }, values: { members: [{ $remove: "bob" }] } }),
      ),
      file("t.yaml", team("devs", { members: ["jdoe"] })),
    );
    expect(r.diagnostics.map((d) => d.code)).toEqual(["layer-conflict"]);
  });
});

describe("selectors", () => {
  it("labels, expressions, names and repository globs narrow what a layer gives to", () => {
    const r = load(
      users,
      file(
        "p.yaml",
        project(
          "tf-a",
          { git: { repositories: [{ name: "tf-a" }, { name: "tf-a-docs" }] } },
          { tier: "critical" },
        ),
        project("sandbox", { git: { repositories: [{ name: "play-docs" }] } }, { tier: "sandbox" }),
        project("misc", { git: { repositories: [{ name: "x-docs" }] } }),
      ),
      file(
        "d.yaml",
        defaults("docs", {
          select: {
            kind: "Repository",
            repositories: ["*-docs"],
            matchExpressions: [{ key: "tier", operator: "NotIn", values: ["sandbox"] }],
          },
          values: { issueTracking: "private" },
        }),
        defaults("critical", {
          select: { kind: "Project", matchLabels: { tier: "critical" }, names: ["tf-*"] },
          values: { externalContribution: true },
        }),
      ),
    );
    expect(lines(r)).toEqual([]);
    const repos = Object.fromEntries(
      r.state!.projects.flatMap((p) => p.git!.repositories.map((x) => [x.key, x.issueTracking])),
    );
    expect(repos).toEqual({
      "project/misc/repo/x-docs": "private",
      "project/sandbox/repo/play-docs": "disabled",
      "project/tf-a/repo/tf-a": "disabled",
      "project/tf-a/repo/tf-a-docs": "private",
    });
    expect(r.state!.projects.map((p) => [p.slug, p.externalContribution])).toEqual([
      ["misc", false],
      ["sandbox", false],
      ["tf-a", true],
    ]);
    const docs = r.layers!.layers.find((l) => l.name === "docs")!;
    expect([docs.selected.length, docs.projects]).toEqual([2, 2]);
  });

  it("a selector that matches nothing is a warning at its line; a bad expression an error", () => {
    const r = load(
      users,
      file("p.yaml", project("tf-a")),
      file(
        "d.yaml",
        defaults("none", {
          select: { kind: "Project", names: ["zz-*"] },
          values: { description: "x" },
        }),
        defaults("bad", {
          select: { kind: "Project", matchExpressions: [{ key: "tier", operator: "In" }] },
          values: { description: "y" },
        }),
        defaults("wrong", {
          select: { kind: "User", repositories: ["x"] },
          values: { role: "member" },
        }),
      ),
    );
    expect(lines(r)).toEqual([
      expect.stringMatching(
        /^d\.yaml:\d+ warning selector-matches-nothing the selector matches no project/,
      ),
      expect.stringMatching(/^d\.yaml:\d+ error invalid-selector In needs values/),
      expect.stringMatching(
        /^d\.yaml:\d+ error invalid-selector repositories narrows only kind: Repository/,
      ),
    ]);
  });

  it("a layer whose values make an object invalid is an error at the layer's line naming the object", () => {
    const r = load(
      users,
      file("p.yaml", project("tf-a", { git: { repositories: [{ name: "tf-a" }] } })),
      file(
        "d.yaml",
        defaults("handbook", {
          select: { kind: "Project" },
          values: { git: { repositories: [{ name: "handbook", subgroup: "docs" }] } },
        }),
      ),
    );
    expect(r.state).toBeUndefined();
    const d = r.diagnostics.find((x) => x.severity === "error")!;
    expect(d).toMatchObject({ file: "d.yaml", kind: "Project", name: "tf-a" });
    expect(d.message).toMatch(/subgroup/);
    expect(d.hint).toMatch(/comes from Defaults handbook, applied to Project tf-a \(p\.yaml:\d+\)/);
  });
});

describe("no leaks", () => {
  it("one object's effective values never reach another's, nor the layer", () => {
    const r = load(
      users,
      file(
        "p.yaml",
        project("a", {
          git: { repositories: [{ name: "x", commitBlocker: { author: ["a.org"] } }] },
        }),
        project("b", { git: { repositories: [{ name: "y" }] } }),
      ),
      file(
        "d.yaml",
        defaults("cb", {
          select: { kind: "Repository" },
          values: { commitBlocker: { committer: ["c.org"] } },
        }),
      ),
    );
    const a = effective(r, "Project/a")!.git as { repositories: { commitBlocker: unknown }[] };
    const b = effective(r, "Project/b")!.git as { repositories: { commitBlocker: unknown }[] };
    expect(a.repositories[0].commitBlocker).toEqual({ author: ["a.org"], committer: ["c.org"] });
    expect(b.repositories[0].commitBlocker).toEqual({ committer: ["c.org"] });
    (b.repositories[0].commitBlocker as { committer: string[] }).committer.push("leak.org");
    expect(a.repositories[0].commitBlocker).toEqual({ author: ["a.org"], committer: ["c.org"] });
  });
});
