/**
 * Team and TeamMember: desired() normalisation, the flag rule (false → true is an update,
 * true → false is blocked with a reason naming the flag), fast-check properties, and
 * ownership (teams unmanaged; a declared team's member list authoritative).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildPlan } from "../../src/engine/planner.js";
import type { LiveObject } from "../../src/kinds/kind.js";
import { TEAM_FLAGS, teamKind } from "../../src/kinds/team.js";
import { parseMemberKey, teamMemberKind } from "../../src/kinds/team-member.js";
import { diffContext } from "../helpers/kinds.js";
import { desiredOf, diff, liveOf, load, teamDoc, userDoc } from "./user-team-fixtures.js";

const state = load(
  teamDoc("maint", "services: { gitservice: true, wiki: false }\nmembers: [jdoe, asmith, jdoe]") +
    teamDoc("empty", "services: {}") +
    userDoc("jdoe", "firstName: Jane\nlastName: Doe\nexternalEmail: jane@example.org"),
);

function plan(live: Record<string, LiveObject[]>) {
  return buildPlan({
    state,
    kinds: [teamKind, teamMemberKind],
    live: new Map(Object.entries(live)),
    ctx: diffContext(state),
    apiUrl: "test",
    organization: "acme",
    stats: { objectsRead: 0, apiCalls: 0, durationMs: 0 },
  });
}

describe("Team desired()", () => {
  it("flattens the service flags into fields, false by default", () => {
    expect(desiredOf(teamKind, state, "team/maint").fields).toEqual({
      gitservice: true,
      artifactservice: false,
      wiki: false,
    });
    expect(desiredOf(teamKind, state, "team/empty").fields).toEqual({
      gitservice: false,
      artifactservice: false,
      wiki: false,
    });
  });
});

describe("Team diff", () => {
  const d = desiredOf(teamKind, state, "team/maint");

  it("creates a team absent live", () => {
    const [e, ...rest] = diff(teamKind, d, undefined, state);
    expect(rest).toEqual([]);
    expect(e).toMatchObject({ action: "create", after: d.fields });
  });

  it("plans nothing for a team in sync", () => {
    expect(diff(teamKind, d, liveOf(d), state)).toEqual([]);
  });

  it("enables a flag: an update naming exactly that field", () => {
    const [e, ...rest] = diff(teamKind, d, liveOf(d, { gitservice: false }), state);
    expect(rest).toEqual([]);
    expect(e).toMatchObject({
      action: "update",
      before: { gitservice: false },
      after: { gitservice: true },
    });
    expect(e.changes.map((c) => c.field)).toEqual(["gitservice"]);
  });

  it("blocks disabling a flag, with a reason naming the flag", () => {
    const [e, ...rest] = diff(teamKind, d, liveOf(d, { wiki: true }), state);
    expect(rest).toEqual([]);
    expect(e.action).toBe("blocked");
    expect(e.blocked).toEqual({ field: "wiki", reason: e.reason });
    expect(e.reason).toMatch(/^wiki cannot be disabled/);
    expect(e.dependsOn).toEqual([]);
  });

  it("plans the enable and blocks the disable when both happen", () => {
    const entries = diff(
      teamKind,
      d,
      liveOf(d, { gitservice: false, artifactservice: true }),
      state,
    );
    expect(entries.map((e) => `${e.action} ${e.changes.map((c) => c.field).join(",")}`)).toEqual([
      "update gitservice",
      "blocked artifactservice",
    ]);
  });

  it("flags: enables are updates, disables are blocked, nothing else", () => {
    const flags = fc.record({
      gitservice: fc.boolean(),
      artifactservice: fc.boolean(),
      wiki: fc.boolean(),
    });
    fc.assert(
      fc.property(flags, flags, (want, have) => {
        const x = { ...d, fields: want };
        const entries = diff(teamKind, x, liveOf(x, have), state);
        const enables = TEAM_FLAGS.filter((f) => want[f] && !have[f]);
        const disables = TEAM_FLAGS.filter((f) => !want[f] && have[f]);
        const updates = entries.filter((e) => e.action === "update");
        expect(updates.flatMap((e) => e.changes.map((c) => c.field))).toEqual(enables);
        expect(updates.length).toBe(enables.length > 0 ? 1 : 0);
        expect(entries.filter((e) => e.action === "blocked").map((e) => e.blocked!.field)).toEqual(
          disables,
        );
        expect(entries.length).toBe(updates.length + disables.length);
      }),
    );
  });
});

describe("TeamMember", () => {
  it("has one object per distinct member, depending on the team and a declared user", () => {
    const ds = teamMemberKind.desired(state);
    expect(ds.map((d) => [d.key, d.dependsOn])).toEqual([
      ["team/maint/member/asmith", ["team/maint"]],
      ["team/maint/member/jdoe", ["team/maint", "user/jdoe"]],
    ]);
    expect(ds.every((d) => Object.keys(d.fields).length === 0)).toBe(true);
    expect(ds[1].source).toMatchObject({ file: "users.yaml" });
    expect(parseMemberKey("team/maint/member/jdoe")).toEqual({ team: "maint", username: "jdoe" });
  });

  it("creates a missing membership and plans nothing for one in sync", () => {
    const d = desiredOf(teamMemberKind, state, "team/maint/member/jdoe");
    expect(diff(teamMemberKind, d, undefined, state).map((e) => e.action)).toEqual(["create"]);
    expect(diff(teamMemberKind, d, liveOf(d), state)).toEqual([]);
  });

  it("removes members a declared team does not list (destructive), only there", () => {
    const member = (team: string, user: string): LiveObject => ({
      key: `team/${team}/member/${user}`,
      fields: {},
      ids: { parentOrganization: "acme" },
    });
    const p = plan({
      Team: [
        liveOf(desiredOf(teamKind, state, "team/maint")),
        liveOf(desiredOf(teamKind, state, "team/empty")),
        {
          key: "team/other",
          fields: { gitservice: true, artifactservice: false, wiki: false },
          ids: {},
        },
      ],
      TeamMember: [
        member("maint", "jdoe"),
        member("maint", "asmith"),
        member("maint", "intruder"),
        member("empty", "someone"),
        member("other", "anyone"),
      ],
    });
    expect(p.entries.map((e) => [e.action, e.key, e.destructive])).toEqual([
      ["delete", "team/maint/member/intruder", true],
      ["delete", "team/empty/member/someone", true],
    ]);
    expect(p.entries[0].reason).toContain("team/maint");
    // Teams no manifest declares are listed, never touched; their members are out of scope.
    expect(p.unmanaged.map((u) => u.key)).toEqual(["team/other"]);
  });
});
