import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { armForkFailure } from "../../src/server/routes/git/index.js";
import { seed } from "../../src/server/seed.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

let t: TestServer;
beforeAll(async () => {
  // A queue delay below the 300 ms floor: the fork cleanup window is max(delay, 300 ms).
  t = await startServer({ queueDelayMs: 50 });
  seed(t.server.ctx, {
    parentOrganization: "acme",
    projects: [
      {
        slug: "src",
        name: "Source",
        git: {
          subgroups: ["lib"],
          repositories: [
            {
              name: "upstream",
              subgroup: "lib",
              issueTracking: "enabled",
              requiresDCO: true,
              sizeBytes: 1234,
              commitBlocker: { author: ["x.com"] },
              commits: [{ sha: "c".repeat(40), title: "Root", authorEmail: "a@x.com" }],
            },
            { name: "closed", enableForking: false },
          ],
        },
      },
      { slug: "target", name: "Target", git: { subgroups: ["forks"] } },
      { slug: "target2", name: "Target 2", git: {} },
      {
        slug: "secret",
        name: "Secret",
        visibility: "private",
        git: { repositories: [{ name: "hidden" }] },
      },
      {
        slug: "metrics",
        name: "Metrics",
        git: { subgroups: ["team"], repositories: [{ name: "app", subgroup: "team" }] },
        pipelines: [
          { status: "success", ref: "main", created: "2024-03-01T08:00:00.000Z", duration: 100 },
          { status: "failed", ref: "main", created: "2024-03-01T12:00:00.000Z", duration: 50 },
          { status: "success", ref: "main", created: "2024-03-01T13:00:00.000Z", duration: 300 },
          { status: "success", ref: "main", created: "2024-03-02T09:00:00.000Z", duration: 200 },
          { status: "failed", ref: "main", created: "2024-03-04T10:00:00.000Z", duration: 10 },
          { status: "success", ref: "main", created: "2024-03-05T10:00:00.000Z", duration: 400 },
          { status: "success", ref: "main", created: "2024-04-10T10:00:00.000Z", duration: 1000 },
        ],
      },
      {
        slug: "bund",
        name: "Bundles",
        git: {
          repositories: [{ name: "r1" }, { name: "r2" }],
          bundles: [{ frequency: "weekly" }, { frequency: "daily", repository: "r1" }],
        },
        pipelines: [
          { status: "success", ref: "main", created: "2024-01-01T00:00:00.000Z" },
          ...Array.from({ length: 12 }, (_, i) => ({
            status: "success",
            ref: "main",
            created: `2024-02-${String(i + 1).padStart(2, "0")}T00:00:00.000Z`,
            bundle: true,
          })),
        ],
      },
    ],
  });
  seed(t.server.ctx, {
    parentOrganization: "globex",
    organizations: [{ name: "globex" }],
    projects: [{ slug: "gx", name: "Globex", git: { repositories: [{ name: "theirs" }] } }],
  });
});
afterAll(() => t.close());

const repoId = (slug: string, name: string) =>
  t.server.ctx.db.get<{ id: number }>(
    `SELECT r.id FROM repositories r JOIN git_groups g ON g.id = r.group_id
     JOIN projects p ON p.id = g.project_id WHERE p.slug = ? AND r.name = ?`,
    slug,
    name,
  )!.id;
const FORK = (slug: string) => `/v1/projects/${slug}/git/fork`;
const UPSTREAM_SSH = "ssh://git@git.example.org/acme/src/lib/upstream.git";

