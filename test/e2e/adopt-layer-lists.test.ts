/**
 * `phctl drift --adopt` where a Defaults layer feeds a keyed list, end to end (the built CLI
 * against the reference server on loopback). An entry a layer gives that is gone live from
 * one object becomes a tombstone (`{ $remove: KEY }`) in that object's own manifest — in the
 * list's place whatever form the object writes it in, created when absent — while the layer
 * and the other objects it selects keep it; a layer that selects nothing else loses the entry
 * itself. An entry added live to a list a layer feeds joins the object's own list. And
 * adoption never says it did what a plan of its manifests would not confirm: what it cannot
 * write is "not adopted", with what to do by hand.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { seed } from "../../src/server/seed.js";
import { mutate } from "../adopt/mutate.js";
import { phctl } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

const USERS = ["alice", "bob", "sec"]
  .map(
    (u) =>
      `apiVersion: phctl/v1\nkind: User\nmetadata: { name: ${u} }\nspec:\n  firstName: ${u}\n  lastName: X\n  externalEmail: ${u}@example.org\n`,
  )
  .join("---\n");

/** A scratch directory with `files` under `cfg/`, applied to `t`; returns the directory. */
async function applied(t: TestServer, files: Record<string, string>): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "phctl-adopt-lists-"));
  mkdirSync(join(dir, "cfg"));
  for (const [f, text] of Object.entries({ "phctl.yaml": "organization: acme\n", ...files }))
    writeFileSync(join(dir, "cfg", f), text);
  const r = await phctl(["apply", "cfg", "--auto-approve"], envOf(t), dir);
  if (r.code !== 0) throw new Error(r.stderr);
  return dir;
}

/** A server with `files` applied, for one describe block (its hooks are registered here). */
function appliedFor(files: Record<string, string>, before?: (t: TestServer) => void) {
  const s = {} as { t: TestServer; dir: string };
  beforeAll(async () => {
    s.t = await startServer();
    before?.(s.t);
    s.dir = await applied(s.t, files);
  });
  afterAll(() => s.t.close());
  return s;
}

const envOf = (t: TestServer) => ({ PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret });
const read = (dir: string, f: string) => readFileSync(join(dir, "cfg", f), "utf8");
const adoptLines = (stderr: string) =>
  stderr.split("\n").filter((l) => l.startsWith("phctl: adopt: "));

async function live(t: TestServer, f: (api: ApiClient) => Promise<unknown>): Promise<void> {
  const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret });
  try {
    await f(api);
  } finally {
    await api.close();
  }
}

async function planIsClean(t: TestServer, dir: string): Promise<void> {
  const p = await phctl(["plan", "cfg", "--detailed-exitcode"], envOf(t), dir);
  expect(p.stdout).toContain("No changes. Live state matches the manifests.");
  expect(p.code).toBe(0);
}

describe("an access entry a layer gives to every project, gone live from one", () => {
  const project = (slug: string) =>
    `apiVersion: phctl/v1\nkind: Project\nmetadata: { name: ${slug} }\nspec:\n  title: ${slug.toUpperCase()}\n  access: { admins: [alice, bob] }\n`;
  const DEFAULTS = `apiVersion: phctl/v1
kind: Defaults
metadata: { name: security-reads }
spec:
  select: { kind: Project }
  values:
    access:
      reporters: [sec]
`;
  const s = appliedFor({
    "users.yaml": USERS,
    "p1.yaml": project("p1"),
    "p2.yaml": project("p2"),
    "defaults.yaml": DEFAULTS,
  });

  it("is a tombstone in the project's own manifest; the layer and the other project keep it", async () => {
    expect((await s.t.call("DELETE", "/v1/projects/p1/reporters/users/sec")).status).toBe(200);
    const r = await phctl(["drift", "cfg", "--adopt"], envOf(s.t), s.dir);
    expect(r.code).toBe(2);
    expect(adoptLines(r.stderr)).toEqual([
      "phctl: adopt: project/p1/access/reporters/user/sec: removed, gone live (cfg/p1.yaml)",
      "phctl: adopt: project/p1/access/reporters/user/sec: tombstone written to cfg/p1.yaml: Defaults security-reads gives it to 1 other project",
      "phctl: adopt: 1 entry adopted in 1 file: a plan of the adopted manifests shows no changes for them",
    ]);
    expect(read(s.dir, "p1.yaml")).toBe(
      project("p1").replace(
        "access: { admins: [alice, bob] }",
        "access: { admins: [alice, bob], reporters: [{ $remove: sec }] }",
      ),
    );
    expect(read(s.dir, "p2.yaml")).toBe(project("p2"));
    expect(read(s.dir, "defaults.yaml")).toBe(DEFAULTS);
    await planIsClean(s.t, s.dir);
    const p2 = await s.t.call<{ name: string }[]>("GET", "/v1/projects/p2/reporters");
    expect(p2.body.map((x) => x.name)).toEqual(["sec"]);
  });

  it("an entry added live to the list the layer feeds joins the project's own list", async () => {
    await live(s.t, (api) =>
      api.callAndWait("access.addUser", {
        params: { projectSlug: "p2", level: "reporters", username: "bob" },
      }),
    );
    const r = await phctl(["drift", "cfg", "--adopt"], envOf(s.t), s.dir);
    expect(r.code).toBe(2);
    expect(read(s.dir, "p2.yaml")).toBe(
      project("p2").replace(
        "access: { admins: [alice, bob] }",
        "access: { admins: [alice, bob], reporters: [bob] }",
      ),
    );
    expect(read(s.dir, "defaults.yaml")).toBe(DEFAULTS);
    await planIsClean(s.t, s.dir);
  });

  it("an entry a tombstone removed, granted live again: the tombstone goes", async () => {
    await live(s.t, (api) =>
      api.callAndWait("access.addUser", {
        params: { projectSlug: "p1", level: "reporters", username: "sec" },
      }),
    );
    const r = await phctl(["drift", "cfg", "--adopt"], envOf(s.t), s.dir);
    expect(r.code).toBe(2);
    expect(read(s.dir, "p1.yaml")).toBe(project("p1"));
    await planIsClean(s.t, s.dir);
  });
});

