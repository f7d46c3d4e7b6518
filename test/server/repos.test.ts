import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/seed.js";
import { startServer, type TestServer } from "../helpers/server.js";

const C1 = `abcdef1${"0".repeat(33)}`;
const C2 = `abcdef2${"0".repeat(33)}`;
const C3 = `1234567a${"0".repeat(32)}`;
const C4 = `1234567b${"0".repeat(32)}`;

let t: TestServer;
beforeAll(async () => {
  t = await startServer();
  seed(t.server.ctx, {
    parentOrganization: "acme",
    projects: [
      { slug: "fw", name: "Firmware", git: { subgroups: ["docs", "tools/ci"] } },
      { slug: "no-group", name: "No group yet" },
      { slug: "priv", name: "Private", visibility: "private", git: {} },
      {
        slug: "hist",
        name: "History",
        git: {
          subgroups: ["lib"],
          repositories: [
            {
              name: "core",
              subgroup: "lib",
              sizeBytes: 4096,
              commits: [
                {
                  sha: C1,
                  title: "Initial commit",
                  authorEmail: "ann@example.com",
                  created: "2024-01-01T10:00:00.000Z",
                },
                {
                  sha: C2,
                  title: "Second",
                  authorEmail: "bob@example.com",
                  committerEmail: "ci@example.org",
                  refs: ["main", "v1.0"],
                  created: "2024-01-02T10:00:00.000Z",
                },
                { sha: C3, title: "Third", authorEmail: "ann@example.com" },
                {
                  sha: C4,
                  title: "Fourth",
                  authorEmail: "ann@example.com",
                  refs: ["refs/heads/dev"],
                },
              ],
            },
            {
              name: "gone",
              status: "deleted",
              commits: [{ sha: C1, title: "x", authorEmail: "a@b.cd" }],
            },
            { name: "old", status: "archived" },
          ],
        },
      },
      {
        slug: "hist2",
        name: "History 2",
        git: {
          repositories: [
            { name: "copy", commits: [{ sha: C1, title: "Initial", authorEmail: "a@b.cd" }] },
          ],
        },
      },
    ],
  });
  seed(t.server.ctx, {
    parentOrganization: "globex",
    organizations: [{ name: "globex" }],
    projects: [
      {
        slug: "gx",
        name: "Globex",
        git: {
          repositories: [
            { name: "theirs", commits: [{ sha: C1, title: "x", authorEmail: "a@b.cd" }] },
          ],
        },
      },
    ],
  });
});
afterAll(() => t.close());

const R = (slug: string) => `/v1/projects/${slug}/git/repo`;
const id = (slug: string, name: string) =>
  t.server.ctx.db.get<{ id: number }>(
    `SELECT r.id FROM repositories r JOIN git_groups g ON g.id = r.group_id
     JOIN projects p ON p.id = g.project_id WHERE p.slug = ? AND r.name = ?`,
    slug,
    name,
  )!.id;

