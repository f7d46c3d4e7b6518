import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/seed.js";
import { verifyJwt } from "../../src/server/routes/projects/jwt.js";
import { startServer, type TestServer } from "../helpers/server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startServer();
  seed(t.server.ctx, {
    parentOrganization: "acme",
    projects: [
      { slug: "lic", name: "Licensed" },
      { slug: "wik", name: "Wiki" },
      {
        slug: "ci",
        name: "CI",
        pipelines: [
          {
            status: "success",
            ref: "main",
            sha: "a".repeat(40),
            created: "2024-03-01T10:00:00.000Z",
            duration: 100,
            jobs: [
              { name: "build", stage: "build", status: "success", duration: 60 },
              { name: "test", stage: "test", status: "success", duration: 40 },
            ],
          },
          {
            status: "failed",
            ref: "main",
            created: "2024-03-02T10:00:00.000Z",
            duration: 30,
            jobs: [{ name: "build", stage: "build", status: "failed", duration: 30 }],
          },
          { status: "success", ref: "dev", created: "2024-03-03T23:59:00.000Z", duration: 50 },
          { status: "running", ref: "dev", created: "2024-03-04T08:00:00.000Z" },
        ],
      },
      { slug: "arc", name: "To archive" },
      { slug: "arc2", name: "Also archived", status: "archived" },
      { slug: "taken", name: "Taken" },
    ],
  });
  seed(t.server.ctx, { parentOrganization: "globex", projects: [{ slug: "gx", name: "GX" }] });
});
afterAll(() => t.close());

const slugs = (items: { projectSlug: string }[]) => items.map((p) => p.projectSlug);

describe("project licenses", () => {
  it("adds catalogue licenses and lists them sorted", async () => {
    const r = await t.call("POST", "/v1/projects/lic/licenses/MIT");
    expect(r.status).toBe(201);
    expect(r.body.status.message).toBe("license MIT added to project lic");
    expect(r.body.data).toEqual([
      { name: "MIT", title: "MIT License", url: "https://spdx.org/licenses/MIT.html" },
    ]);
    await t.call("POST", "/v1/projects/lic/licenses/Apache-2.0", { as: "projects" });
    const list = await t.call("GET", "/v1/projects/lic/licenses", { as: "member" });
    expect(list.body.map((l: { name: string }) => l.name)).toEqual(["Apache-2.0", "MIT"]);
  });

  it("rejects a license outside the catalogue (422) and a second add (409)", async () => {
    const r = await t.call("POST", "/v1/projects/lic/licenses/WTFPL");
    expect(r.status).toBe(422);
    expect(r.body.status.message).toBe(
      "license WTFPL does not exist; new licenses come by support ticket",
    );
    const again = await t.call("POST", "/v1/projects/lic/licenses/MIT");
    expect(again.status).toBe(409);
  });

  it("removes; 404 when not assigned", async () => {
    const r = await t.call("DELETE", "/v1/projects/lic/licenses/MIT");
    expect(r.status).toBe(200);
    expect(r.body.status.message).toBe("license MIT removed from project lic");
    expect((await t.call("DELETE", "/v1/projects/lic/licenses/MIT")).status).toBe(404);
    expect((await t.call("DELETE", "/v1/projects/lic/licenses/WTFPL")).status).toBe(404);
    const list = await t.call("GET", "/v1/projects/lic/licenses");
    expect(list.body.map((l: { name: string }) => l.name)).toEqual(["Apache-2.0"]);
  });

  it("role matrix and isolation", async () => {
    expect((await t.call("POST", "/v1/projects/lic/licenses/ISC", { as: "member" })).status).toBe(
      403,
    );
    expect((await t.call("POST", "/v1/projects/lic/licenses/ISC", { as: "users" })).status).toBe(
      403,
    );
    expect((await t.call("GET", "/v1/projects/lic/licenses", { as: "other" })).status).toBe(404);
  });
});

