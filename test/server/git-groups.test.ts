import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/seed.js";
import { startServer, type TestServer } from "../helpers/server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startServer();
  seed(t.server.ctx, {
    parentOrganization: "acme",
    organizations: [{ name: "partner", parent: "acme" }],
    projects: [
      { slug: "tf-a", name: "Trusted Firmware-A" },
      { slug: "secret", name: "Secret", visibility: "private" },
      { slug: "custom", name: "Custom path" },
      { slug: "clash", name: "Clash" },
      { slug: "partner-proj", name: "Partner project", organization: "partner" },
      { slug: "subs", name: "Subgroups" },
      { slug: "doomed", name: "Doomed" },
    ],
  });
  seed(t.server.ctx, {
    parentOrganization: "globex",
    organizations: [{ name: "globex" }],
    projects: [{ slug: "globex-proj", name: "Globex" }],
  });
});
afterAll(() => t.close());

const G = (slug: string) => `/v1/projects/${slug}/git/groups`;
const SG = (slug: string) => `/v1/projects/${slug}/git/subgroups`;

describe("git group", () => {
  it("needs the project first: an unknown project is 404", async () => {
    const r = await t.call("POST", G("nope"), { body: {} });
    expect(r.status).toBe(404);
    expect(r.body.status.message).toBe("project nope not found");
  });

  it("is not there before it is created (404)", async () => {
    const r = await t.call("GET", G("tf-a"), { as: "member" });
    expect(r.status).toBe(404);
    expect(r.body.status.message).toBe("git group of project tf-a not found");
  });

  it("creates the group at <organization>/<slug> by default; a second one is 409", async () => {
    const r = await t.call("POST", G("tf-a"), { body: { enable_ci: true } });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({
      name: "Trusted Firmware-A",
      path: "tf-a",
      fullPath: "acme/tf-a",
      webUrl: "https://git.example.org/acme/tf-a",
      request_access_enabled: false,
      enable_ci: true,
    });
    const again = await t.call("POST", G("tf-a"), { body: {} });
    expect(again.status).toBe(409);
    expect(again.body.status.message).toContain("one group per project");
    const read = await t.call("GET", G("tf-a"), { as: "member" });
    expect(read.body.data).toEqual(r.body.data);
  });

  it("places private projects under <organization>/private/ and customers under their organization", async () => {
    const p = await t.call("POST", G("secret"), { body: {} });
    expect(p.body.data.fullPath).toBe("acme/private/secret");
    const c = await t.call("POST", G("partner-proj"), { body: {} });
    expect(c.body.data.fullPath).toBe("partner/partner-proj");
  });

  it("accepts a custom path; a path already used in the namespace is 409 on path", async () => {
    const r = await t.call("POST", G("custom"), { body: { path: "my-path" } });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ path: "my-path", fullPath: "acme/my-path" });
    const clash = await t.call("POST", G("clash"), { body: { path: "MY-PATH" } });
    expect(clash.status).toBe(409);
    expect(clash.body.errors).toEqual([
      { field: "path", message: "group path MY-PATH is already used by project custom" },
    ]);
    const reserved = await t.call("POST", G("clash"), { body: { path: "private" } });
    expect(reserved.status).toBe(422);
    expect(reserved.body.errors[0].field).toBe("path");
    const invalid = await t.call("POST", G("clash"), { body: { path: "a/b" } });
    expect(invalid.status).toBe(400);
  });

  it("updates only the given flags", async () => {
    const r = await t.call("PUT", G("tf-a"), { body: { request_access_enabled: true } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ request_access_enabled: true, enable_ci: true });
    const off = await t.call("PUT", G("tf-a"), { body: { enable_ci: false } });
    expect(off.body.data).toMatchObject({ request_access_enabled: true, enable_ci: false });
  });

  it("is written by projects-admin and system-admin only", async () => {
    const member = await t.call("PUT", G("tf-a"), { as: "member", body: { enable_ci: true } });
    expect(member.status).toBe(403);
    const users = await t.call("POST", G("clash"), { as: "users", body: {} });
    expect(users.status).toBe(403);
    const projects = await t.call("POST", G("clash"), { as: "projects", body: {} });
    expect(projects.status).toBe(201);
  });

  it("is invisible to another parent organization (404 both ways)", async () => {
    expect((await t.call("GET", G("tf-a"), { as: "other" })).status).toBe(404);
    expect((await t.call("DELETE", G("tf-a"), { as: "other" })).status).toBe(404);
    expect((await t.call("POST", G("globex-proj"), { body: {} })).status).toBe(404);
    expect((await t.call("POST", G("globex-proj"), { as: "other", body: {} })).status).toBe(201);
  });

  it("delete permanently removes the group, its subgroups and repositories", async () => {
    expect((await t.call("POST", G("doomed"), { body: {} })).status).toBe(201);
    expect((await t.call("POST", SG("doomed"), { body: { subGroups: "a/b" } })).status).toBe(201);
    const repo = await t.call("POST", "/v1/projects/doomed/git/repo", {
      body: { name: "r", repoPathNew: "a/b" },
    });
    expect(repo.status).toBe(201);
    const del = await t.call("DELETE", G("doomed"));
    expect(del.status).toBe(204);
    expect(del.body).toBeUndefined();
    expect((await t.call("GET", G("doomed"))).status).toBe(404);
    const db = t.server.ctx.db;
    expect(
      db.get("SELECT 1 FROM repositories WHERE id = ?", repo.body.data.gitRepoID),
    ).toBeUndefined();
    expect(
      db.all(
        "SELECT * FROM subgroups WHERE path LIKE 'a%' AND group_id NOT IN (SELECT id FROM git_groups)",
      ),
    ).toEqual([]);
    // the project stays and can get a new group
    expect((await t.call("POST", G("doomed"), { body: {} })).status).toBe(201);
    expect((await t.call("GET", "/v1/projects/doomed/git/repo")).body.data).toEqual([]);
  });
});