describe("repository create and read", () => {
  it("creates with the spec's defaults and clone URLs on the git host", async () => {
    const r = await t.call("POST", R("fw"), { body: { name: "Trusted-Firmware" } });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({
      name: "Trusted-Firmware",
      repoSlug: "trusted-firmware",
      status: "active",
      issueTracking: "disabled",
      mergeRequests: "disabled",
      requiresDCO: false,
      enableLFS: false,
      enableForking: true,
      sshURI: "ssh://git@git.example.org/acme/fw/trusted-firmware.git",
      httpURI: "https://git.example.org/acme/fw/trusted-firmware.git",
      subgroups: "",
      gitSourceRepoID: 0,
      lastPush: null,
      lastPull: null,
      repoSizeBytes: 0,
      commitBlocker: null,
      persistentStorage: null,
    });
    const read = await t.call("GET", `${R("fw")}/${r.body.data.gitRepoID}`, { as: "member" });
    expect(read.body.data).toEqual(r.body.data);
  });

  it("places a repository in an existing subgroup, with its own slug and settings", async () => {
    const r = await t.call("POST", R("fw"), {
      body: {
        name: "pipelines",
        repoSlug: "ci-pipelines",
        repoPathNew: "tools/ci",
        issueTracking: "enabled",
        mergeRequests: "private",
        requiresDCO: true,
        enableLFS: true,
        enableForking: false,
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({
      repoSlug: "ci-pipelines",
      subgroups: "tools/ci",
      sshURI: "ssh://git@git.example.org/acme/fw/tools/ci/ci-pipelines.git",
      issueTracking: "enabled",
      mergeRequests: "private",
      requiresDCO: true,
      enableLFS: true,
      enableForking: false,
    });
    const priv = await t.call("POST", R("priv"), { body: { name: "x", repoPathNew: "" } });
    expect(priv.body.data.sshURI).toBe("ssh://git@git.example.org/acme/private/priv/x.git");
  });

  it("refuses an unknown subgroup (422 on repoPathNew) and a missing git group (404)", async () => {
    const r = await t.call("POST", R("fw"), { body: { name: "x", repoPathNew: "nope/deeper" } });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([
      {
        field: "repoPathNew",
        message: "subgroup nope/deeper does not exist in project fw; create it first",
      },
    ]);
    const ng = await t.call("POST", R("no-group"), { body: { name: "x" } });
    expect(ng.status).toBe(404);
    expect(ng.body.status.message).toBe("git group of project no-group not found");
    const bad = await t.call("POST", R("fw"), { body: { name: "has space" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("name");
  });

  it("keeps names and slugs unique among live repositories of one place (409)", async () => {
    const dup = await t.call("POST", R("fw"), { body: { name: "trusted-firmware" } });
    expect(dup.status).toBe(409);
    expect(dup.body.errors[0].field).toBe("name");
    const slug = await t.call("POST", R("fw"), {
      body: { name: "other", repoSlug: "trusted-firmware" },
    });
    expect(slug.status).toBe(409);
    expect(slug.body.errors[0].field).toBe("repoSlug");
    // the same name in another place is fine
    const elsewhere = await t.call("POST", R("fw"), {
      body: { name: "Trusted-Firmware", repoPathNew: "docs" },
    });
    expect(elsewhere.status).toBe(201);
  });

  it("is written by projects-admin and system-admin; other parent organizations see 404", async () => {
    expect((await t.call("POST", R("fw"), { as: "member", body: { name: "m" } })).status).toBe(403);
    expect((await t.call("POST", R("fw"), { as: "users", body: { name: "m" } })).status).toBe(403);
    expect((await t.call("POST", R("fw"), { as: "projects", body: { name: "m" } })).status).toBe(
      201,
    );
    expect((await t.call("GET", R("fw"), { as: "other" })).status).toBe(404);
    expect((await t.call("GET", `${R("fw")}/${id("fw", "m")}`, { as: "other" })).status).toBe(404);
    // a repository id of another project is not found through this one
    expect((await t.call("GET", `${R("hist")}/${id("fw", "m")}`)).status).toBe(404);
  });
});

describe("repository list, update, delete", () => {
  it("lists live repositories by default; status=deleted and status=archived filter", async () => {
    const live = await t.call("GET", R("hist"), { as: "member" });
    expect(live.body.data.map((r: { name: string }) => r.name)).toEqual(["core", "old"]);
    const deleted = await t.call("GET", R("hist"), { query: { status: "deleted" } });
    expect(deleted.body.data.map((r: { name: string }) => r.name)).toEqual(["gone"]);
    const archived = await t.call("GET", R("hist"), { query: { status: "archived" } });
    expect(archived.body.data.map((r: { name: string }) => r.name)).toEqual(["old"]);
    const bad = await t.call("GET", R("hist"), { query: { status: "weird" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("status");
  });

  it("pages by 10 by default; all=true answers everything", async () => {
    for (let i = 0; i < 11; i++) await t.call("POST", R("priv"), { body: { name: `p${i}` } });
    const first = await t.call("GET", R("priv"));
    expect(first.body.pagination).toEqual({ page: 1, limit: 10, total: 12, totalPages: 2 });
    const second = await t.call("GET", R("priv"), { query: { page: 2, limit: 10 } });
    expect(second.body.data.map((r: { name: string }) => r.name)).toEqual(["p9", "p10"]);
    const all = await t.call("GET", R("priv"), { query: { all: true } });
    expect(all.body.data).toHaveLength(12);
  });

  it("PUT replaces the settings (absent ones take the defaults); name change keeps the slug", async () => {
    const created = await t.call("POST", R("fw"), {
      body: { name: "put-me", issueTracking: "enabled", requiresDCO: true, enableForking: false },
    });
    const rid = created.body.data.gitRepoID;
    const r = await t.call("PUT", `${R("fw")}/${rid}`, {
      body: { name: "renamed", mergeRequests: "enabled" },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      name: "renamed",
      repoSlug: "put-me",
      sshURI: "ssh://git@git.example.org/acme/fw/put-me.git",
      status: "active",
      issueTracking: "disabled",
      mergeRequests: "enabled",
      requiresDCO: false,
      enableForking: true,
    });
  });

  it("PATCH changes only the given fields; archived ↔ active", async () => {
    const created = await t.call("POST", R("fw"), {
      body: { name: "patch-me", requiresDCO: true },
    });
    const rid = created.body.data.gitRepoID;
    const a = await t.call("PATCH", `${R("fw")}/${rid}`, { body: { status: "archived" } });
    expect(a.body.data).toMatchObject({ status: "archived", requiresDCO: true, name: "patch-me" });
    const b = await t.call("PATCH", `${R("fw")}/${rid}`, {
      body: { status: "active", enableLFS: true },
    });
    expect(b.body.data).toMatchObject({ status: "active", requiresDCO: true, enableLFS: true });
    const clash = await t.call("PATCH", `${R("fw")}/${rid}`, {
      body: { name: "Trusted-Firmware" },
    });
    expect(clash.status).toBe(409);
    const deleted = await t.call("PATCH", `${R("fw")}/${rid}`, { body: { status: "deleted" } });
    expect(deleted.status).toBe(400);
    expect((await t.call("PATCH", `${R("fw")}/${rid}`, { as: "member", body: {} })).status).toBe(
      403,
    );
  });

  it("DELETE is a soft delete: gone from the default list, listed with status=deleted, name free", async () => {
    const created = await t.call("POST", R("fw"), { body: { name: "short-lived" } });
    const rid = created.body.data.gitRepoID;
    const del = await t.call("DELETE", `${R("fw")}/${rid}`);
    expect(del.status).toBe(204);
    const all = await t.call("GET", R("fw"), { query: { all: true } });
    expect(all.body.data.map((r: { name: string }) => r.name)).not.toContain("short-lived");
    const deleted = await t.call("GET", R("fw"), { query: { status: "deleted" } });
    expect(deleted.body.data).toEqual([
      expect.objectContaining({ gitRepoID: rid, status: "deleted" }),
    ]);
    expect((await t.call("GET", `${R("fw")}/${rid}`)).body.data.status).toBe("deleted");
    expect((await t.call("DELETE", `${R("fw")}/${rid}`)).status).toBe(404);
    expect((await t.call("PATCH", `${R("fw")}/${rid}`, { body: { enableLFS: true } })).status).toBe(
      404,
    );
    const again = await t.call("POST", R("fw"), { body: { name: "short-lived" } });
    expect(again.status).toBe(201);
    expect(again.body.data.gitRepoID).not.toBe(rid);
  });

  it("cleanup answers {status}", async () => {
    const rid = id("hist", "core");
    const r = await t.call("POST", `${R("hist")}/${rid}/cleanup`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      status: { code: 200, message: `garbage collection of repository ${rid} finished` },
    });
    expect((await t.call("POST", `${R("hist")}/99999/cleanup`)).status).toBe(404);
  });
});

describe("commit blocker", () => {
  const path = () => `${R("hist")}/${id("hist", "core")}/emailcheck`;

  it("enables all domains in one request and shows them on the repository", async () => {
    const r = await t.call("POST", path(), {
      body: {
        emailCheck: [
          { type: "author", domain: "example.com", since: "2024-01-01" },
          { type: "author", domain: "@Example.org" },
          { type: "committer", domain: "example.com", since: "2024-01-01" },
        ],
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.status.message).toContain("2 author and 1 committer");
    const repo = await t.call("GET", `${R("hist")}/${id("hist", "core")}`);
    expect(repo.body.data.commitBlocker).toEqual({
      author: ["example.com", "example.org"],
      committer: ["example.com"],
      since: "2024-01-01",
    });
  });

  it("replaces the whole blocker on the next request", async () => {
    await t.call("POST", path(), {
      body: { emailCheck: [{ type: "committer", domain: "arm.com" }] },
    });
    const repo = await t.call("GET", `${R("hist")}/${id("hist", "core")}`);
    expect(repo.body.data.commitBlocker).toEqual({
      author: [],
      committer: ["arm.com"],
      since: null,
    });
  });

  it("refuses different start dates, bad domains and bad types", async () => {
    const since = await t.call("POST", path(), {
      body: {
        emailCheck: [
          { type: "author", domain: "a.com", since: "2024-01-01" },
          { type: "committer", domain: "a.com", since: "2024-02-01" },
        ],
      },
    });
    expect(since.status).toBe(422);
    expect(since.body.errors[0].field).toBe("emailCheck[1].since");
    const domain = await t.call("POST", path(), {
      body: { emailCheck: [{ type: "author", domain: "not a domain" }] },
    });
    expect(domain.status).toBe(422);
    expect(domain.body.errors[0].field).toBe("emailCheck[0].domain");
    const type = await t.call("POST", path(), {
      body: { emailCheck: [{ type: "x", domain: "a.com" }] },
    });
    expect(type.status).toBe(400);
    const empty = await t.call("POST", path(), { body: { emailCheck: [] } });
    expect(empty.status).toBe(400);
    const member = await t.call("POST", path(), {
      as: "member",
      body: { emailCheck: [{ type: "author", domain: "a.com" }] },
    });
    expect(member.status).toBe(403);
  });

  it("DELETE removes it; without one it is 404", async () => {
    const r = await t.call("DELETE", path());
    expect(r.status).toBe(200);
    expect(
      (await t.call("GET", `${R("hist")}/${id("hist", "core")}`)).body.data.commitBlocker,
    ).toBeNull();
    const again = await t.call("DELETE", path());
    expect(again.status).toBe(404);
    expect(again.body.status.message).toBe(
      `commit blocker of repository ${id("hist", "core")} not found`,
    );
  });
});

describe("commits", () => {
  const base = () => `${R("hist")}/${id("hist", "core")}`;

  it("seeded history shows on the repository (lastPush, size)", async () => {
    const r = await t.call("GET", base());
    expect(r.body.data.repoSizeBytes).toBe(4096);
    expect(r.body.data.lastPush).not.toBeNull();
  });

  it("finds a commit by full sha, unique prefix of 7+, or ref name", async () => {
    const full = await t.call("GET", `${base()}/commit/${C2}`, { as: "member" });
    expect(full.status).toBe(200);
    expect(full.body.data).toEqual({
      id: C2,
      shortId: C2.slice(0, 8),
      title: "Second",
      message: "Second",
      authorName: "bob",
      authorEmail: "bob@example.com",
      committerName: "ci",
      committerEmail: "ci@example.org",
      createdAt: "2024-01-02T10:00:00.000Z",
      parentIds: [C1],
    });
    expect((await t.call("GET", `${base()}/commit/abcdef1`)).body.data.id).toBe(C1);
    expect((await t.call("GET", `${base()}/commit/main`)).body.data.id).toBe(C2);
    expect((await t.call("GET", `${base()}/commit/v1.0`)).body.data.id).toBe(C2);
    expect((await t.call("GET", `${base()}/commit/dev`)).body.data.id).toBe(C4);
    expect((await t.call("GET", `${base()}/commit/HEAD`)).body.data.id).toBe(C4);
  });

  it("an ambiguous prefix is 422, a short or unknown one 404", async () => {
    const amb = await t.call("GET", `${base()}/commit/1234567`);
    expect(amb.status).toBe(422);
    expect(amb.body.status.message).toContain("ambiguous");
    expect((await t.call("GET", `${base()}/commit/abcdef`)).status).toBe(404);
    expect((await t.call("GET", `${base()}/commit/${"f".repeat(40)}`)).status).toBe(404);
    expect((await t.call("GET", `${base()}/commit/${C1}`, { as: "other" })).status).toBe(404);
  });

  it("bulk lookup answers the same nesting, null for what is not found", async () => {
    const r = await t.call("POST", `${base()}/commits`, {
      as: "member",
      body: { shas: [[C1, "main"], [], ["nope", "1234567"]] },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(3);
    expect(r.body.data[0].map((c: { id: string }) => c.id)).toEqual([C1, C2]);
    expect(r.body.data[1]).toEqual([]);
    expect(r.body.data[2]).toEqual([null, null]);
    const bad = await t.call("POST", `${base()}/commits`, { body: {} });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: "shas", message: "is required" }]);
  });

  it("the sha search lists live repositories of the caller's parent organization", async () => {
    const r = await t.call("GET", `/v1/metrics/git/search/${C1}`, { as: "member" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      { projectSlug: "hist", gitRepoID: id("hist", "core"), name: "core" },
      { projectSlug: "hist2", gitRepoID: id("hist2", "copy"), name: "copy" },
    ]);
    const prefix = await t.call("GET", "/v1/metrics/git/search/ABCDEF1");
    expect(prefix.body).toHaveLength(2);
    const other = await t.call("GET", `/v1/metrics/git/search/${C1}`, { as: "other" });
    expect(other.body).toEqual([
      { projectSlug: "gx", gitRepoID: id("gx", "theirs"), name: "theirs" },
    ]);
    expect((await t.call("GET", `/v1/metrics/git/search/${C3}`)).body).toHaveLength(1);
    const bad = await t.call("GET", "/v1/metrics/git/search/xyz");
    expect(bad.status).toBe(400);
  });
});

describe("seeding repositories", () => {
  it("seeds settings, status, forks, blockers, storage, in the right subgroup", async () => {
    const counts = seed(t.server.ctx, {
      parentOrganization: "acme",
      projects: [
        {
          slug: "seeded-r",
          name: "Seeded",
          git: {
            repositories: [
              { name: "base", subgroup: "a/b", issueTracking: "private", enableLFS: true },
              {
                name: "fork",
                forkOf: { project: "seeded-r", subgroup: "a/b", name: "base" },
                commitBlocker: { author: ["x.com"], since: "2025-01-01" },
                persistentStorage: true,
              },
              { name: "hist-fork", forkOf: { project: "hist", subgroup: "lib", name: "core" } },
            ],
          },
        },
      ],
    });
    expect(counts).toMatchObject({
      gitGroups: 1,
      subgroups: 2,
      repositories: 3,
      commitBlockers: 1,
      persistentStorage: 1,
    });
    const list = (await t.call("GET", R("seeded-r"))).body.data;
    expect(list[0]).toMatchObject({
      name: "base",
      subgroups: "a/b",
      issueTracking: "private",
      enableLFS: true,
    });
    expect(list[1]).toMatchObject({
      gitSourceRepoID: list[0].gitRepoID,
      commitBlocker: { author: ["x.com"], committer: [], since: "2025-01-01" },
      persistentStorage: { filesystemId: expect.any(Number), status: "active" },
    });
    expect(list[2].gitSourceRepoID).toBe(id("hist", "core"));
  });

  it("names the repository when a fork source was not seeded", () => {
    expect(() =>
      seed(t.server.ctx, {
        parentOrganization: "acme",
        projects: [
          {
            slug: "seeded-bad",
            name: "Bad",
            git: { repositories: [{ name: "f", forkOf: { project: "nope", name: "x" } }] },
          },
        ],
      }),
    ).toThrow(
      "seed: git of project seeded-bad: repository f: fork source nope/x was not seeded before",
    );
  });

  it("seeds 20,000 repositories in a few seconds", () => {
    const projects = Array.from({ length: 2000 }, (_, i) => ({
      slug: `bulk-${i}`,
      name: `Bulk ${i}`,
      git: {
        subgroups: ["docs"],
        repositories: Array.from({ length: 10 }, (_, j) => ({
          name: `repo-${j}`,
          subgroup: j % 2 ? "docs" : "",
        })),
      },
    }));
    const started = performance.now();
    const counts = seed(t.server.ctx, { parentOrganization: "acme", projects });
    const ms = performance.now() - started;
    expect(counts.repositories).toBe(20_000);
    // generous: the CI machine is shared; a quadratic step would take minutes
    expect(ms).toBeLessThan(20_000);
  });
});
