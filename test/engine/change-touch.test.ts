/**
 * What a change touches, from its objects, its Defaults and its Policy documents alike
 * (src/engine/change-touch.ts) — the one answer `plan --base` uses for the pull request and
 * for what was merged and never applied, and `apply --reviewed --applied` for the latter.
 */
import { describe, expect, it } from "vitest";
import { changeTouches, type ChangeSide } from "../../src/engine/change-touch.js";
import { appliedSince } from "../../src/engine/applied-since.js";
import { defaults, file, load, project, user, type Doc } from "../layers/helpers.js";

const policy = (name: string, spec: Doc): Doc => ({
  apiVersion: "phctl/v1",
  kind: "Policy",
  metadata: { name },
  spec,
});
const titles = (name = "titles", rule = 'object.spec.title.startsWith("P")') =>
  policy(name, {
    select: { kind: "Project", matchLabels: { tier: "critical" } },
    rules: [{ name: "prefix", expression: rule, message: "titles start with P" }],
  });
const critical = (values: Doc) =>
  defaults("critical", { select: { kind: "Project", matchLabels: { tier: "critical" } }, values });

function side(...extra: Doc[]): ChangeSide {
  const r = load(
    file("users.yaml", user("jdoe")),
    file(
      "projects.yaml",
      project("a", {}, { tier: "critical" }),
      project("b", {}, { tier: "critical" }),
      project("c"),
    ),
    ...(extra.length > 0 ? [file("extra.yaml", ...extra)] : []),
  );
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return { ...r, state: r.state! };
}

describe("changeTouches", () => {
  it("no change touches nothing", () => {
    expect(changeTouches(side(titles()), side(titles()))).toEqual({
      keys: [],
      settings: [],
      layers: [],
      policies: [],
    });
  });

  it("a policy-only change touches what the policy selects, and names the policy", () => {
    const got = changeTouches(side(), side(titles()));
    expect(got.keys).toEqual(["project/a", "project/b"]);
    expect(got.policies.map((p) => [p.name, p.change, p.objects])).toEqual([
      ["titles", "added", 2],
    ]);
    expect(got.layers).toEqual([]);
  });

  it("a Defaults change and a policy change together: the union of their objects, each named", () => {
    const base = side(critical({ externalContribution: false }), titles());
    const head = side(
      critical({ externalContribution: true }),
      titles("titles", 'object.spec.title.startsWith("Q")'),
      project("d"),
    );
    const got = changeTouches(base, head);
    expect(got.keys).toEqual(["project/a", "project/b", "project/d"]);
    expect(got.layers.map((l) => [l.name, l.change])).toEqual([["critical", "changed"]]);
    expect(got.policies.map((p) => [p.name, p.change])).toEqual([["titles", "changed"]]);
  });

  it("a changed planning setting plans everything: no keys, the setting named", () => {
    const base = side(titles());
    const head = side();
    const moved: ChangeSide = {
      ...head,
      state: { ...head.state, config: { ...head.state.config, organization: "other" } },
    };
    const got = changeTouches(base, moved);
    expect(got.settings).toEqual(["organization"]);
    expect(got.keys).toEqual([]);
    expect(got.policies.map((p) => p.change)).toEqual(["removed"]);
  });

  it("appliedSince compares sides: the same layers on both sides are no change", () => {
    const applied = side(critical({ externalContribution: false }));
    const merged = side(critical({ externalContribution: false }), project("d"));
    const got = appliedSince(applied, merged, { scope: ["project/d"] });
    expect(got).toEqual({ keys: ["project/d"], settings: [], unreviewed: [] });
    const later = appliedSince(applied, merged, { scope: ["project/a"] });
    expect(later.unreviewed).toEqual(["project/d"]);
  });
});