describe("project wiki (deprecated)", () => {
  it("creates once, reads, and deletes; every answer is marked deprecated", async () => {
    expect((await t.call("GET", "/v1/projects/wik/wiki")).status).toBe(404);
    const r = await t.call("POST", "/v1/projects/wik/wiki");
    expect(r.status).toBe(201);
    expect(r.headers.deprecation).toBeDefined();
    expect(r.body.data).toMatchObject({
      projectSlug: "wik",
      spaceKey: "WIK",
      url: "https://wiki.example.org/spaces/WIK",
    });
    expect((await t.call("POST", "/v1/projects/wik/wiki")).status).toBe(409);
    const got = await t.call("GET", "/v1/projects/wik/wiki", { as: "member" });
    expect(got.body.data).toEqual(r.body.data);
    expect((await t.call("GET", "/v1/projects/wik/wiki", { as: "other" })).status).toBe(404);
    expect((await t.call("DELETE", "/v1/projects/wik/wiki", { as: "member" })).status).toBe(403);
    expect((await t.call("DELETE", "/v1/projects/wik/wiki")).status).toBe(200);
    expect((await t.call("DELETE", "/v1/projects/wik/wiki")).status).toBe(404);
  });

  it("issues a signed 12-hour JWT for the project's space", async () => {
    expect((await t.call("POST", "/v1/projects/wik/wiki/token")).status).toBe(404);
    await t.call("POST", "/v1/projects/wik/wiki");
    const before = Date.now();
    const r = await t.call("POST", "/v1/projects/wik/wiki/token", { as: "projects" });
    expect(r.status).toBe(200);
    const { token, expiresAt } = r.body.data;
    expect(token.split(".")).toHaveLength(3);
    const header = JSON.parse(Buffer.from(token.split(".")[0], "base64url").toString());
    expect(header).toEqual({ alg: "HS256", typ: "JWT" });
    const claims = verifyJwt(t.server.ctx.db, token)!;
    expect(claims).toMatchObject({ sub: "wik", scope: "wiki:project" });
    expect((claims.exp as number) * 1000).toBe(Date.parse(expiresAt));
    const twelveHours = 12 * 3600 * 1000;
    expect(Date.parse(expiresAt)).toBeGreaterThanOrEqual(before + twelveHours - 1000);
    expect(Date.parse(expiresAt)).toBeLessThanOrEqual(Date.now() + twelveHours);
    // a tampered token does not verify
    expect(verifyJwt(t.server.ctx.db, `${token.slice(0, -2)}xx`)).toBeUndefined();
    expect((await t.call("POST", "/v1/projects/wik/wiki/token", { as: "member" })).status).toBe(
      403,
    );
  });

  it("issues the organization-wide JWT to system admins only", async () => {
    const r = await t.call("POST", "/v1/organizations/wiki");
    expect(r.status).toBe(200);
    expect(verifyJwt(t.server.ctx.db, r.body.data.token)).toMatchObject({
      sub: "acme",
      scope: "wiki:organization",
    });
    const p = await t.call("POST", "/v1/organizations/wiki", { as: "projects" });
    expect(p.status).toBe(403);
  });
});

