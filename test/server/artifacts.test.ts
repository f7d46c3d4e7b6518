import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server.js";
import { projectId, seedProjects } from "../helpers/artifact-projects.js";
import { seed } from "../../src/server/seed.js";

let t: TestServer;
const A = (slug: string) => `/v1/projects/${slug}/artifactservice`;
const MD5 = "d41d8cd98f00b204e9800998ecf8427e";
const SHA1 = "da39a3ee5e6b4b0d3255bfef95601890afd80709";
const SHA256 = "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855";

beforeAll(async () => {
  t = await startServer();
  seed(t.server.ctx, { organizations: [{ name: "partner", parent: "acme" }] });
  seedProjects(t, [
    { slug: "tf-a", name: "TF-A" },
    { slug: "files", name: "Files" },
    { slug: "mbed", name: "Mbed", organization: "partner" },
  ]);
  seedProjects(t, [{ slug: "globex-p", name: "Globex" }], "globex");
});
afterAll(() => t.close());

async function newRepo(slug: string, name?: string) {
  const r = await t.call("POST", `${A(slug)}/repo`, { body: name ? { name } : {} });
  expect(r.status).toBe(201);
  return r.body.data as { id: number; name: string };
}

describe("artifact repositories", () => {
  it("creates with the project slug as default name, prefixed <org>-<project_id>-", async () => {
    const r = await t.call("POST", `${A("tf-a")}/repo`, { body: {} });
    expect(r.status).toBe(201);
    const name = `acme-${projectId(t, "tf-a")}-tf-a`;
    expect(r.body.data).toMatchObject({
      name,
      repoType: "generic",
      url: `https://artifacts.example.org/artifactory/${name}`,
    });
    expect(r.body.data.id).toBeTypeOf("number");
    const got = await t.call("GET", `${A("tf-a")}/repo/${r.body.data.id}`, { as: "member" });
    expect(got.body.data).toEqual(r.body.data);
  });

  it("a name in use needs a different name (409 on name)", async () => {
    const again = await t.call("POST", `${A("tf-a")}/repo`, { body: {} });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].field).toBe("name");
    expect(again.body.status.message).toContain("a different name must be given");
    const other = await t.call("POST", `${A("tf-a")}/repo`, {
      body: { name: "releases", repoType: "maven" },
    });
    expect(other.status).toBe(201);
    expect(other.body.data).toMatchObject({
      name: `acme-${projectId(t, "tf-a")}-releases`,
      repoType: "maven",
    });
    const dup = await t.call("POST", `${A("tf-a")}/repo`, { body: { name: "releases" } });
    expect(dup.status).toBe(409);
  });

  it("uses the project's organization in the name", async () => {
    const r = await newRepo("mbed", "bin");
    expect(r.name).toBe(`partner-${projectId(t, "mbed")}-bin`);
  });

  it("validates type and name against the schema (400)", async () => {
    const type = await t.call("POST", `${A("tf-a")}/repo`, {
      body: { name: "x", repoType: "floppy" },
    });
    expect(type.status).toBe(400);
    expect(type.body.errors[0].field).toBe("repoType");
    const name = await t.call("POST", `${A("tf-a")}/repo`, { body: { name: "Bad Name" } });
    expect(name.status).toBe(400);
  });

  it("lists with paging and all", async () => {
    for (let i = 0; i < 11; i++) await newRepo("files", `r${i}`);
    const page = await t.call("GET", `${A("files")}/repos`, { as: "member" });
    expect(page.body.pagination).toEqual({ page: 1, limit: 10, total: 11, totalPages: 2 });
    const all = await t.call("GET", `${A("files")}/repos`, { query: { all: true } });
    expect(all.body.data).toHaveLength(11);
    expect(all.body.pagination).toMatchObject({ total: 11, totalPages: 1 });
  });

  it("deletes a repository with its files", async () => {
    const repo = await newRepo("tf-a", "doomed");
    const up = await t.call("POST", `${A("tf-a")}/${repo.id}/file`, {
      body: { sourceFilePath: "/tmp/a.bin", destinationFilePath: "x/a.bin" },
    });
    expect(up.status).toBe(201);
    expect((await t.call("DELETE", `${A("tf-a")}/repo/${repo.id}`, { as: "member" })).status).toBe(
      403,
    );
    const r = await t.call("DELETE", `${A("tf-a")}/repo/${repo.id}`);
    expect(r.status).toBe(204);
    expect((await t.call("GET", `${A("tf-a")}/repo/${repo.id}`)).status).toBe(404);
    const db = t.server.ctx.db;
    expect(db.get("SELECT 1 FROM artifact_files WHERE repo_id = ?", repo.id)).toBeUndefined();
  });

  it("scopes repositories to their project and parent organization (404)", async () => {
    const repo = await newRepo("mbed", "scoped");
    expect((await t.call("GET", `${A("tf-a")}/repo/${repo.id}`)).status).toBe(404);
    expect((await t.call("GET", `${A("mbed")}/repo/${repo.id}`, { as: "other" })).status).toBe(404);
    expect((await t.call("GET", `${A("mbed")}/repos`, { as: "other" })).status).toBe(404);
    expect((await t.call("POST", `${A("mbed")}/repo`, { as: "other", body: {} })).status).toBe(404);
    expect((await t.call("GET", `${A("globex-p")}/repos`, { as: "other" })).status).toBe(200);
    expect((await t.call("GET", `${A("nope")}/repos`)).status).toBe(404);
  });

  it("only projects-admin and system-admin may create", async () => {
    for (const who of ["member", "users"] as const) {
      expect(
        (await t.call("POST", `${A("files")}/repo`, { as: who, body: { name: `x-${who}` } }))
          .status,
      ).toBe(403);
    }
    expect(
      (await t.call("POST", `${A("files")}/repo`, { as: "projects", body: { name: "by-p" } }))
        .status,
    ).toBe(201);
  });
});

