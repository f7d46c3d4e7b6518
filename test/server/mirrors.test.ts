import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server.js";
import { seedProjects } from "../helpers/artifact-projects.js";
import type { SeedMirror } from "../../src/server/seed.js";

let t: TestServer;
const M = (slug: string) => `/v1/projects/${slug}/git/mirrors`;
const body = (n: number | string, extra: Record<string, unknown> = {}) => ({
  repoURLFrom: `https://github.com/example/r${n}.git`,
  repoURLTo: `ssh://git@git.example.org/acme/tf-a/r${n}.git`,
  refSpaceFrom: "refs/heads/*",
  refSpaceTo: "refs/heads/*",
  frequency: "daily",
  ...extra,
});

beforeAll(async () => {
  t = await startServer();
  seedProjects(t, [
    { slug: "tf-a", name: "TF-A" },
    { slug: "mbed", name: "Mbed" },
  ]);
  seedProjects(t, [{ slug: "globex-p", name: "Globex" }], "globex");
});
afterAll(() => t.close());

async function create(slug: string, b: Record<string, unknown>) {
  const r = await t.call("POST", M(slug), { body: b });
  expect(r.status).toBe(201);
  return r.body.data as { mirrorID: string; [k: string]: unknown };
}

describe("mirror create", () => {
  it("creates a pending, enabled mirror with an id and stored e-mails", async () => {
    const r = await t.call("POST", M("tf-a"), {
      body: body(1, { notificationEmails: ["ops@example.org"] }),
    });
    expect(r.status).toBe(201);
    expect(r.body.status.code).toBe(201);
    expect(r.body.data).toMatchObject({
      repoURLFrom: "https://github.com/example/r1.git",
      repoURLTo: "ssh://git@git.example.org/acme/tf-a/r1.git",
      refSpaceFrom: "refs/heads/*",
      frequency: "daily",
      excludeTags: false,
      notificationEmails: ["ops@example.org"],
      status: "pending",
      enabled: true,
      notes: "",
      statusCode: null,
      lastRun: null,
    });
    expect(r.body.data.mirrorID).toMatch(/^\d+$/);
    const got = await t.call("GET", `${M("tf-a")}/${r.body.data.mirrorID}`, { as: "member" });
    expect(got.body.data).toEqual(r.body.data);
  });

  it("accepts ssh and scp-like addresses", async () => {
    const m = await create(
      "tf-a",
      body(2, {
        repoURLFrom: "ssh://git@github.com/x/y.git",
        repoURLTo: "git@git.example.org:acme/y.git",
        excludeTags: true,
      }),
    );
    expect(m).toMatchObject({ repoURLTo: "git@git.example.org:acme/y.git", excludeTags: true });
  });

  it("needs an ssh destination and an http(s) or ssh source (422 naming the field)", async () => {
    const to = await t.call("POST", M("tf-a"), {
      body: body(3, { repoURLTo: "https://git.example.org/acme/tf-a/r3.git" }),
    });
    expect(to.status).toBe(422);
    expect(to.body.errors[0].field).toBe("repoURLTo");
    expect(to.body.status.message).toContain("must be an ssh URL");
    const from = await t.call("POST", M("tf-a"), {
      body: body(3, { repoURLFrom: "ftp://example.org/r.git" }),
    });
    expect(from.status).toBe(422);
    expect(from.body.errors[0].field).toBe("repoURLFrom");
    const scpNoPath = await t.call("POST", M("tf-a"), {
      body: body(3, { repoURLTo: "git@host:" }),
    });
    expect(scpNoPath.status).toBe(422);
  });

  it("validates the body against the schema (400)", async () => {
    const freq = await t.call("POST", M("tf-a"), { body: body(4, { frequency: "hourly" }) });
    expect(freq.status).toBe(400);
    expect(freq.body.errors.map((e: { field: string }) => e.field)).toContain("frequency");
    const missing: Record<string, unknown> = body(4);
    delete missing.refSpaceTo;
    const req = await t.call("POST", M("tf-a"), { body: missing });
    expect(req.status).toBe(400);
    expect(req.body.errors).toContainEqual({ field: "refSpaceTo", message: "is required" });
    const mail = await t.call("POST", M("tf-a"), {
      body: body(4, { notificationEmails: ["not-an-email"] }),
    });
    expect(mail.status).toBe(400);
  });

  it("refuses a second mirror with the same source and destination (409)", async () => {
    await create("tf-a", body(5));
    const again = await t.call("POST", M("tf-a"), { body: body(5, { frequency: "weekly" }) });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].field).toBe("repoURLTo");
    // the same pair in another project is fine
    await create("mbed", body(5));
  });

  it("404 for an unknown project", async () => {
    const r = await t.call("POST", M("nope"), { body: body(6) });
    expect(r.status).toBe(404);
    expect(r.body.status.message).toBe("project nope not found");
  });

  it("only projects-admin and system-admin may create", async () => {
    for (const who of ["member", "users"] as const) {
      const r = await t.call("POST", M("tf-a"), { as: who, body: body(`role-${who}`) });
      expect(r.status).toBe(403);
    }
    const ok = await t.call("POST", M("tf-a"), { as: "projects", body: body("role-p") });
    expect(ok.status).toBe(201);
  });

  it("keeps parent organizations apart (404)", async () => {
    const m = await create("tf-a", body(7));
    expect((await t.call("GET", M("tf-a"), { as: "other" })).status).toBe(404);
    expect((await t.call("GET", `${M("tf-a")}/${m.mirrorID}`, { as: "other" })).status).toBe(404);
    expect((await t.call("POST", M("tf-a"), { as: "other", body: body(8) })).status).toBe(404);
    const own = await t.call("GET", M("globex-p"), { as: "other" });
    expect(own.status).toBe(200);
    expect((await t.call("GET", M("globex-p"))).status).toBe(404);
  });
});