describe("every keyed list a layer feeds, and each form of the object's own list", () => {
  const PROJECTS = {
    // reporters as a list
    "p3.yaml": `apiVersion: phctl/v1
kind: Project
metadata: { name: p3 }
spec:
  title: P3
  access:
    admins: [alice]
    maintainers: [alice]
    reporters: [bob]
  git:
    repositories:
      - name: main
`,
    // reporters as a mapping
    "p4.yaml": `apiVersion: phctl/v1
kind: Project
metadata: { name: p4 }
spec:
  title: P4
  access:
    admins: [alice]
    maintainers: [alice]
    reporters: { users: [bob] }
  git:
    repositories:
      - name: main
`,
    // no reporters, no git section of its own
    "p5.yaml": `apiVersion: phctl/v1
kind: Project
metadata: { name: p5 }
spec:
  title: P5
  access: { admins: [alice], maintainers: [alice] }
`,
  };
  const TEAMS = `apiVersion: phctl/v1
kind: Team
metadata: { name: t1 }
spec:
  members: [alice]
---
apiVersion: phctl/v1
kind: Team
metadata: { name: t2 }
spec:
  members: [bob]
`;
  const BASELINE = `apiVersion: phctl/v1
kind: Defaults
metadata: { name: baseline }
spec:
  select: { kind: Project, names: [p3, p4, p5] }
  values:
    licenses: [MIT]
    access:
      reporters: { users: [sec], organizationTeams: [acme/auditors] }
    git:
      subgroups: [docs]
      repositories:
        - { name: handbook, subgroup: docs }
        - { name: tools }
    artifacts:
      repositories: [{ name: releases }]
---
apiVersion: phctl/v1
kind: Defaults
metadata: { name: team-baseline }
spec:
  select: { kind: Team }
  values:
    members: [sec]
`;
  const P5_ONLY = `apiVersion: phctl/v1
kind: Defaults
metadata: { name: p5-only }
spec:
  select: { kind: Project, names: [p5] }
  values:
    description: Five
    access:
      developers: [bob]
`;
  const s = appliedFor(
    {
      "users.yaml": USERS,
      "teams.yaml": TEAMS,
      ...PROJECTS,
      "defaults.yaml": `${BASELINE}---\n${P5_ONLY}`,
    },
    (t) => {
      seed(t.server.ctx, {
        orgTeams: [{ organization: "acme", name: "Auditors", path: "acme/auditors" }],
      });
    },
  );

  it("tombstones in each object's own list, the entry out of a layer that selects nothing else; then plan shows no changes", async () => {
    await live(s.t, async (api) => {
      const orgTeam = (projectSlug: string, level: string, orgPathId: string) =>
        api.callAndWait("access.removeOrgTeam", {
          params: { projectSlug, level: level as "reporters", orgPathId },
        });
      await mutate(
        api,
        { m: "access", slug: "p3", level: "reporters", user: "sec", add: false },
        s.t,
      );
      await orgTeam("p3", "reporters", "acme/auditors");
      await orgTeam("p4", "reporters", "acme/auditors");
      await mutate(
        api,
        { m: "access", slug: "p5", level: "reporters", user: "sec", add: false },
        s.t,
      );
      await mutate(
        api,
        { m: "access", slug: "p5", level: "developers", user: "bob", add: false },
        s.t,
      );
      await mutate(api, { m: "license", slug: "p3", license: "MIT", add: false }, s.t);
      await mutate(api, { m: "deleteRepo", slug: "p4", repo: "docs/handbook" }, s.t);
      await mutate(api, { m: "deleteArtifact", slug: "p4", name: "releases" }, s.t);
      await mutate(api, { m: "deleteSubgroup", slug: "p5", path: "docs" }, s.t);
      await mutate(api, { m: "member", team: "t1", user: "sec", add: false }, s.t);
    });
    const r = await phctl(["drift", "cfg", "--adopt"], envOf(s.t), s.dir);
    expect(r.code).toBe(2);
    const lines = adoptLines(r.stderr);
    expect(lines.filter((l) => l.includes("not adopted"))).toEqual([]);
    expect(lines).toContain(
      "phctl: adopt: project/p5/access/developers/user/bob: removed from Defaults p5-only (cfg/defaults.yaml), which selects nothing else",
    );
    expect(lines).toContain(
      "phctl: adopt: project/p3/license/MIT: tombstone written to cfg/p3.yaml: Defaults baseline gives it to 2 other projects",
    );
    expect(lines.at(-1)).toBe(
      "phctl: adopt: 11 entries adopted in 5 files: a plan of the adopted manifests shows no changes for them",
    );

    expect(read(s.dir, "p3.yaml")).toBe(
      PROJECTS["p3.yaml"]
        .replace("  title: P3\n", "  title: P3\n  licenses: [{ $remove: MIT }]\n")
        .replace(
          "    reporters: [bob]\n",
          "    reporters:\n      users: [bob, { $remove: sec }]\n      organizationTeams: [{ $remove: acme/auditors }]\n",
        ),
    );
    expect(read(s.dir, "p4.yaml")).toBe(
      PROJECTS["p4.yaml"]
        .replace(
          "reporters: { users: [bob] }",
          "reporters: { users: [bob], organizationTeams: [{ $remove: acme/auditors }] }",
        )
        .replace(
          "      - name: main\n",
          "      - name: main\n      - { $remove: docs/handbook }\n  artifacts:\n    repositories: [{ $remove: releases }]\n",
        ),
    );
    expect(read(s.dir, "p5.yaml")).toBe(
      PROJECTS["p5.yaml"].replace(
        "access: { admins: [alice], maintainers: [alice] }",
        "access: { admins: [alice], maintainers: [alice], reporters: [{ $remove: sec }] }\n  git:\n    subgroups: [{ $remove: docs }]\n    repositories: [{ $remove: docs/handbook }]",
      ),
    );
    expect(read(s.dir, "teams.yaml")).toBe(
      TEAMS.replace("members: [alice]", "members: [alice, { $remove: sec }]"),
    );
    // The layer other objects share is as it was; the one of p5 alone no longer gives bob.
    expect(read(s.dir, "defaults.yaml")).toBe(
      `${BASELINE}---\n${P5_ONLY.replace("    access:\n      developers: [bob]\n", "")}`,
    );
    await planIsClean(s.t, s.dir);
  });
});

