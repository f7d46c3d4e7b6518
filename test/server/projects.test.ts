import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/seed.js";
import { startServer, type TestServer } from "../helpers/server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startServer();
  seed(t.server.ctx, {
    parentOrganization: "acme",
    organizations: [
      { name: "partner", parent: "acme" },
      { name: "closed", parent: "acme", allowExternalContribution: false },
    ],
    users: ["ann", "bob", "cy"].map((u) => ({
      username: u,
      firstName: u,
      lastName: "Doe",
      externalEmail: `${u}@example.com`,
    })),
    orgTeams: [{ organization: "acme", name: "Core", path: "acme/core" }],
  });
});
afterAll(() => t.close());

const create = (body: Record<string, unknown>, as: "admin" | "projects" | "member" = "admin") =>
  t.call("POST", "/v1/projects", { body, as });

describe("projects.create", () => {
  it("creates with defaults and answers the full detail", async () => {
    const r = await create({ name: "Alpha", description: "first", projectSlug: "alpha" });
    expect(r.status).toBe(201);
    expect(r.body.status).toEqual({ code: 201, message: "project alpha created" });
    expect(r.body.data).toMatchObject({
      projectSlug: "alpha",
      name: "Alpha",
      description: "first",
      visibility: "public",
      status: "active",
      restrictionLevel: "",
      externalContribution: false,
      eccn: "",
      parentOrganization: "acme",
      organization: "acme",
      licenses: [],
      links: { gitGroup: null, sshGroup: null },
    });
    expect(r.body.data.id).toBeGreaterThan(0);
    expect(r.body.data.roles).toEqual({
      admins: [],
      controllers: [],
      editors: [],
      maintainers: [],
      developers: [],
      reporters: [],
      organizationTeams: { maintainers: [], developers: [], reporters: [] },
    });
  });

  it("derives the slug from the name", async () => {
    const r = await create({ name: "  My Great_Project!! v2 ", description: "" });
    expect(r.status).toBe(201);
    expect(r.body.data.projectSlug).toBe("my-great-project-v2");
  });

  it("rejects a name that gives no slug, naming projectSlug", async () => {
    const r = await create({ name: "!!!", description: "" });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].field).toBe("projectSlug");
  });

  it("answers 409 for a slug in use (explicit or derived)", async () => {
    const r = await create({ name: "Alpha", description: "again" });
    expect(r.status).toBe(409);
    expect(r.body.errors).toEqual([
      { field: "projectSlug", message: "project alpha already exists" },
    ]);
  });

  it("reserves the slug systems", async () => {
    const r = await create({ name: "Systems", description: "" });
    expect(r.status).toBe(422);
    expect(r.body.status.message).toBe("project slug systems is reserved");
  });

  it("validates the body (400 with fields)", async () => {
    const r = await create({ name: "X", description: "", projectSlug: "Bad Slug", status: "x" });
    expect(r.status).toBe(400);
    const fields = r.body.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(["projectSlug", "status"]));
  });

  it("places the project in a customer organization of the parent", async () => {
    const r = await create({
      name: "Beta",
      description: "",
      organization: "partner",
      visibility: "private",
      eccn: "5D002",
      externalContribution: true,
    });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({
      organization: "partner",
      parentOrganization: "acme",
      visibility: "private",
      eccn: "5D002",
      externalContribution: true,
    });
  });

  it("rejects an unknown organization or one of another parent (422)", async () => {
    const unknown = await create({ name: "G1", description: "", organization: "nowhere" });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].field).toBe("organization");
    const foreign = await create({ name: "G2", description: "", organization: "globex" });
    expect(foreign.status).toBe(422);
  });

  it("allows externalContribution only where the organization allows it", async () => {
    const r = await create({
      name: "Gamma",
      description: "",
      organization: "closed",
      externalContribution: true,
    });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([
      {
        field: "externalContribution",
        message: "organization closed does not allow external contributions",
      },
    ]);
    const ok = await create({ name: "Gamma", description: "", organization: "closed" });
    expect(ok.status).toBe(201);
  });

  it("needs projects-admin or system-admin", async () => {
    const m = await create({ name: "Nope", description: "" }, "member");
    expect(m.status).toBe(403);
    const u = await t.call("POST", "/v1/projects", {
      as: "users",
      body: { name: "Nope", description: "" },
    });
    expect(u.status).toBe(403);
    const p = await create({ name: "By Projects Admin", description: "" }, "projects");
    expect(p.status).toBe(201);
  });
});