describe("subgroups", () => {
  let groupId: number;
  beforeAll(async () => {
    groupId = (await t.call("POST", G("subs"), { body: {} })).body.data.id;
  });

  it("creates every missing level of a/b/c and answers each level, top first", async () => {
    const r = await t.call("POST", SG("subs"), { body: { subGroups: "a/b/c" } });
    expect(r.status).toBe(201);
    expect(r.body.status.message).toBe("created a, a/b, a/b/c");
    const [a, b, c] = r.body.data;
    expect(r.body.data.map((s: { path: string }) => s.path)).toEqual(["a", "a/b", "a/b/c"]);
    expect(a).toMatchObject({ name: "a", fullPath: "acme/subs/a", parentId: null });
    expect(b).toMatchObject({ name: "b", parentId: a.id });
    expect(c).toMatchObject({ name: "c", fullPath: "acme/subs/a/b/c", parentId: b.id });
    expect(c.request_access_enabled).toBe(false);
    // groups and subgroups share one id space
    expect([a.id, b.id, c.id]).not.toContain(groupId);
  });

  it("creates only what is missing; a path that fully exists is 409", async () => {
    const r = await t.call("POST", SG("subs"), { body: { subGroups: "a/b/d" } });
    expect(r.status).toBe(201);
    expect(r.body.status.message).toBe("created a/b/d");
    expect(r.body.data.map((s: { path: string }) => s.path)).toEqual(["a", "a/b", "a/b/d"]);
    const dup = await t.call("POST", SG("subs"), { body: { subGroups: "a/b" } });
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual([
      { field: "subGroups", message: "subgroup a/b already exists in project subs" },
    ]);
    const bad = await t.call("POST", SG("subs"), { body: { subGroups: "a//b" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("subGroups");
  });

  it("lists with a path filter (subtree, or strict=1 for that subgroup only)", async () => {
    await t.call("POST", SG("subs"), { body: { subGroups: "ab" } });
    const tree = await t.call("GET", SG("subs"), { as: "member", query: { path: "a/b" } });
    expect(tree.body.data.map((s: { path: string }) => s.path)).toEqual(["a/b", "a/b/c", "a/b/d"]);
    const strict = await t.call("GET", SG("subs"), { query: { path: "a", strict: 1 } });
    expect(strict.body.data.map((s: { path: string }) => s.path)).toEqual(["a"]);
    const under = await t.call("GET", SG("subs"), { query: { path: "/a/" } });
    expect(under.body.data.map((s: { path: string }) => s.path)).not.toContain("ab");
    const none = await t.call("GET", SG("subs"), { query: { path: "zzz" } });
    expect(none.body).toMatchObject({ data: [], pagination: { total: 0 } });
  });

  it("pages by 10 by default; all=true answers everything", async () => {
    // a, a/b, a/b/c, a/b/d, ab and eight more
    for (let i = 0; i < 8; i++) await t.call("POST", SG("subs"), { body: { subGroups: `p${i}` } });
    const first = await t.call("GET", SG("subs"));
    expect(first.body.pagination).toEqual({ page: 1, limit: 10, total: 13, totalPages: 2 });
    expect(first.body.data).toHaveLength(10);
    const second = await t.call("GET", SG("subs"), { query: { page: 2 } });
    expect(second.body.data).toHaveLength(3);
    const all = await t.call("GET", SG("subs"), { query: { all: true } });
    expect(all.body.data).toHaveLength(13);
    expect(all.body.pagination.totalPages).toBe(1);
  });

  it("updates request_access_enabled; the main group and unknown ids are refused", async () => {
    const list = await t.call("GET", SG("subs"), { query: { path: "a", strict: 1 } });
    const a = list.body.data[0];
    const r = await t.call("PUT", `${SG("subs")}/${a.id}`, {
      body: { request_access_enabled: true },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: a.id, path: "a", request_access_enabled: true });
    const main = await t.call("PUT", `${SG("subs")}/${groupId}`, {
      body: { request_access_enabled: true },
    });
    expect(main.status).toBe(422);
    expect(
      (await t.call("PUT", `${SG("subs")}/99999`, { body: { request_access_enabled: true } }))
        .status,
    ).toBe(404);
    const member = await t.call("PUT", `${SG("subs")}/${a.id}`, {
      as: "member",
      body: { request_access_enabled: false },
    });
    expect(member.status).toBe(403);
  });

  it("delete removes deeper subgroups and their repositories, never the main group", async () => {
    const deep = await t.call("POST", "/v1/projects/subs/git/repo", {
      body: { name: "deep", repoPathNew: "a/b/c" },
    });
    const top = await t.call("POST", "/v1/projects/subs/git/repo", { body: { name: "top" } });
    expect(deep.status).toBe(201);
    const b = (await t.call("GET", SG("subs"), { query: { path: "a/b", strict: 1 } })).body.data[0];
    const main = await t.call("DELETE", `${SG("subs")}/${groupId}`);
    expect(main.status).toBe(422);
    expect(main.body.status.message).toContain("main group");
    expect((await t.call("DELETE", `${SG("subs")}/${b.id}`, { as: "other" })).status).toBe(404);
    const del = await t.call("DELETE", `${SG("subs")}/${b.id}`);
    expect(del.status).toBe(204);
    const left = await t.call("GET", SG("subs"), { query: { path: "a" } });
    expect(left.body.data.map((s: { path: string }) => s.path)).toEqual(["a"]);
    expect(
      (await t.call("GET", `/v1/projects/subs/git/repo/${deep.body.data.gitRepoID}`)).status,
    ).toBe(404);
    expect(
      (await t.call("GET", `/v1/projects/subs/git/repo/${top.body.data.gitRepoID}`)).status,
    ).toBe(200);
    expect((await t.call("DELETE", `${SG("subs")}/${b.id}`)).status).toBe(404);
  });

  it("needs the project's group (404) and hides other parent organizations (404)", async () => {
    expect((await t.call("GET", SG("clash"), { as: "member" })).status).toBe(200);
    expect((await t.call("POST", SG("nope"), { body: { subGroups: "x" } })).status).toBe(404);
    expect((await t.call("GET", SG("subs"), { as: "other" })).status).toBe(404);
  });
});

describe("seeding groups and subgroups", () => {
  it("seeds the group settings and every subgroup level", async () => {
    const counts = seed(t.server.ctx, {
      parentOrganization: "acme",
      projects: [
        {
          slug: "seeded-g",
          name: "Seeded",
          visibility: "private",
          git: {
            path: "sg",
            requestAccessEnabled: true,
            enableCi: true,
            subgroups: ["docs", "tools/ci/x"],
          },
        },
      ],
    });
    expect(counts).toMatchObject({ projects: 1, gitGroups: 1, subgroups: 4 });
    const g = await t.call("GET", G("seeded-g"));
    expect(g.body.data).toMatchObject({
      path: "sg",
      fullPath: "acme/private/sg",
      request_access_enabled: true,
      enable_ci: true,
    });
    const s = await t.call("GET", SG("seeded-g"), { query: { all: true } });
    expect(s.body.data.map((x: { path: string }) => x.path)).toEqual([
      "docs",
      "tools",
      "tools/ci",
      "tools/ci/x",
    ]);
  });

  it("applies the API's path rule while seeding, naming the project", () => {
    expect(() =>
      seed(t.server.ctx, {
        parentOrganization: "acme",
        projects: [{ slug: "seeded-clash", name: "X", git: { path: "tf-a" } }],
      }),
    ).toThrow("seed: git of project seeded-clash: group path tf-a is already used by project tf-a");
  });
});