describe("artifact files", () => {
  let base: string;
  const upload = (b: Record<string, unknown>, as?: "member" | "other" | "projects") =>
    t.call("POST", `${base}/file`, { body: b, ...(as ? { as } : {}) });

  beforeAll(async () => {
    const repo = await newRepo("files", "dist");
    base = `${A("files")}/${repo.id}`;
  });

  it("uploads as pending; with queue delay 0 the file is active on the next read", async () => {
    const r = await upload({
      sourceFilePath: "/build/out/tf-a.tar.gz",
      destinationFilePath: "releases/v2.10/tf-a.tar.gz",
      checkSum: SHA256,
      metadata: { legacy: true },
    });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({
      uri: "releases/v2.10/tf-a.tar.gz",
      status: "pending",
      size: "0",
      mimeType: "application/gzip",
      metadata: { legacy: true },
      checkSum: SHA256.toLowerCase(),
      downloadCount: 0,
      lastDownloaded: null,
      status_note: ["upload requested from /build/out/tf-a.tar.gz"],
    });
    const got = await t.call("GET", `${base}/file/releases/v2.10/tf-a.tar.gz`, { as: "member" });
    expect(got.status).toBe(200);
    expect(got.body.data.status).toBe("active");
    expect(Number(got.body.data.size)).toBeGreaterThan(0);
    expect(got.body.data.status_note).toEqual([
      "upload requested from /build/out/tf-a.tar.gz",
      "file arrived",
    ]);
  });

  it("accepts MD5, SHA-1 and SHA-256 checksums, nothing else (400 on checkSum)", async () => {
    for (const [i, sum] of [MD5, SHA1].entries()) {
      const r = await upload({
        sourceFilePath: "s",
        destinationFilePath: `sums/${i}.bin`,
        checkSum: sum,
      });
      expect(r.status).toBe(201);
    }
    const bad = await upload({
      sourceFilePath: "s",
      destinationFilePath: "sums/bad.bin",
      checkSum: "abc123",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("checkSum");
  });

  it("mails the upload status to each notification address", async () => {
    const r = await upload({
      sourceFilePath: "/b/app.zip",
      destinationFilePath: "mail/app.zip",
      notification_email: "ops@example.org, rel@example.org",
    });
    expect(r.status).toBe(201);
    const mails = t.server.ctx.outbox.list().filter((m) => m.kind === "upload");
    expect(mails).toHaveLength(1);
    expect(mails[0].recipients).toEqual(["ops@example.org", "rel@example.org"]);
    expect(mails[0].subject).toContain("mail/app.zip");
    expect(mails[0].subject).toContain("pending");
    const bad = await upload({
      sourceFilePath: "/b/app.zip",
      destinationFilePath: "mail/other.zip",
      notification_email: "ops@example.org, not-mail",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("notification_email");
    expect(t.server.ctx.outbox.list().filter((m) => m.kind === "upload")).toHaveLength(1);
  });

  it("refuses a path in use, a folder, or a path below a file (409), and bad paths (422)", async () => {
    await upload({ sourceFilePath: "s", destinationFilePath: "c/one.txt" });
    const same = await upload({ sourceFilePath: "s2", destinationFilePath: "/c//one.txt" });
    expect(same.status).toBe(409);
    expect(same.body.errors[0].field).toBe("destinationFilePath");
    expect(same.body.status.message).toContain("c/one.txt already exists");
    const folder = await upload({ sourceFilePath: "s", destinationFilePath: "c" });
    expect(folder.status).toBe(409);
    expect(folder.body.status.message).toContain("c is a folder");
    const below = await upload({ sourceFilePath: "s", destinationFilePath: "c/one.txt/x" });
    expect(below.status).toBe(409);
    expect(below.body.status.message).toContain("c/one.txt is a file");
    const dots = await upload({ sourceFilePath: "s", destinationFilePath: "c/../etc/passwd" });
    expect(dots.status).toBe(422);
    expect(dots.body.errors[0].field).toBe("destinationFilePath");
    // a destination ending in a slash is a folder: the file keeps its source name
    const into = await upload({ sourceFilePath: "/b/notes.md", destinationFilePath: "c/" });
    expect(into.body.data.uri).toBe("c/notes.md");
    expect(into.body.data.mimeType).toBe("text/markdown");
  });

  it("validates metadata.legacy as a boolean and keeps other attributes", async () => {
    const bad = await upload({
      sourceFilePath: "s",
      destinationFilePath: "m/a",
      metadata: { legacy: "yes" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("metadata.legacy");
    const ok = await upload({
      sourceFilePath: "s",
      destinationFilePath: "m/a",
      metadata: { version: "2.10", tags: ["lts"] },
    });
    expect(ok.body.data.metadata).toEqual({ version: "2.10", tags: ["lts"] });
  });

  it("lists files and implied folders with relative uris, 10 per page or all", async () => {
    const repo = await newRepo("files", "tree");
    const tree = `${A("files")}/${repo.id}`;
    for (const p of [
      "a/b/c.txt",
      "a/b/d.txt",
      "a/e.txt",
      "a-z.txt",
      "z/1",
      "z/2",
      "z/3",
      "z/4",
      "z/5",
    ]) {
      const r = await t.call("POST", `${tree}/file`, {
        body: { sourceFilePath: p, destinationFilePath: p },
      });
      expect(r.status).toBe(201);
    }
    const all = await t.call("GET", `${tree}/files`, { as: "member", query: { all: true } });
    expect(all.status).toBe(200);
    expect(all.body.data.map((i: { uri: string; folder: boolean }) => [i.uri, i.folder])).toEqual([
      ["a", true],
      ["a/b", true],
      ["a/b/c.txt", false],
      ["a/b/d.txt", false],
      ["a/e.txt", false],
      ["a-z.txt", false],
      ["z", true],
      ["z/1", false],
      ["z/2", false],
      ["z/3", false],
      ["z/4", false],
      ["z/5", false],
    ]);
    expect(all.body.data.every((i: { status: string }) => i.status === "active")).toBe(true);
    const ab = all.body.data.find((i: { uri: string }) => i.uri === "a/b");
    const files = all.body.data.filter((i: { uri: string }) => i.uri.startsWith("a/b/"));
    expect(Number(ab.size)).toBe(
      files.reduce((n: number, f: { size: string }) => n + Number(f.size), 0),
    );
    const page = await t.call("GET", `${tree}/files`);
    expect(page.body.pagination).toEqual({ page: 1, limit: 10, total: 12, totalPages: 2 });
    const p2 = await t.call("GET", `${tree}/files`, { query: { page: 2 } });
    expect(p2.body.data.map((i: { uri: string }) => i.uri)).toEqual(["z/4", "z/5"]);
  });

  it("reads a file by its path; a folder or an unknown path is 404", async () => {
    await upload({ sourceFilePath: "s", destinationFilePath: "read/deep/x.json" });
    const r = await t.call("GET", `${base}/file/read/deep/x.json`);
    expect(r.body.data).toMatchObject({ uri: "read/deep/x.json", mimeType: "application/json" });
    const folder = await t.call("GET", `${base}/file/read/deep`);
    expect(folder.status).toBe(404);
    expect(folder.body.status.message).toContain("is a folder");
    expect((await t.call("GET", `${base}/file/read/none.json`)).status).toBe(404);
    expect((await t.call("GET", `${base}/file/read/deep/x.json`, { as: "other" })).status).toBe(
      404,
    );
    expect(
      (await t.call("GET", `${A("tf-a")}/${base.split("/").pop()}/file/read/deep/x.json`)).status,
    ).toBe(404);
  });

  it("PUT replaces status and metadata; status is required", async () => {
    await upload({
      sourceFilePath: "s",
      destinationFilePath: "put/f.bin",
      metadata: { a: 1, b: 2 },
    });
    const url = `${base}/file/put/f.bin`;
    const r = await t.call("PUT", url, { body: { status: "inactive", metadata: { c: 3 } } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ status: "inactive", metadata: { c: 3 } });
    expect(r.body.data.status_note.at(-1)).toBe("status set to inactive");
    const cleared = await t.call("PUT", url, { body: { status: "active" } });
    expect(cleared.body.data).toMatchObject({ status: "active", metadata: {} });
    const missing = await t.call("PUT", url, { body: { metadata: {} } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toContainEqual({ field: "status", message: "is required" });
    const pending = await t.call("PUT", url, { body: { status: "pending" } });
    expect(pending.status).toBe(400);
    expect((await t.call("PUT", url, { as: "member", body: { status: "active" } })).status).toBe(
      403,
    );
    expect(
      (await t.call("PUT", `${base}/file/put/none`, { body: { status: "active" } })).status,
    ).toBe(404);
  });

  it("PATCH changes what is given (metadata as a JSON merge patch)", async () => {
    await upload({
      sourceFilePath: "s",
      destinationFilePath: "patch/f.bin",
      metadata: { a: 1, b: { x: 1, y: 2 } },
    });
    const url = `${base}/file/patch/f.bin`;
    const m = await t.call("PATCH", url, { body: { metadata: { a: null, b: { y: 3 }, c: true } } });
    expect(m.status).toBe(200);
    expect(m.body.data).toMatchObject({
      status: "active",
      metadata: { b: { x: 1, y: 3 }, c: true },
    });
    expect(m.body.data.metadata).not.toHaveProperty("a");
    const s = await t.call("PATCH", url, { body: { status: "inactive" } });
    expect(s.body.data).toMatchObject({
      status: "inactive",
      metadata: { b: { x: 1, y: 3 }, c: true },
    });
    expect((await t.call("PATCH", url, { body: { size: 3 } })).status).toBe(400);
  });

  it("deletes a file, or a folder with everything under it", async () => {
    for (const p of ["del/a.txt", "del/sub/b.txt", "del/sub/c.txt"])
      await upload({ sourceFilePath: "s", destinationFilePath: p });
    expect((await t.call("DELETE", `${base}/file/del/a.txt`, { as: "member" })).status).toBe(403);
    const r = await t.call("DELETE", `${base}/file/del/a.txt`);
    expect(r.status).toBe(204);
    expect((await t.call("GET", `${base}/file/del/a.txt`)).status).toBe(404);
    expect((await t.call("DELETE", `${base}/file/del/sub`)).status).toBe(204);
    expect((await t.call("GET", `${base}/file/del/sub/c.txt`)).status).toBe(404);
    expect((await t.call("DELETE", `${base}/file/del/sub`)).status).toBe(404);
  });

  it("only projects-admin and system-admin may upload; other parents get 404", async () => {
    const b = { sourceFilePath: "s", destinationFilePath: "roles/x" };
    expect((await upload(b, "member")).status).toBe(403);
    expect((await upload(b, "other")).status).toBe(404);
    expect((await upload(b, "projects")).status).toBe(201);
  });

  it("encoded path segments are decoded once", async () => {
    await upload({ sourceFilePath: "s", destinationFilePath: "space dir/a b.txt" });
    const r = await t.call("GET", `${base}/file/space%20dir/a%20b.txt`);
    expect(r.status).toBe(200);
    expect(r.body.data.uri).toBe("space dir/a b.txt");
  });
});

describe("upload arrival with a queue delay", () => {
  const DELAY = 500;
  let d: TestServer;
  beforeAll(async () => {
    d = await startServer({ queueDelayMs: DELAY });
    seedProjects(d, [{ slug: "slow", name: "Slow" }]);
  });
  afterAll(() => d.close());

  it("stays pending until the delay has passed, then arrives at created + delay", async () => {
    const repo = await d.call("POST", `${A("slow")}/repo`, { body: {} });
    const base = `${A("slow")}/${repo.body.data.id}`;
    const up = await d.call("POST", `${base}/file`, {
      body: { sourceFilePath: "s", destinationFilePath: "p/a.bin" },
    });
    await d.call("POST", `${base}/file`, {
      body: { sourceFilePath: "s", destinationFilePath: "p/b.bin" },
    });
    // set by hand while pending: it stays as set
    const held = await d.call("PATCH", `${base}/file/p/b.bin`, { body: { status: "inactive" } });
    expect(held.body.data.status).toBe("inactive");
    const early = await d.call("GET", `${base}/file/p/a.bin`);
    expect(early.body.data).toMatchObject({ status: "pending", size: "0" });
    const list = await d.call("GET", `${base}/files`);
    expect(list.body.data.find((i: { uri: string }) => i.uri === "p/a.bin").status).toBe("pending");
    const due = Date.parse(up.body.data.created) + DELAY;
    await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now()) + 20));
    const late = await d.call("GET", `${base}/file/p/a.bin`);
    expect(late.body.data.status).toBe("active");
    expect(Date.parse(late.body.data.lastModified) - Date.parse(up.body.data.created)).toBe(DELAY);
    expect((await d.call("GET", `${base}/file/p/b.bin`)).body.data.status).toBe("inactive");
  });
});

describe("artifact seeding", () => {
  it("seeds repositories with their live names and files", async () => {
    const counts = seedProjects(t, [
      {
        slug: "seeded",
        name: "Seeded",
        artifacts: [
          {
            name: "releases",
            files: [
              { path: "v1/a.tgz", size: 42 },
              { path: "v1/b.tgz", status: "inactive" },
            ],
          },
          { name: "images", repoType: "docker" },
        ],
      },
    ]);
    expect(counts).toMatchObject({ artifactRepos: 2, artifactFiles: 2 });
    const list = await t.call("GET", `${A("seeded")}/repos`);
    const id = projectId(t, "seeded");
    expect(
      list.body.data.map((r: { name: string; repoType: string }) => [r.name, r.repoType]),
    ).toEqual([
      [`acme-${id}-releases`, "generic"],
      [`acme-${id}-images`, "docker"],
    ]);
    const files = await t.call("GET", `${A("seeded")}/${list.body.data[0].id}/files`);
    const b = files.body.data[2];
    expect(files.body.data).toEqual([
      { uri: "v1", folder: true, status: "active", size: String(42 + Number(b.size)) },
      { uri: "v1/a.tgz", folder: false, status: "active", size: "42" },
      {
        uri: "v1/b.tgz",
        folder: false,
        status: "inactive",
        size: expect.stringMatching(/^[1-9]\d*$/),
      },
    ]);
    const a = await t.call("GET", `${A("seeded")}/${list.body.data[0].id}/file/v1/a.tgz`);
    expect(a.body.data).toMatchObject({
      status: "active",
      size: "42",
      mimeType: "application/gzip",
    });
  });

  it("refuses an unknown type or a name already in use", () => {
    expect(() =>
      seedProjects(t, [
        { slug: "bad-type", name: "X", artifacts: [{ name: "r", repoType: "floppy" }] },
      ]),
    ).toThrow(/unknown repoType floppy/);
    expect(() =>
      seedProjects(t, [{ slug: "bad-dup", name: "X", artifacts: [{ name: "r" }, { name: "r" }] }]),
    ).toThrow(/already in use/);
  });
});