describe("projects.get, replace, patch", () => {
  it("reads the detail with roles, licenses and git links", async () => {
    await create({ name: "Delta", description: "d", projectSlug: "delta", visibility: "private" });
    const ctx = t.server.ctx;
    const id = ctx.db.get<{ id: number }>("SELECT id FROM projects WHERE slug = 'delta'")!.id;
    // Links appear once the git group exists (the git section creates it).
    ctx.db.run(
      "INSERT INTO git_groups (project_id, path, created) VALUES (?, 'delta', '2024-01-01T00:00:00.000Z')",
      id,
    );
    await t.call("POST", "/v1/projects/delta/admins/users/bob");
    await t.call("POST", "/v1/projects/delta/admins/users/ann");
    await t.call("POST", "/v1/projects/delta/licenses/MIT");
    await t.call("POST", "/v1/projects/delta/licenses/Apache-2.0");
    const r = await t.call("GET", "/v1/projects/delta", { as: "member" });
    expect(r.status).toBe(200);
    expect(r.body.data.roles.admins).toEqual(["ann", "bob"]);
    expect(r.body.data.licenses).toEqual(["Apache-2.0", "MIT"]);
    expect(r.body.data.links).toEqual({
      gitGroup: "https://git.example.org/acme/private/delta",
      sshGroup: "ssh://git@git.example.org/acme/private/delta",
    });
  });

  it("answers 404 for an unknown project and for another parent's project", async () => {
    expect((await t.call("GET", "/v1/projects/nope")).status).toBe(404);
    const other = await t.call("GET", "/v1/projects/alpha", { as: "other" });
    expect(other.status).toBe(404);
    expect(other.body.status.message).toBe("project alpha not found");
    const patch = await t.call("PATCH", "/v1/projects/alpha", { as: "other", body: { name: "x" } });
    expect(patch.status).toBe(404);
  });

  it("patches only the fields sent", async () => {
    const r = await t.call("PATCH", "/v1/projects/alpha", {
      body: { description: "patched", restrictionLevel: "read-only" },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      name: "Alpha",
      description: "patched",
      restrictionLevel: "read-only",
    });
  });

  it("replaces with PUT; absent fields keep their value", async () => {
    const r = await t.call("PUT", "/v1/projects/alpha", {
      as: "projects",
      body: { name: "Alpha Two", externalContribution: true },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      name: "Alpha Two",
      description: "patched",
      restrictionLevel: "read-only",
      externalContribution: true,
    });
  });

  it("refuses to change the slug or the visibility (422 naming each)", async () => {
    const r = await t.call("PATCH", "/v1/projects/alpha", {
      body: { projectSlug: "beta2", visibility: "private" },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      "projectSlug",
      "visibility",
    ]);
    expect((await t.call("GET", "/v1/projects/alpha")).body.data.visibility).toBe("public");
  });

  it("keeps the external-contribution rule on update", async () => {
    const r = await t.call("PATCH", "/v1/projects/gamma", { body: { externalContribution: true } });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].field).toBe("externalContribution");
    const off = await t.call("PATCH", "/v1/projects/gamma", {
      body: { externalContribution: false },
    });
    expect(off.status).toBe(200);
  });

  it("members may not update", async () => {
    const r = await t.call("PUT", "/v1/projects/alpha", { as: "member", body: { name: "x" } });
    expect(r.status).toBe(403);
  });
});

describe("projects.list", () => {
  beforeAll(async () => {
    for (let i = 0; i < 12; i++)
      await create({
        name: `List ${i}`,
        description: i % 2 ? "odd one" : "even one",
        projectSlug: `list-${String(i).padStart(2, "0")}`,
        ...(i === 3 ? { organization: "partner" } : {}),
      });
  });

  it("pages slim items ordered by slug (default 10)", async () => {
    const r = await t.call("GET", "/v1/projects", { as: "member" });
    expect(r.status).toBe(200);
    expect(r.body.pagination.limit).toBe(10);
    expect(r.body.data).toHaveLength(10);
    const slugs = r.body.data.map((p: { projectSlug: string }) => p.projectSlug);
    expect(slugs).toEqual([...slugs].sort());
    expect(Object.keys(r.body.data[0]).sort()).toEqual(
      ["description", "id", "name", "organization", "projectSlug", "status", "visibility"].sort(),
    );
    const total = r.body.pagination.total;
    const all = await t.call("GET", "/v1/projects", { query: { all: true } });
    expect(all.body.data).toHaveLength(total);
    const p2 = await t.call("GET", "/v1/projects", { query: { page: 2, limit: 5 } });
    expect(p2.body.data.map((p: { projectSlug: string }) => p.projectSlug)).toEqual(
      all.body.data.slice(5, 10).map((p: { projectSlug: string }) => p.projectSlug),
    );
  });

  it("filters by keyword in name or description", async () => {
    const r = await t.call("GET", "/v1/projects", { query: { query: "ODD", all: true } });
    expect(r.body.data).toHaveLength(6);
    const byName = await t.call("GET", "/v1/projects", { query: { query: "list 1", all: true } });
    expect(byName.body.data.map((p: { projectSlug: string }) => p.projectSlug)).toEqual([
      "list-01",
      "list-10",
      "list-11",
    ]);
    const wild = await t.call("GET", "/v1/projects", { query: { query: "%", all: true } });
    expect(wild.body.data).toHaveLength(0);
  });

  it("filters by organization and status", async () => {
    const r = await t.call("GET", "/v1/projects", {
      query: { organization: "partner", all: true },
    });
    expect(r.body.data.map((p: { projectSlug: string }) => p.projectSlug).sort()).toEqual([
      "beta",
      "list-03",
    ]);
    t.server.ctx.db.run("UPDATE projects SET status = 'inactive' WHERE slug = 'list-05'");
    const inactive = await t.call("GET", "/v1/projects", { query: { status: "inactive" } });
    expect(inactive.body.data.map((p: { projectSlug: string }) => p.projectSlug)).toEqual([
      "list-05",
    ]);
    const bad = await t.call("GET", "/v1/projects", { query: { status: "gone" } });
    expect(bad.status).toBe(400);
  });

  it("shows another parent organization nothing of acme", async () => {
    const r = await t.call("GET", "/v1/projects", { as: "other", query: { all: true } });
    expect(r.body.data).toEqual([]);
  });
});