describe("mirror list", () => {
  const seeded: SeedMirror[] = Array.from({ length: 25 }, (_v, i) => ({
    repoURLFrom: `https://github.com/bulk/r${i}.git`,
    repoURLTo: `ssh://git@git.example.org/acme/bulk/r${i}.git`,
    frequency: (["once", "daily", "weekly"] as const)[i % 3],
    status: (["pending", "mirrored", "failed", "inactive", "pending"] as const)[i % 5],
  }));
  beforeAll(() => {
    seedProjects(t, [{ slug: "bulk", name: "Bulk", mirrors: seeded }]);
    // a failure code only the service sets
    t.server.ctx.db.run(
      "UPDATE mirrors SET status_code = 128 WHERE repo_url_from = ?",
      "https://github.com/bulk/r2.git",
    );
  });

  it("pages by 10 by default, oldest first", async () => {
    const r = await t.call("GET", M("bulk"), { as: "member" });
    expect(r.status).toBe(200);
    expect(r.body.pagination).toEqual({ page: 1, limit: 10, total: 25, totalPages: 3 });
    expect(r.body.data).toHaveLength(10);
    const ids = r.body.data.map((m: { mirrorID: string }) => Number(m.mirrorID));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const p3 = await t.call("GET", M("bulk"), { query: { page: 3 } });
    expect(p3.body.data).toHaveLength(5);
    const desc = await t.call("GET", M("bulk"), { query: { order: "desc", limit: 3 } });
    expect(desc.body.data.map((m: { repoURLFrom: string }) => m.repoURLFrom)).toEqual([
      "https://github.com/bulk/r24.git",
      "https://github.com/bulk/r23.git",
      "https://github.com/bulk/r22.git",
    ]);
  });

  it("filters by comma-separated status and frequency, and by statusCode", async () => {
    const s = await t.call("GET", M("bulk"), { query: { status: "mirrored,failed", limit: 100 } });
    expect(s.body.pagination.total).toBe(10);
    expect(new Set(s.body.data.map((m: { status: string }) => m.status))).toEqual(
      new Set(["mirrored", "failed"]),
    );
    const f = await t.call("GET", M("bulk"), {
      query: { frequency: "weekly", status: "pending", limit: 100 },
    });
    // i % 3 === 2 and i % 5 in {0, 4}: 5, 14, 20
    expect(f.body.data.map((m: { repoURLFrom: string }) => m.repoURLFrom)).toEqual([
      "https://github.com/bulk/r5.git",
      "https://github.com/bulk/r14.git",
      "https://github.com/bulk/r20.git",
    ]);
    const code = await t.call("GET", M("bulk"), { query: { statusCode: 128 } });
    expect(code.body.data).toHaveLength(1);
    expect(code.body.data[0]).toMatchObject({ statusCode: 128, status: "failed" });
  });

  it("rejects unknown filter values (400 naming the field)", async () => {
    const r = await t.call("GET", M("bulk"), { query: { status: "pending,broken" } });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe("status");
    expect(r.body.status.message).toContain("one or several of pending");
    expect(r.body.status.message).toContain('(got "pending,broken")');
    const o = await t.call("GET", M("bulk"), { query: { order: "sideways" } });
    expect(o.status).toBe(400);
  });
});