describe("adoption says only what a plan of its manifests confirms", () => {
  const project = (slug: string) => `apiVersion: phctl/v1
kind: Project
metadata: { name: ${slug} }
spec:
  title: ${slug.toUpperCase()}
  access: { admins: [alice], maintainers: [alice] }
  git:
    repositories:
      - name: main
`;
  const DEFAULTS = `apiVersion: phctl/v1
kind: Defaults
metadata: { name: ci-on }
spec:
  select: { kind: Project }
  values:
    git:
      group: { enableCi: true }
`;
  const s = appliedFor({
    "users.yaml": USERS,
    "p7.yaml": project("p7"),
    "p8.yaml": project("p8"),
    "defaults.yaml": DEFAULTS,
  });

  it("a git group a layer declares, deleted live: not adopted, with what to do by hand; nothing written", async () => {
    await live(s.t, (api) => mutate(api, { m: "deleteGroup", slug: "p7" }, s.t));
    const r = await phctl(["drift", "cfg", "--adopt"], envOf(s.t), s.dir);
    expect(r.code).toBe(2);
    const why =
      "cfg/p7.yaml would not declare project/p7/group as live has it (still declared, by cfg/defaults.yaml:8: change that by hand); nothing was written to it";
    expect(adoptLines(r.stderr)).toEqual([
      `phctl: adopt: not adopted: project/p7/group (GitGroup): ${why}`,
      `phctl: adopt: not adopted: project/p7/repo/main (Repository): ${why}`,
      "phctl: adopt: nothing adopted; 2 not adopted (above)",
    ]);
    expect(read(s.dir, "p7.yaml")).toBe(project("p7"));
    expect(read(s.dir, "defaults.yaml")).toBe(DEFAULTS);
    const j = await phctl(["drift", "cfg", "--adopt", "--format", "json"], envOf(s.t), s.dir);
    const adopt = (JSON.parse(j.stdout.trim().split("\n").at(-1)!) as { adopt: { adopted: [] } })
      .adopt;
    expect(adopt.adopted).toEqual([]);
  });
});
