/**
 * User and UserService: desired() normalisation and the diff outcomes — create, update
 * naming exactly the changed fields, blocked (with a reason naming the field), nothing when
 * in sync — plus fast-check properties, ownership and deprecation warnings.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildPlan } from "../../src/engine/planner.js";
import type { LiveObject } from "../../src/kinds/kind.js";
import { userKind } from "../../src/kinds/user.js";
import { parseServiceKey, userServiceKind } from "../../src/kinds/user-service.js";
import { diffContext } from "../helpers/kinds.js";
import { desiredOf, diff, liveOf, load, orgDoc, userDoc } from "./user-team-fixtures.js";

const JDOE = userDoc(
  "jdoe",
  `
firstName: Jane
lastName: Doe
displayName: Jane Doe
externalEmail: jane@example.org
role: projects-admin
sendWelcome: true
services:
  git: { status: active, personalProjectLimit: 5 }
  artifactservice: {}
  email: { mailplan: retention }
  irc: { status: inactive }
  wiki: {}
  servicedesk: {}
`,
);
const ASMITH = userDoc(
  "asmith",
  `
firstName: Alex
lastName: Smith
externalEmail: alex@example.org
organization: acme-partner
status: inactive
services:
  git: {}
`,
);
const state = load(JDOE + ASMITH + orgDoc("acme-partner"));

describe("User desired()", () => {
  it("normalises a declared user, with defaults and the config's organization", () => {
    const d = desiredOf(userKind, state, "user/jdoe");
    expect(d.fields).toEqual({
      firstName: "Jane",
      lastName: "Doe",
      displayName: "Jane Doe",
      externalEmail: "jane@example.org",
      organization: "acme",
      role: "projects-admin",
      status: "active",
    });
    expect(d.dependsOn).toEqual([]);
    expect(d.source).toMatchObject({ file: "users.yaml" });
  });

  it("leaves displayName unmanaged when undeclared and depends on a declared organization", () => {
    const d = desiredOf(userKind, state, "user/asmith");
    expect(d.fields.displayName).toBeUndefined();
    expect(d.fields).toMatchObject({
      organization: "acme-partner",
      role: "member",
      status: "inactive",
    });
    expect(d.dependsOn).toEqual(["organization/acme-partner"]);
  });

  it("leaves organization unmanaged when neither the manifest nor phctl.yaml names one", () => {
    const s = load(userDoc("x", "firstName: X\nlastName: Y\nexternalEmail: x@example.org"), null);
    expect(desiredOf(userKind, s, "user/x").fields.organization).toBeUndefined();
  });
});

describe("User diff", () => {
  const d = desiredOf(userKind, state, "user/jdoe");

  it("creates a user absent live; its welcome mail is not part of it (an action of its own)", () => {
    const [e, ...rest] = diff(userKind, d, undefined, state);
    expect(rest).toEqual([]);
    expect(e).toMatchObject({ action: "create", key: "user/jdoe", before: null });
    expect(e.after).toMatchObject({ externalEmail: "jane@example.org" });
    expect(e.after).not.toHaveProperty("sendWelcome");
  });

  it("plans nothing for a user in sync", () => {
    expect(diff(userKind, d, liveOf(d), state)).toEqual([]);
  });

  it("updates exactly the changed fields", () => {
    const [e, ...rest] = diff(
      userKind,
      d,
      liveOf(d, { lastName: "Dough", role: "member", organization: "acme-partner" }),
      state,
    );
    expect(rest).toEqual([]);
    expect(e.action).toBe("update");
    expect(e.changes.map((c) => c.field)).toEqual(["lastName", "organization", "role"]);
    expect(e.before).toEqual({ lastName: "Dough", organization: "acme-partner", role: "member" });
    expect(e.after).toEqual({ lastName: "Doe", organization: "acme", role: "projects-admin" });
  });

  it("blocks an email change, with a reason naming externalEmail", () => {
    const entries = diff(userKind, d, liveOf(d, { externalEmail: "old@example.org" }), state);
    expect(entries).toHaveLength(1);
    const [e] = entries;
    expect(e.action).toBe("blocked");
    expect(e.blocked?.field).toBe("externalEmail");
    expect(e.reason).toMatch(/externalEmail/);
    expect(e.reason).toMatch(/the email cannot be changed after the user is created/);
    expect(e.blocked?.reason).toBe(e.reason);
  });

  it("ignores a live displayName when none is declared", () => {
    const a = desiredOf(userKind, state, "user/asmith");
    expect(diff(userKind, a, liveOf(a, { displayName: "Anything" }), state)).toEqual([]);
  });

  it("declares externalEmail immutable (blocked) with a reason naming the field", () => {
    expect(userKind.immutable.externalEmail).toMatchObject({ action: "blocked" });
    expect(userKind.immutable.externalEmail!.reason).toContain("externalEmail");
  });
});

describe("User properties", () => {
  const d = desiredOf(userKind, state, "user/jdoe");
  const MUTABLE = ["firstName", "lastName", "displayName", "organization", "role", "status"];
  const ALL = [...MUTABLE, "externalEmail"];

  it("diff of a user with itself is empty", () => {
    fc.assert(
      fc.property(
        fc.record({
          firstName: fc.string({ minLength: 1 }),
          lastName: fc.string({ minLength: 1 }),
          displayName: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
          externalEmail: fc.emailAddress(),
          organization: fc.constantFrom("acme", "acme-partner"),
          role: fc.constantFrom("member", "users-admin", "projects-admin", "system-admin"),
          status: fc.constantFrom("active", "inactive"),
        }),
        (fields) => {
          const x = { ...d, fields };
          expect(diff(userKind, x, liveOf(x), state)).toEqual([]);
        },
      ),
    );
  });

  it("a mutation of managed fields is reported as exactly those fields", () => {
    fc.assert(
      fc.property(fc.subarray(ALL, { minLength: 1 }), (mutated) => {
        const changed = Object.fromEntries(mutated.map((f) => [f, `${String(d.fields[f])}-x`]));
        const entries = diff(userKind, d, liveOf(d, changed), state);
        const update = entries.filter((e) => e.action === "update");
        const blocked = entries.filter((e) => e.action === "blocked");
        expect(update.flatMap((e) => e.changes.map((c) => c.field)).sort()).toEqual(
          mutated.filter((f) => f !== "externalEmail").sort(),
        );
        expect(blocked.map((e) => e.blocked!.field)).toEqual(
          mutated.includes("externalEmail") ? ["externalEmail"] : [],
        );
        expect(entries.length).toBe(update.length + blocked.length);
      }),
    );
  });
});

describe("User ownership", () => {
  it("lists live users no manifest declares as not managed, never deleting them", () => {
    const live: LiveObject[] = [
      liveOf(desiredOf(userKind, state, "user/jdoe")),
      { key: "user/stranger", fields: { firstName: "S" }, ids: {} },
    ];
    const plan = buildPlan({
      state,
      kinds: [userKind],
      live: new Map([["User", live]]),
      ctx: diffContext(state),
      apiUrl: "test",
      organization: "acme",
      stats: { objectsRead: 0, apiCalls: 0, durationMs: 0 },
    });
    expect(plan.entries.map((e) => `${e.action} ${e.key}`)).toEqual(["create user/asmith"]);
    expect(plan.unmanaged).toEqual([
      { key: "user/stranger", kind: "User", note: expect.stringContaining("never touched") },
    ]);
  });
});

describe("UserService desired()", () => {
  it("has one object per declared service with the service's own fields", () => {
    const byKey = Object.fromEntries(
      userServiceKind.desired(state).map((d) => [d.key, d.fields] as const),
    );
    expect(byKey).toEqual({
      "user/asmith/service/git": { status: "active", personalProjectLimit: undefined },
      "user/jdoe/service/artifactservice": { status: "active" },
      "user/jdoe/service/email": { status: "active", mailplan: "retention" },
      "user/jdoe/service/git": { status: "active", personalProjectLimit: 5 },
      "user/jdoe/service/irc": { status: "inactive" },
      "user/jdoe/service/servicedesk": { status: "active" },
      "user/jdoe/service/wiki": { status: "active" },
    });
    for (const d of userServiceKind.desired(state)) {
      expect(d.dependsOn).toEqual([`user/${parseServiceKey(d.key).username}`]);
    }
  });

  it("ignores accounts no manifest lists", () => {
    expect(userServiceKind.ownership.mode).toBe("ignored");
  });
});

describe("UserService diff", () => {
  const key = (s: string) => `user/jdoe/service/${s}`;
  const d = (s: string) => desiredOf(userServiceKind, state, key(s));

  it("creates an absent account; deprecated services carry a warning", () => {
    const [git] = diff(userServiceKind, d("git"), undefined, state);
    expect(git).toMatchObject({
      action: "create",
      after: { status: "active", personalProjectLimit: 5 },
    });
    expect(git.warnings).toBeUndefined();
    for (const s of ["email", "irc", "wiki"]) {
      const [e] = diff(userServiceKind, d(s), undefined, state);
      expect(e.action).toBe("create");
      expect(e.warnings).toEqual([
        `the ${s} service is deprecated by the API (2026-02); it still works`,
      ]);
    }
  });

  it("plans nothing for accounts in sync", () => {
    for (const s of ["git", "artifactservice", "email", "irc", "wiki", "servicedesk"]) {
      expect(diff(userServiceKind, d(s), liveOf(d(s)), state)).toEqual([]);
    }
  });

  it("updates exactly the changed fields", () => {
    const [e, ...rest] = diff(
      userServiceKind,
      d("git"),
      liveOf(d("git"), { personalProjectLimit: null }),
      state,
    );
    expect(rest).toEqual([]);
    expect(e).toMatchObject({
      action: "update",
      before: { personalProjectLimit: null },
      after: { personalProjectLimit: 5 },
    });
    expect(e.changes.map((c) => c.field)).toEqual(["personalProjectLimit"]);
  });

  it("does not manage an undeclared personal project limit", () => {
    const a = desiredOf(userServiceKind, state, "user/asmith/service/git");
    expect(diff(userServiceKind, a, liveOf(a, { personalProjectLimit: 7 }), state)).toEqual([]);
  });

  it("warns on a service desk update (a deprecated operation), not on its create", () => {
    const [upd] = diff(
      userServiceKind,
      d("servicedesk"),
      liveOf(d("servicedesk"), { status: "inactive" }),
      state,
    );
    expect(upd.warnings).toEqual([
      expect.stringContaining("servicedesk update operation is deprecated"),
    ]);
    const [create] = diff(userServiceKind, d("servicedesk"), undefined, state);
    expect(create.warnings).toBeUndefined();
  });

  it("blocks a mailplan change with a reason naming mailplan, alongside a status update", () => {
    const entries = diff(
      userServiceKind,
      d("email"),
      liveOf(d("email"), { mailplan: "non-retention", status: "inactive" }),
      state,
    );
    expect(entries.map((e) => e.action)).toEqual(["update", "blocked"]);
    const [update, blocked] = entries;
    expect(update.changes.map((c) => c.field)).toEqual(["status"]);
    expect(blocked.blocked).toEqual({
      field: "mailplan",
      reason: expect.stringContaining("mailplan"),
    });
    expect(blocked.reason).toMatch(/^mailplan is immutable/);
    for (const e of entries)
      expect(e.warnings).toEqual([expect.stringContaining("email service is deprecated")]);
    expect(userServiceKind.immutable.mailplan).toMatchObject({ action: "blocked" });
  });

  it("a mutation of managed fields is reported as exactly those fields", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("git", "email"),
        fc.boolean(),
        fc.boolean(),
        (service, status, other) => {
          const x = d(service);
          const changed: Record<string, unknown> = {};
          if (status) changed.status = "inactive";
          if (other && service === "git") changed.personalProjectLimit = 9;
          if (other && service === "email") changed.mailplan = "non-retention";
          const entries = diff(userServiceKind, x, liveOf(x, changed), state);
          expect(entries.flatMap((e) => e.changes.map((c) => c.field)).sort()).toEqual(
            Object.keys(changed).sort(),
          );
        },
      ),
    );
  });
});
