/**
 * User, UserService, Team and TeamMember against the reference server on loopback: read()
 * of seeded state (objects and API calls), create → read → diff is empty for each kind, an
 * update of every mutable field converges, blocked entries are never sent, and an ambiguous
 * create never duplicates.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReadContext } from "../../src/engine/read-context.js";
import { teamKind } from "../../src/kinds/team.js";
import { teamMemberKind } from "../../src/kinds/team-member.js";
import { userKind } from "../../src/kinds/user.js";
import { userServiceKind } from "../../src/kinds/user-service.js";
import type { OperationId } from "../../src/api/routes.js";
import { seed } from "../../src/server/seed.js";
import { startClient, type ClientFixture } from "../api/helpers.js";
import { fieldLines, lines } from "../helpers/kinds.js";
import { applyAndReplan, execute, load, planFor, teamDoc, userDoc } from "./user-team-fixtures.js";

let f: ClientFixture;

beforeAll(async () => {
  f = await startClient();
  seed(f.server.ctx, {
    parentOrganization: "acme",
    organizations: [{ name: "acme-partner", parent: "acme" }],
    users: [
      {
        username: "rjones",
        firstName: "Rae",
        lastName: "Jones",
        externalEmail: "rae@example.org",
        services: {
          git: { personalProjectLimit: 3 },
          email: { mailplan: "retention" },
          artifactservice: { status: "inactive" },
        },
      },
      { username: "tnoor", firstName: "Tal", lastName: "Noor", externalEmail: "tal@example.org" },
      {
        username: "stranger",
        firstName: "S",
        lastName: "Tranger",
        externalEmail: "stranger@example.org",
        services: { git: {} },
      },
    ],
    teams: [
      { name: "seeded", gitservice: true, members: ["rjones", "stranger"] },
      { name: "foreign", wiki: true, members: ["stranger"] },
    ],
  });
});
afterAll(async () => {
  await f.stop();
});

const mails = () => f.server.ctx.outbox.list().filter((m) => m.kind === "welcome");
const userRow = async (username: string) =>
  (await f.client.call("users.get", { params: { username } })).data;
const accounts = async (username: string) =>
  (await f.client.call("users.services", { params: { username } })).data;
const team = async (teamname: string) =>
  f.client.call("teams.get", { params: { teamname }, query: { parentOrganization: "acme" } });

describe("read()", () => {
  const state = load(
    userDoc(
      "rjones",
      `firstName: Rae\nlastName: Jones\nexternalEmail: rae@example.org\nservices:\n  git: { personalProjectLimit: 3 }\n  email: { mailplan: retention }`,
    ) +
      userDoc("tnoor", "firstName: Tal\nlastName: Noor\nexternalEmail: tal@example.org") +
      userDoc(
        "nobody-yet",
        "firstName: N\nlastName: Y\nexternalEmail: ny@example.org\nservices:\n  git: {}",
      ) +
      teamDoc("seeded", "services: { gitservice: true }\nmembers: [rjones]"),
  );

  it("reads seeded users, accounts, teams and members with the fewest calls", async () => {
    const ctx = new ReadContext(f.client);
    const calls = () => f.client.metrics.snapshot().calls;
    const c0 = calls();
    const users = await userKind.read(ctx, state);
    expect(calls() - c0).toBe(1); // the user list, all=true
    const services = await userServiceKind.read(ctx, state);
    // rjones only: tnoor declares no service, nobody-yet does not exist live.
    expect(calls() - c0).toBe(2);
    const teams = await teamKind.read(ctx, state);
    const members = await teamMemberKind.read(ctx, state);
    expect(calls() - c0).toBe(3); // one page of teams, shared by both kinds

    expect(users.find((u) => u.key === "user/rjones")).toEqual({
      key: "user/rjones",
      fields: {
        firstName: "Rae",
        lastName: "Jones",
        displayName: "Rae Jones",
        externalEmail: "rae@example.org",
        organization: "acme",
        role: "member",
        status: "active",
        sendWelcome: undefined,
      },
      ids: { parentOrganization: "acme" },
    });
    expect(users.map((u) => u.key)).toEqual(
      expect.arrayContaining(["user/rjones", "user/tnoor", "user/stranger"]),
    );
    expect(services).toEqual([
      {
        key: "user/rjones/service/git",
        fields: { status: "active", personalProjectLimit: 3 },
        ids: {},
      },
      { key: "user/rjones/service/artifactservice", fields: { status: "inactive" }, ids: {} },
      {
        key: "user/rjones/service/email",
        fields: { status: "active", mailplan: "retention" },
        ids: {},
      },
    ]);
    expect(teams.filter((t) => ["team/seeded", "team/foreign"].includes(t.key))).toEqual([
      {
        key: "team/foreign",
        fields: { gitservice: false, artifactservice: false, wiki: true },
        ids: { parentOrganization: "acme" },
      },
      {
        key: "team/seeded",
        fields: { gitservice: true, artifactservice: false, wiki: false },
        ids: { parentOrganization: "acme" },
      },
    ]);
    // Only the members of declared teams are in scope.
    expect(members.map((m) => m.key)).toEqual([
      "team/seeded/member/rjones",
      "team/seeded/member/stranger",
    ]);
  });

  it("plans the seeded state: in-sync objects give nothing, undeclared ones as ownership says", async () => {
    const { plan } = await planFor(f.client, state);
    expect(lines(plan)).toEqual([
      "create user/nobody-yet",
      "create user/nobody-yet/service/git",
      "delete team/seeded/member/stranger",
    ]);
    expect(plan.unmanaged.map((u) => u.key)).toEqual(
      expect.arrayContaining(["user/stranger", "team/foreign"]),
    );
    expect(plan.unmanaged.map((u) => u.key)).not.toContain("user/rjones/service/artifactservice");
  });
});

describe("apply", () => {
  const v1 = load(
    userDoc(
      "ada",
      `
firstName: Ada
lastName: Lovelace
displayName: Countess Ada
externalEmail: ada@example.org
role: projects-admin
sendWelcome: true
services:
  git: { personalProjectLimit: 5 }
  artifactservice: { status: inactive }
  servicedesk: {}
  email: { mailplan: retention }
  irc: {}
  wiki: {}
`,
    ) +
      userDoc(
        "grace",
        `
firstName: Grace
lastName: Hopper
externalEmail: grace@example.org
status: inactive
organization: acme-partner
services:
  git: {}
`,
      ) +
      teamDoc("engines", "services: { gitservice: true }\nmembers: [ada, grace, tnoor]"),
  );

  it("creates every kind from empty; read() then diffs to nothing", async () => {
    const welcomes = mails().length;
    const first = await planFor(f.client, v1);
    expect(lines(first.plan)).toEqual([
      "create team/engines",
      "create team/engines/member/ada",
      "create team/engines/member/grace",
      "create team/engines/member/tnoor",
      "create user/ada",
      "create user/ada/service/artifactservice",
      "create user/ada/service/email",
      "create user/ada/service/git",
      "create user/ada/service/irc",
      "create user/ada/service/servicedesk",
      "create user/ada/service/wiki",
      "create user/ada/welcome",
      "create user/grace",
      "create user/grace/service/git",
    ]);
    await execute(f.client, first);
    const again = await planFor(f.client, v1);
    expect(again.plan.entries).toEqual([]);

    expect(await userRow("ada")).toMatchObject({
      displayName: "Countess Ada",
      role: "projects-admin",
      status: "active",
      organization: "acme",
    });
    expect(await userRow("grace")).toMatchObject({
      status: "inactive",
      organization: "acme-partner",
      displayName: "Grace Hopper",
    });
    const ada = await accounts("ada");
    expect(ada.git).toMatchObject({ status: "active", personalProjectLimit: 5 });
    expect(ada.artifactservice).toMatchObject({ status: "inactive" });
    expect(ada.email).toMatchObject({ mailplan: "retention" });
    expect(ada.irc).toMatchObject({ displayName: "Countess Ada" });
    expect(ada.wiki).toMatchObject({ status: "active" });
    expect((await team("engines")).userNames).toEqual(["ada", "grace", "tnoor"]);
    expect((await team("engines")).services).toEqual({
      gitservice: true,
      artifactservice: false,
      wiki: false,
    });
    // The welcome mail went out once, for ada only (grace does not ask for one).
    expect(
      mails()
        .slice(welcomes)
        .map((m) => m.recipients),
    ).toEqual([["ada@example.org"]]);

    await execute(f.client, again);
    expect(mails().length).toBe(welcomes + 1);
  });

  it("converges after an update of every mutable field", async () => {
    const v2 = load(
      userDoc(
        "ada",
        `
firstName: Augusta
lastName: King
displayName: Ada King
externalEmail: ada@example.org
role: users-admin
status: inactive
organization: acme-partner
sendWelcome: true
services:
  git: { personalProjectLimit: 7, status: inactive }
  artifactservice: { status: active }
  servicedesk: { status: inactive }
  email: { mailplan: retention, status: inactive }
  irc: { status: inactive }
  wiki: { status: inactive }
`,
      ) +
        userDoc(
          "grace",
          `
firstName: Grace
lastName: Hopper
externalEmail: grace@example.org
organization: acme
services:
  git: {}
`,
        ) +
        teamDoc(
          "engines",
          "services: { gitservice: true, artifactservice: true, wiki: true }\nmembers: [ada, rjones]",
        ),
    );
    const p = await planFor(f.client, v2);
    expect(fieldLines(p.plan)).toEqual([
      "create team/engines/member/rjones",
      "delete team/engines/member/grace",
      "delete team/engines/member/tnoor",
      "update team/engines artifactservice,wiki",
      "update user/ada firstName,lastName,displayName,organization,role,status",
      "update user/ada/service/artifactservice status",
      "update user/ada/service/email status",
      "update user/ada/service/git status,personalProjectLimit",
      "update user/ada/service/irc status",
      "update user/ada/service/servicedesk status",
      "update user/ada/service/wiki status",
      "update user/grace organization,status",
    ]);
    const welcomes = mails().length;
    const after = await applyAndReplan(f.client, v2);
    expect(after.plan.entries).toEqual([]);
    expect(mails().length).toBe(welcomes); // never again for an existing user
    expect(await userRow("ada")).toMatchObject({
      firstName: "Augusta",
      organization: "acme-partner",
      status: "inactive",
    });
    expect((await accounts("ada")).git).toMatchObject({
      status: "inactive",
      personalProjectLimit: 7,
    });
    expect((await team("engines")).userNames).toEqual(["ada", "rjones"]);
  });

  it("plans blocked entries with reasons naming the field and never sends them", async () => {
    const v3 = load(
      userDoc(
        "ada",
        `
firstName: Augusta
lastName: King
displayName: Ada King
externalEmail: ada.new@example.org
role: users-admin
status: inactive
organization: acme-partner
services:
  email: { mailplan: non-retention, status: inactive }
`,
      ) +
        teamDoc(
          "engines",
          "services: { gitservice: false, artifactservice: true, wiki: true }\nmembers: [ada, rjones]",
        ),
    );
    const p = await planFor(f.client, v3);
    expect(p.plan.entries.map((e) => [e.action, e.key, e.blocked?.field])).toEqual([
      ["blocked", "user/ada", "externalEmail"],
      ["blocked", "user/ada/service/email", "mailplan"],
      ["blocked", "team/engines", "gitservice"],
    ]);
    for (const e of p.plan.entries) expect(e.reason).toContain(e.blocked!.field);
    const seq = f.server.requestLog.length;
    await execute(f.client, p);
    expect(f.server.requestLog.slice(seq).filter((r) => r.method !== "GET")).toEqual([]);
    expect((await userRow("ada")).externalEmail).toBe("ada@example.org");
    // Still blocked, still not sent: the plan keeps saying so.
    expect(lines((await planFor(f.client, v3)).plan)).toEqual([
      "blocked team/engines",
      "blocked user/ada",
      "blocked user/ada/service/email",
    ]);
  });
});

describe("ambiguous creates", () => {
  it("never duplicate: a lost answer is found by re-reading", async () => {
    const state = load(
      userDoc(
        "lin",
        "firstName: Lin\nlastName: Chen\nexternalEmail: lin@example.org\nsendWelcome: true\nservices:\n  git: {}",
      ) + teamDoc("lost", "members: [lin]"),
    );
    const dropped: OperationId[] = [
      "users.create",
      "users.git.create",
      "teams.create",
      "teams.addUser",
    ];
    for (const operation of dropped)
      f.server.faults.add({ kind: "dropAfter", method: "POST", operation });
    const welcomes = mails().length;
    const seq = f.server.requestLog.length;
    const after = await applyAndReplan(f.client, state);
    expect(after.plan.entries).toEqual([]);
    const posts = f.server.requestLog.slice(seq).filter((r) => r.method === "POST");
    expect(posts.filter((r) => r.fault === "dropAfter").map((r) => r.operation)).toEqual(dropped);
    // Each create was sent once: its effect was found by re-reading, never sent again.
    for (const op of dropped) expect(posts.filter((r) => r.operation === op)).toHaveLength(1);
    expect((await accounts("lin")).git).toMatchObject({ status: "active" });
    expect((await team("lost")).userNames).toEqual(["lin"]);
    // The create landed (its answer was lost): the user still gets the welcome mail once.
    expect(mails().length).toBe(welcomes + 1);
  });
});