describe("fork", () => {
  it("forks a repository named by its ssh clone URL, copying its settings and history", async () => {
    const r = await t.call("POST", FORK("target"), {
      body: { repoPathFrom: UPSTREAM_SSH, repoPathNew: "forks", name: "my-fork" },
    });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({
      name: "my-fork",
      repoSlug: "my-fork",
      subgroups: "forks",
      sshURI: "ssh://git@git.example.org/acme/target/forks/my-fork.git",
      gitSourceRepoID: repoId("src", "upstream"),
      issueTracking: "enabled",
      requiresDCO: true,
      repoSizeBytes: 1234,
      commitBlocker: null,
    });
    const commit = await t.call(
      "GET",
      `/v1/projects/target/git/repo/${r.body.data.gitRepoID}/commit/${"c".repeat(7)}`,
    );
    expect(commit.body.data.title).toBe("Root");
  });

  it("accepts https URLs and keeps the source name by default; a clash is 409", async () => {
    const r = await t.call("POST", FORK("target"), {
      body: {
        repoPathFrom: "https://git.example.org/acme/src/lib/upstream.git",
        repoPathNew: null,
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ name: "upstream", subgroups: "" });
    const again = await t.call("POST", FORK("target"), {
      body: { repoPathFrom: "https://git.example.org/acme/src/lib/upstream", repoPathNew: "" },
    });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].field).toBe("name");
  });

  it("refuses other hosts (422), unknown repositories (404), missing subgroups (422), closed sources (422)", async () => {
    const host = await t.call("POST", FORK("target"), {
      body: { repoPathFrom: "https://github.com/acme/src.git" },
    });
    expect(host.status).toBe(422);
    expect(host.body.errors[0].field).toBe("repoPathFrom");
    const unknown = await t.call("POST", FORK("target"), {
      body: { repoPathFrom: "ssh://git@git.example.org/acme/src/nope.git" },
    });
    expect(unknown.status).toBe(404);
    const sub = await t.call("POST", FORK("target"), {
      body: { repoPathFrom: UPSTREAM_SSH, repoPathNew: "missing", name: "x" },
    });
    expect(sub.status).toBe(422);
    expect(sub.body.errors[0].field).toBe("repoPathNew");
    const closed = await t.call("POST", FORK("target"), {
      body: { repoPathFrom: "ssh://git@git.example.org/acme/src/closed.git" },
    });
    expect(closed.status).toBe(422);
    expect(closed.body.status.message).toContain("forking is disabled");
  });

  it("resolves private namespaces and stays inside the caller's parent organization", async () => {
    const priv = await t.call("POST", FORK("target2"), {
      body: { repoPathFrom: "ssh://git@git.example.org/acme/private/secret/hidden.git" },
    });
    expect(priv.status).toBe(201);
    expect(priv.body.data.gitSourceRepoID).toBe(repoId("secret", "hidden"));
    const wrongNs = await t.call("POST", FORK("target2"), {
      body: { repoPathFrom: "ssh://git@git.example.org/acme/secret/hidden.git", name: "h2" },
    });
    expect(wrongNs.status).toBe(404);
    const foreign = await t.call("POST", FORK("target2"), {
      body: { repoPathFrom: "ssh://git@git.example.org/globex/gx/theirs.git" },
    });
    expect(foreign.status).toBe(404);
    const other = await t.call("POST", FORK("target2"), {
      as: "other",
      body: { repoPathFrom: UPSTREAM_SSH },
    });
    expect(other.status).toBe(404);
    const member = await t.call("POST", FORK("target2"), {
      as: "member",
      body: { repoPathFrom: UPSTREAM_SSH },
    });
    expect(member.status).toBe(403);
  });

  it("a failed fork answers 500, then 500 FORK_CLEANUP during cleanup, then works again", async () => {
    const knob = await t.call("POST", "/_control/fork-failure", { body: { project: "target2" } });
    expect(knob.status).toBe(200);
    const body = { repoPathFrom: UPSTREAM_SSH, name: "after-cleanup" };
    const failed = await t.call("POST", FORK("target2"), { body });
    expect(failed.status).toBe(500);
    expect(failed.body.status.message).toBe(
      `the fork of ${UPSTREAM_SSH} went wrong on the git host; retry later`,
    );
    const startedAt = Date.now();
    const during = await t.call("POST", FORK("target2"), { body });
    expect(during.status).toBe(500);
    expect(during.body.status.message).toBe(
      "a failed fork is being cleaned up in project target2; retry later",
    );
    expect(during.headers["retry-after"]).toBe("1");
    // the cleanup is per project: another project forks meanwhile
    const elsewhere = await t.call("POST", FORK("target"), {
      body: { repoPathFrom: UPSTREAM_SSH, name: "meanwhile" },
    });
    expect(elsewhere.status).toBe(201);
    // nothing was created by the failed request
    const list = await t.call("GET", "/v1/projects/target2/git/repo");
    expect(list.body.data.map((r: { name: string }) => r.name)).not.toContain("after-cleanup");
    await new Promise((r) => setTimeout(r, Math.max(0, 320 - (Date.now() - startedAt))));
    const after = await t.call("POST", FORK("target2"), { body });
    expect(after.status).toBe(201);
    expect(after.body.data.name).toBe("after-cleanup");
  });

  it("an armed failure without a project strikes the next fork anywhere; the knob needs system-admin", async () => {
    const denied = await t.call("POST", "/_control/fork-failure", { as: "projects" });
    expect(denied.status).toBe(403);
    armForkFailure(t.server.ctx);
    const r = await t.call("POST", FORK("target"), {
      body: { repoPathFrom: UPSTREAM_SSH, name: "any" },
    });
    expect(r.status).toBe(500);
    const during = await t.call("POST", FORK("target"), {
      body: { repoPathFrom: UPSTREAM_SSH, name: "any" },
    });
    expect(during.body.status.message).toContain("being cleaned up");
  });
});