describe("seeding projects", () => {
  it("seeds projects with access, org teams, licenses, wiki and team links", async () => {
    const counts = seed(t.server.ctx, {
      parentOrganization: "acme",
      teams: [{ name: "seeders", members: ["ann"], projects: ["seeded"] }],
      projects: [
        {
          slug: "seeded",
          name: "Seeded",
          organization: "partner",
          visibility: "private",
          licenses: ["MIT"],
          access: { admins: ["cy"], developers: ["bob", "ann"] },
          orgTeams: { reporters: ["acme/core"] },
          wiki: true,
        },
        { slug: "seeded-archived", name: "Old", status: "archived" },
      ],
    });
    expect(counts).toMatchObject({
      projects: 2,
      projectAccess: 3,
      projectOrgTeams: 1,
      projectLicenses: 1,
      wikis: 1,
      teamProjects: 1,
    });
    const r = await t.call("GET", "/v1/projects/seeded");
    expect(r.body.data).toMatchObject({
      organization: "partner",
      visibility: "private",
      licenses: ["MIT"],
      roles: {
        admins: ["cy"],
        developers: ["ann", "bob"],
        organizationTeams: { reporters: ["acme/core"] },
      },
    });
    expect((await t.call("GET", "/v1/projects/seeded/wiki")).status).toBe(200);
    const team = await t.call("GET", "/v1/teams/seeders/projects", {
      query: { parentOrganization: "acme" },
    });
    expect(team.body.map((p: { projectSlug: string }) => p.projectSlug)).toEqual(["seeded"]);
    const archived = await t.call("GET", "/v1/projects", { query: { status: "archived" } });
    expect(archived.body.data.map((p: { projectSlug: string }) => p.projectSlug)).toContain(
      "seeded-archived",
    );
  });

  it("names the object when a seed is wrong, and inserts nothing", () => {
    const before = t.server.ctx.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM projects")!.n;
    expect(() =>
      seed(t.server.ctx, {
        projects: [
          { slug: "fine", name: "Fine" },
          { slug: "broken", name: "Broken", access: { admins: ["ghost"] } },
        ],
      }),
    ).toThrow("seed: project broken: user ghost does not exist");
    expect(() => seed(t.server.ctx, { projects: [{ slug: "alpha", name: "Dup" }] })).toThrow(
      "seed: project alpha: project alpha already exists",
    );
    expect(() =>
      seed(t.server.ctx, {
        projects: [{ slug: "x1", name: "X", organization: "closed", externalContribution: true }],
      }),
    ).toThrow("does not allow external contributions");
    const after = t.server.ctx.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM projects")!.n;
    expect(after).toBe(before);
  });

  it("seeds 2,000 projects with access lists in about a second", async () => {
    const users = Array.from({ length: 200 }, (_, i) => ({
      username: `bulk${i}`,
      firstName: "B",
      lastName: String(i),
      externalEmail: `bulk${i}@example.com`,
    }));
    const projects = Array.from({ length: 2000 }, (_, i) => ({
      slug: `bulk-${i}`,
      name: `Bulk ${i}`,
      licenses: ["Apache-2.0"],
      access: {
        admins: [`bulk${i % 200}`],
        maintainers: [`bulk${(i + 1) % 200}`, `bulk${(i + 2) % 200}`],
        developers: [`bulk${(i + 3) % 200}`, `bulk${(i + 4) % 200}`, `bulk${(i + 5) % 200}`],
        reporters: [`bulk${(i + 6) % 200}`],
      },
      orgTeams: { developers: ["acme/core"] },
    }));
    seed(t.server.ctx, { parentOrganization: "acme", users });
    const started = performance.now();
    const counts = seed(t.server.ctx, { parentOrganization: "acme", projects });
    const ms = performance.now() - started;
    expect(counts.projects).toBe(2000);
    expect(counts.projectAccess).toBe(14000);
    expect(ms).toBeLessThan(2500);
    const r = await t.call("GET", "/v1/projects/bulk-1999");
    expect(r.body.data.roles.developers).toEqual(["bulk2", "bulk3", "bulk4"]);
  });
});