describe("mirror read, update, delete", () => {
  it("reads with an optional status condition", async () => {
    const m = await create("mbed", body(10));
    const url = `${M("mbed")}/${m.mirrorID}`;
    expect((await t.call("GET", url, { query: { status: "pending" } })).status).toBe(200);
    const other = await t.call("GET", url, { query: { status: "mirrored" } });
    expect(other.status).toBe(404);
    expect(other.body.status.message).toContain("with status mirrored");
    expect((await t.call("GET", url, { query: { status: "bogus" } })).status).toBe(400);
    // a mirror of another project is not found here
    expect((await t.call("GET", `${M("tf-a")}/${m.mirrorID}`)).status).toBe(404);
    expect((await t.call("GET", `${M("mbed")}/999999`)).status).toBe(404);
  });

  it("updates frequency, status and excludeTags", async () => {
    const m = await create("mbed", body(11));
    const url = `${M("mbed")}/${m.mirrorID}`;
    const r = await t.call("PUT", url, {
      body: { frequency: "weekly", status: "inactive", excludeTags: true },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      frequency: "weekly",
      status: "inactive",
      excludeTags: true,
      repoURLFrom: m.repoURLFrom,
    });
    const partial = await t.call("PUT", url, { body: { status: "pending" } });
    expect(partial.body.data).toMatchObject({ frequency: "weekly", status: "pending" });
    const bad = await t.call("PUT", url, { body: { status: "mirrored" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("status");
    expect((await t.call("PUT", url, { as: "member", body: { status: "pending" } })).status).toBe(
      403,
    );
    expect((await t.call("PUT", `${M("mbed")}/999999`, { body: {} })).status).toBe(404);
  });

  it("deletes from the database", async () => {
    const m = await create("mbed", body(12));
    const url = `${M("mbed")}/${m.mirrorID}`;
    const r = await t.call("DELETE", url);
    expect(r.status).toBe(204);
    expect(r.body).toBeUndefined();
    expect((await t.call("GET", url)).status).toBe(404);
    expect(
      t.server.ctx.db.get("SELECT 1 FROM mirrors WHERE id = ?", Number(m.mirrorID)),
    ).toBeUndefined();
    expect((await t.call("DELETE", url)).status).toBe(404);
  });
});

describe("enable and disable", () => {
  let ids: number[];
  beforeAll(async () => {
    seedProjects(t, [{ slug: "flip", name: "Flip" }]);
    ids = [];
    for (let i = 0; i < 3; i++) ids.push(Number((await create("flip", body(`f${i}`))).mirrorID));
  });

  it("disables and enables selected mirrors with a note", async () => {
    const r = await t.call("POST", `${M("flip")}/disable`, {
      body: { mirrorIds: [ids[0], ids[1], ids[1]], notes: "manifests/flip.yaml" },
    });
    expect(r.status).toBe(200);
    expect(r.body.status.message).toBe("2 mirrors disabled");
    expect(r.body.data.map((m: { mirrorID: string }) => Number(m.mirrorID))).toEqual([
      ids[0],
      ids[1],
    ]);
    expect(
      r.body.data.every(
        (m: { enabled: boolean; notes: string }) => !m.enabled && m.notes === "manifests/flip.yaml",
      ),
    ).toBe(true);
    const third = await t.call("GET", `${M("flip")}/${ids[2]}`);
    expect(third.body.data).toMatchObject({ enabled: true, notes: "" });
    const on = await t.call("POST", `${M("flip")}/enable`, {
      body: { mirrorIds: [ids[0]], notes: "back on" },
    });
    expect(on.body.data).toEqual([expect.objectContaining({ enabled: true, notes: "back on" })]);
  });

  it("refuses ids of other projects or unknown ones, changing nothing (422)", async () => {
    const foreign = await create("mbed", body("foreign"));
    const r = await t.call("POST", `${M("flip")}/disable`, {
      body: { mirrorIds: [ids[2], Number(foreign.mirrorID), 987654], notes: "x" },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].field).toBe("mirrorIds");
    expect(r.body.status.message).toContain(
      `mirrors ${foreign.mirrorID}, 987654 do not belong to project flip`,
    );
    const still = await t.call("GET", `${M("flip")}/${ids[2]}`);
    expect(still.body.data.enabled).toBe(true);
  });

  it("requires notes and at least one id (400)", async () => {
    const noNotes = await t.call("POST", `${M("flip")}/enable`, { body: { mirrorIds: [ids[0]] } });
    expect(noNotes.status).toBe(400);
    expect(noNotes.body.errors).toContainEqual({ field: "notes", message: "is required" });
    const empty = await t.call("POST", `${M("flip")}/enable`, {
      body: { mirrorIds: [], notes: "x" },
    });
    expect(empty.status).toBe(400);
    const allNoNotes = await t.call("POST", `${M("flip")}/all/disable`, { body: {} });
    expect(allNoNotes.status).toBe(400);
  });

  it("disables and enables all mirrors of the project only", async () => {
    const off = await t.call("POST", `${M("flip")}/all/disable`, { body: { notes: "freeze" } });
    expect(off.status).toBe(200);
    expect(off.body.data).toHaveLength(3);
    expect(off.body.data.every((m: { enabled: boolean }) => !m.enabled)).toBe(true);
    const mbed = await t.call("GET", M("mbed"), { query: { limit: 100 } });
    expect(mbed.body.data.every((m: { enabled: boolean }) => m.enabled)).toBe(true);
    const on = await t.call("POST", `${M("flip")}/all/enable`, { body: { notes: "thaw" } });
    expect(on.body.status.message).toBe("3 mirrors enabled");
    expect(
      on.body.data.every(
        (m: { enabled: boolean; notes: string }) => m.enabled && m.notes === "thaw",
      ),
    ).toBe(true);
    expect(
      (await t.call("POST", `${M("flip")}/all/enable`, { as: "member", body: { notes: "x" } }))
        .status,
    ).toBe(403);
    expect(
      (await t.call("POST", `${M("flip")}/all/enable`, { as: "other", body: { notes: "x" } }))
        .status,
    ).toBe(404);
  });
});

describe("mirror seeding", () => {
  it("seeds 5,000 mirrors in about a second, with their states", async () => {
    const mirrors: SeedMirror[] = Array.from({ length: 5000 }, (_v, i) => ({
      repoURLFrom: `https://github.com/big/r${i}.git`,
      repoURLTo: `git@git.example.org:acme/big/r${i}.git`,
      enabled: i % 2 === 0,
      status: i % 7 === 0 ? "mirrored" : "pending",
      frequency: "weekly",
      notificationEmails: ["ops@example.org"],
    }));
    const started = performance.now();
    const counts = seedProjects(t, [{ slug: "big", name: "Big", mirrors }]);
    const ms = performance.now() - started;
    expect(counts.mirrors).toBe(5000);
    expect(ms).toBeLessThan(2500);
    const page = await t.call("GET", M("big"), { query: { status: "mirrored", limit: 1 } });
    expect(page.body.pagination.total).toBe(715);
    expect(page.body.data[0]).toMatchObject({
      repoURLFrom: "https://github.com/big/r0.git",
      enabled: true,
      frequency: "weekly",
      refSpaceFrom: "refs/heads/*",
      notificationEmails: ["ops@example.org"],
    });
    expect(page.body.data[0].lastRun).not.toBeNull();
    const r1 = await t.call("GET", M("big"), { query: { limit: 1, page: 2 } });
    expect(r1.body.data[0]).toMatchObject({
      repoURLFrom: "https://github.com/big/r1.git",
      enabled: false,
      status: "pending",
      lastRun: null,
    });
  });

  it("refuses what the API would refuse, and nothing of that seed stays", () => {
    const bad = { repoURLFrom: "https://a.org/x.git", repoURLTo: "https://b.org/x.git" };
    expect(() => seedProjects(t, [{ slug: "bad-1", name: "Bad", mirrors: [bad] }])).toThrow(
      /repoURLTo must be an ssh URL/,
    );
    const twice = { repoURLFrom: "https://a.org/x.git", repoURLTo: "git@b.org:x.git" };
    expect(() =>
      seedProjects(t, [{ slug: "bad-2", name: "Bad", mirrors: [twice, twice] }]),
    ).toThrow(/seeded twice/);
    const db = t.server.ctx.db;
    expect(db.get("SELECT 1 FROM projects WHERE slug IN ('bad-1', 'bad-2')")).toBeUndefined();
  });
});