describe("external-tree archive", () => {
  const body = {
    repoGitURL: "https://github.com/ARM-software/arm-trusted-firmware.git",
    refSpace: "HEAD",
    format: "tar",
    archiveFilename: "tf-a-snapshot",
    prefix: "tf-a/",
    notification: "ops@example.org",
    metadata: { ticket: "OPS-1" },
  };

  it("records the request as pending and mails the notification address", async () => {
    const r = await t.call("POST", "/v1/projects/src/git/archive", { body });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({
      repoGitURL: body.repoGitURL,
      refSpace: "HEAD",
      format: "tar",
      archiveFilename: "tf-a-snapshot.tar.gz",
      prefix: "tf-a/",
      notification: "ops@example.org",
      status: "pending",
    });
    const mail = t.server.ctx.outbox.list().filter((m) => m.kind === "archive");
    expect(mail).toHaveLength(1);
    expect(mail[0].recipients).toEqual(["ops@example.org"]);
    expect(mail[0].subject).toBe("Archive tf-a-snapshot.tar.gz is ready");
    expect(mail[0].body).toContain(body.repoGitURL);
  });

  it("only tar, only public trees, only the caller's projects and project admins", async () => {
    const zip = await t.call("POST", "/v1/projects/src/git/archive", {
      body: { ...body, format: "zip" },
    });
    expect(zip.status).toBe(400);
    expect(zip.body.errors[0]).toEqual({ field: "format", message: "must be tar" });
    const ssh = await t.call("POST", "/v1/projects/src/git/archive", {
      body: { ...body, repoGitURL: "git@github.com:ARM-software/x.git" },
    });
    expect(ssh.status).toBe(422);
    expect(ssh.body.errors[0].field).toBe("repoGitURL");
    const priv = await t.call("POST", "/v1/projects/src/git/archive", {
      body: { ...body, repoGitURL: "https://git.example.org/acme/private/secret/hidden.git" },
    });
    expect(priv.status).toBe(422);
    expect(
      (await t.call("POST", "/v1/projects/src/git/archive", { as: "other", body })).status,
    ).toBe(404);
    expect(
      (await t.call("POST", "/v1/projects/src/git/archive", { as: "member", body })).status,
    ).toBe(403);
  });
});

describe("persistent storage", () => {
  const P = () => `/v1/projects/target/git/repo/${repoId("target", "my-fork")}/persistent-storage`;

  it("enables once (409 again), shows on the repository, looks up and updates by filesystem id", async () => {
    const rid = repoId("target", "my-fork");
    const on = await t.call("POST", P());
    expect(on.status).toBe(201);
    const repo = await t.call("GET", `/v1/projects/target/git/repo/${rid}`);
    const fs = repo.body.data.persistentStorage;
    expect(fs).toEqual({ filesystemId: expect.any(Number), status: "active" });
    expect(on.body.status.message).toContain(`filesystem ${fs.filesystemId}`);
    expect((await t.call("POST", P())).status).toBe(409);

    const S = `/v1/projects/systems/persistent-storage/${fs.filesystemId}`;
    const lookup = await t.call("GET", S, { as: "member" });
    expect(lookup).toMatchObject({ status: 200, body: { repo_id: rid } });
    expect((await t.call("GET", S, { as: "other" })).status).toBe(404);

    const upd = await t.call("PUT", S, { body: { status: "frozen", repoID: rid } });
    expect(upd.status).toBe(200);
    const after = await t.call("GET", `/v1/projects/target/git/repo/${rid}`);
    expect(after.body.data.persistentStorage.status).toBe("frozen");
    const wrong = await t.call("PUT", S, { body: { status: "x", repoID: rid + 1000 } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].field).toBe("repoID");
    expect(
      (await t.call("PUT", S, { as: "member", body: { status: "x", repoID: rid } })).status,
    ).toBe(403);

    const off = await t.call("DELETE", P());
    expect(off.status).toBe(200);
    expect((await t.call("DELETE", P())).status).toBe(404);
    expect((await t.call("GET", S)).status).toBe(404);
    expect(
      (await t.call("GET", `/v1/projects/target/git/repo/${rid}`)).body.data.persistentStorage,
    ).toBeNull();
  });
});