describe("pipelines and CI metrics", () => {
  it("lists pipelines newest first", async () => {
    const r = await t.call("GET", "/v1/projects/ci/pipelines", { as: "member" });
    expect(r.status).toBe(200);
    expect(r.body.map((p: { ref: string; status: string }) => p.status)).toEqual([
      "running",
      "success",
      "failed",
      "success",
    ]);
    expect(r.body[3]).toMatchObject({
      sha: "a".repeat(40),
      createdAt: "2024-03-01T10:00:00.000Z",
      finishedAt: "2024-03-01T10:01:40.000Z",
      duration: 100,
      bundleId: null,
    });
    expect(r.body[0].finishedAt).toBeNull();
  });

  it("filters by date (a date alone covers its whole day) and pages", async () => {
    const r = await t.call("GET", "/v1/projects/ci/pipelines", {
      query: { startDate: "2024-03-02", endDate: "2024-03-03" },
    });
    expect(r.body.map((p: { createdAt: string }) => p.createdAt)).toEqual([
      "2024-03-03T23:59:00.000Z",
      "2024-03-02T10:00:00.000Z",
    ]);
    const page = await t.call("GET", "/v1/projects/ci/pipelines", { query: { page: 2, limit: 3 } });
    expect(page.body).toHaveLength(1);
    expect(page.body[0].createdAt).toBe("2024-03-01T10:00:00.000Z");
    const bad = await t.call("GET", "/v1/projects/ci/pipelines", { query: { startDate: "soon" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("startDate");
    const reversed = await t.call("GET", "/v1/projects/ci/pipelines", {
      query: { startDate: "2024-03-05", endDate: "2024-03-01" },
    });
    expect(reversed.status).toBe(400);
  });

  it("lists the jobs of a pipeline; 404 for a pipeline of another project", async () => {
    const list = await t.call("GET", "/v1/projects/ci/pipelines");
    const first = list.body[3];
    const r = await t.call("GET", `/v1/projects/ci/pipelines/${first.id}`);
    expect(r.status).toBe(200);
    expect(r.body.map((j: { name: string }) => j.name)).toEqual(["build", "test"]);
    expect(r.body[0]).toMatchObject({
      pipelineId: first.id,
      stage: "build",
      status: "success",
      duration: 60,
    });
    expect((await t.call("GET", `/v1/projects/lic/pipelines/${first.id}`)).status).toBe(404);
    expect(
      (await t.call("GET", `/v1/projects/ci/pipelines/${first.id}`, { as: "other" })).status,
    ).toBe(404);
  });

  it("answers the metrics pipelines and counts", async () => {
    const all = await t.call("GET", "/v1/metrics/projects/ci/ci/pipelines");
    expect(all.body).toHaveLength(4);
    const counts = await t.call("GET", "/v1/metrics/projects/ci/ci/pipelines/counts");
    expect(counts.body).toEqual([{ totalDuration: 180, successful: 2, failed: 1, total: 4 }]);
    const march2 = await t.call("GET", "/v1/metrics/projects/ci/ci/pipelines/counts", {
      query: { startDate: "2024-03-02", endDate: "2024-03-02" },
    });
    expect(march2.body).toEqual([{ totalDuration: 30, successful: 0, failed: 1, total: 1 }]);
    expect((await t.call("GET", "/v1/metrics/projects/gx/ci/pipelines")).status).toBe(404);
  });
});

describe("archiving", () => {
  it("archives a project (201) once; 409 the second time", async () => {
    const r = await t.call("POST", "/v1/projects/arc/git/bundles/archive", { as: "projects" });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({
      projectSlug: "arc",
      name: "To archive",
      organization: "acme",
    });
    expect(Date.parse(r.body.data.archivedAt)).not.toBeNaN();
    const again = await t.call("POST", "/v1/projects/arc/git/bundles/archive");
    expect(again.status).toBe(409);
    expect(again.body.status.message).toBe("project arc is already archived");
    expect((await t.call("GET", "/v1/projects/arc")).body.data.status).toBe("archived");
    expect(
      (await t.call("POST", "/v1/projects/lic/git/bundles/archive", { as: "member" })).status,
    ).toBe(403);
  });

  it("lists the archived projects of the parent organization", async () => {
    const r = await t.call("GET", "/v1/projects/lic/git/bundles/archive", { as: "member" });
    expect(r.status).toBe(200);
    expect(slugs(r.body.data).sort()).toEqual(["arc", "arc2"]);
    const other = await t.call("GET", "/v1/projects/gx/git/bundles/archive", { as: "other" });
    expect(other.body.data).toEqual([]);
  });

  it("restores in place when the path names the archived project", async () => {
    const r = await t.call("POST", "/v1/projects/arc/git/bundles/restore", {
      body: { oldproject: "arc" },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ projectSlug: "arc", status: "active" });
    const again = await t.call("POST", "/v1/projects/arc/git/bundles/restore", {
      body: { oldproject: "arc" },
    });
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual([
      { field: "oldproject", message: "project arc is not an archived project" },
    ]);
  });

  it("restores under another slug; a taken slug is 409", async () => {
    const taken = await t.call("POST", "/v1/projects/taken/git/bundles/restore", {
      body: { oldproject: "arc2" },
    });
    expect(taken.status).toBe(409);
    const r = await t.call("POST", "/v1/projects/arc2-restored/git/bundles/restore", {
      body: { oldproject: "arc2" },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ projectSlug: "arc2-restored", status: "active" });
    expect((await t.call("GET", "/v1/projects/arc2")).status).toBe(404);
  });

  it("rejects unknown or foreign projects as oldproject (422)", async () => {
    const r = await t.call("POST", "/v1/projects/nope/git/bundles/restore", {
      body: { oldproject: "nope" },
    });
    expect(r.status).toBe(422);
    const foreign = await t.call("POST", "/v1/projects/gx/git/bundles/restore", {
      body: { oldproject: "gx" },
    });
    expect(foreign.status).toBe(422);
    const missing = await t.call("POST", "/v1/projects/arc/git/bundles/restore", { body: {} });
    expect(missing.status).toBe(400);
  });
});