describe("bundles", () => {
  it("lists the seeded bundles and creates project and repository bundles once each", async () => {
    const list = await t.call("GET", "/v1/projects/bund/git/bundles", { as: "member" });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      expect.objectContaining({ projectSlug: "bund", repoId: null, frequency: "weekly" }),
      expect.objectContaining({ repoId: repoId("bund", "r1"), frequency: "daily" }),
    ]);
    const dupProject = await t.call("POST", "/v1/projects/bund/git/bundles", {
      body: { frequency: "daily" },
    });
    expect(dupProject.status).toBe(409);
    const r2 = repoId("bund", "r2");
    const repoBundle = await t.call("POST", `/v1/projects/bund/git/repo/${r2}/bundles`, {
      body: { frequency: "monthly" },
    });
    expect(repoBundle.status).toBe(201);
    expect(repoBundle.body.data).toMatchObject({
      projectSlug: "bund",
      repoId: r2,
      frequency: "monthly",
    });
    const got = await t.call("GET", `/v1/projects/bund/git/bundle/${repoBundle.body.data.id}`);
    expect(got.body.data).toEqual(repoBundle.body.data);
    const created = await t.call("POST", "/v1/projects/target/git/bundles", {
      body: { frequency: "weekly" },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ projectSlug: "target", repoId: null });
    expect(
      (
        await t.call("POST", "/v1/projects/target2/git/bundles", {
          as: "member",
          body: { frequency: "x" },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.call("POST", "/v1/projects/bund/git/repo/99999/bundles", {
          body: { frequency: "x" },
        })
      ).status,
    ).toBe(404);
  });

  it("answers a bundle's latest 10 pipelines and one bundle pipeline", async () => {
    const bundleId = (await t.call("GET", "/v1/projects/bund/git/bundles")).body.data[0].id;
    const r = await t.call("GET", `/v1/projects/bund/git/bundle/${bundleId}/pipelines`);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(10);
    expect(r.body.data[0].createdAt).toBe("2024-02-12T00:00:00.000Z");
    expect(r.body.data[9].createdAt).toBe("2024-02-03T00:00:00.000Z");
    expect(r.body.data.every((p: { bundleId: number }) => p.bundleId === bundleId)).toBe(true);
    const one = await t.call("GET", `/v1/projects/bund/git/bundles/pipelines/${r.body.data[0].id}`);
    expect(one.body.data).toEqual(r.body.data[0]);
    const plain = t.server.ctx.db.get<{ id: number }>(
      "SELECT id FROM pipelines WHERE bundle_id IS NULL AND created = '2024-01-01T00:00:00.000Z'",
    )!;
    const notBundle = await t.call("GET", `/v1/projects/bund/git/bundles/pipelines/${plain.id}`);
    expect(notBundle.status).toBe(404);
    expect(
      (await t.call("GET", `/v1/projects/target/git/bundles/pipelines/${r.body.data[0].id}`))
        .status,
    ).toBe(404);
    expect((await t.call("GET", `/v1/projects/bund/git/bundle/99999/pipelines`)).status).toBe(404);
    expect((await t.call("GET", "/v1/projects/bund/git/bundles", { as: "other" })).status).toBe(
      404,
    );
  });
});

describe("DORA metrics (/git-api)", () => {
  const dora = (
    kind: "projects" | "groups",
    id: string | number,
    query: Record<string, string>,
    token: string = TOKENS.member.secret,
  ) =>
    t.call("GET", `/git-api/${kind}/${id}/dora/metrics`, {
      as: null,
      headers: { "private-token": token },
      query,
    });
  const march = { start_date: "2024-03-01", end_date: "2024-03-05" };
  const values = (b: { value: number }[]) => b.map((p) => p.value);

  it("derives daily values from the project's pipelines, for a repository by id or encoded path", async () => {
    const byId = await dora("projects", repoId("metrics", "app"), {
      metric: "deployment_frequency",
      ...march,
    });
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual([
      { date: "2024-03-01", value: 2 },
      { date: "2024-03-02", value: 1 },
      { date: "2024-03-03", value: 0 },
      { date: "2024-03-04", value: 0 },
      { date: "2024-03-05", value: 1 },
    ]);
    const byPath = await dora("projects", "acme%2Fmetrics%2Fteam%2Fapp", {
      metric: "deployment_frequency",
      ...march,
    });
    expect(byPath.body).toEqual(byId.body);
    const cfr = await dora("projects", "acme%2Fmetrics%2Fteam%2Fapp", {
      metric: "change_failure_rate",
      ...march,
    });
    expect(values(cfr.body)).toEqual([0.3333, 0, 0, 1, 0]);
    const lt = await dora("projects", repoId("metrics", "app"), {
      metric: "lead_time_for_changes",
      ...march,
    });
    expect(values(lt.body)).toEqual([200, 200, 0, 0, 400]);
    const ttrs = await dora("projects", repoId("metrics", "app"), {
      metric: "time_to_restore_service",
      ...march,
    });
    expect(values(ttrs.body)).toEqual([3600, 0, 0, 86400, 0]);
  });

  it("groups by id or path (project group and subgroups) answer the same project's values", async () => {
    const gid = (await t.call("GET", "/v1/projects/metrics/git/groups")).body.data.id;
    const q = { metric: "deployment_frequency", ...march, interval: "all" };
    const byId = await dora("groups", gid, q);
    expect(byId.body).toEqual([{ date: "2024-03-01", value: 4 }]);
    expect((await dora("groups", "acme%2Fmetrics", q)).body).toEqual(byId.body);
    expect((await dora("groups", "acme%2Fmetrics%2Fteam", q)).body).toEqual(byId.body);
    const sub = (await t.call("GET", "/v1/projects/metrics/git/subgroups")).body.data[0].id;
    expect((await dora("groups", sub, q)).body).toEqual(byId.body);
  });

  it("monthly and all: totals for frequency and rate, median of daily medians for times", async () => {
    const range = { start_date: "2024-03-01", end_date: "2024-04-30", interval: "monthly" };
    const df = await dora("projects", repoId("metrics", "app"), {
      metric: "deployment_frequency",
      ...range,
    });
    expect(df.body).toEqual([
      { date: "2024-03-01", value: 4 },
      { date: "2024-04-01", value: 1 },
    ]);
    const lt = await dora("projects", repoId("metrics", "app"), {
      metric: "lead_time_for_changes",
      ...range,
    });
    expect(values(lt.body)).toEqual([200, 1000]);
    const cfr = await dora("projects", repoId("metrics", "app"), {
      metric: "change_failure_rate",
      ...range,
    });
    expect(values(cfr.body)).toEqual([0.3333, 0]);
    const all = await dora("projects", repoId("metrics", "app"), {
      metric: "time_to_restore_service",
      ...march,
      interval: "all",
    });
    expect(all.body).toEqual([{ date: "2024-03-01", value: 45000 }]);
    const staging = await dora("projects", repoId("metrics", "app"), {
      metric: "deployment_frequency",
      ...march,
      environment_tiers: "staging",
    });
    expect(values(staging.body)).toEqual([0, 0, 0, 0, 0]);
  });

  it("defaults to the last 3 months, daily, ending today", async () => {
    const r = await dora("projects", repoId("metrics", "app"), { metric: "deployment_frequency" });
    const today = new Date().toISOString().slice(0, 10);
    const start = new Date(`${today}T00:00:00Z`);
    start.setUTCMonth(start.getUTCMonth() - 3);
    expect(r.body[0].date).toBe(start.toISOString().slice(0, 10));
    expect(r.body[r.body.length - 1].date).toBe(today);
  });

  it("rejects what it cannot answer: no token 401, unknown 404, no metric 400, bad range 422", async () => {
    const noToken = await t.call(
      "GET",
      `/git-api/projects/${repoId("metrics", "app")}/dora/metrics`,
      {
        query: { metric: "deployment_frequency" },
      },
    );
    expect(noToken.status).toBe(401);
    expect((await dora("projects", 99999, { metric: "deployment_frequency" })).status).toBe(404);
    expect((await dora("groups", "acme%2Fnope", { metric: "deployment_frequency" })).status).toBe(
      404,
    );
    expect(
      (await dora("groups", "acme%2Fmetrics%2Fnope", { metric: "deployment_frequency" })).status,
    ).toBe(404);
    const other = await dora(
      "projects",
      repoId("metrics", "app"),
      { metric: "deployment_frequency" },
      TOKENS.other.secret,
    );
    expect(other.status).toBe(404);
    const noMetric = await dora("projects", repoId("metrics", "app"), {});
    expect(noMetric.status).toBe(400);
    expect(noMetric.body.errors[0].field).toBe("metric");
    const reversed = await dora("projects", repoId("metrics", "app"), {
      metric: "deployment_frequency",
      start_date: "2024-03-05",
      end_date: "2024-03-01",
    });
    expect(reversed.status).toBe(422);
    expect(reversed.body.errors[0].field).toBe("start_date");
    const tooLong = await dora("projects", repoId("metrics", "app"), {
      metric: "deployment_frequency",
      start_date: "2020-01-01",
      end_date: "2024-01-01",
    });
    expect(tooLong.status).toBe(422);
  });
});
