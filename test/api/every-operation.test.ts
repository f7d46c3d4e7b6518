/**
 * Every operation of the route table, at least once, through the typed client against the
 * reference server on loopback — created through the API where the API can create it,
 * seeded where it cannot (organization teams, pipelines, commits). Each step is recorded;
 * the test fails listing every operation that was not called successfully, and says which
 * of those failed because the server has no handler for it yet.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { ApiError } from "../../src/api/errors.js";
import { queueIdOf } from "../../src/api/queue.js";
import { operations, type OperationId } from "../../src/api/routes.js";
import { allHandlers } from "../../src/server/app.js";
import { seed } from "../../src/server/seed.js";
import { postCalls, postsIn, startClient, type ClientFixture } from "./helpers.js";

let f: ClientFixture;
const SHA = "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678";

beforeAll(async () => {
  f = await startClient({ queueDelayMs: 20 });
  // What the API cannot create: organization teams, commits, pipelines, bundle pipelines.
  seed(f.server.ctx, {
    parentOrganization: "acme",
    orgTeams: [{ organization: "acme", name: "Firmware leads", path: "fw-leads" }],
    projects: [
      {
        slug: "ev-seeded",
        name: "Seeded",
        git: {
          repositories: [
            {
              name: "history",
              commits: [{ sha: SHA, title: "Initial", authorEmail: "dev@example.org" }],
            },
          ],
          bundles: [{ frequency: "weekly" }],
        },
        pipelines: [
          {
            status: "success",
            ref: "main",
            created: "2026-01-10T10:00:00.000Z",
            duration: 120,
            jobs: [{ name: "build", stage: "build", status: "success", duration: 60 }],
          },
          { status: "success", ref: "main", created: "2026-01-11T10:00:00.000Z", bundle: true },
        ],
      },
    ],
  });
});
afterAll(async () => {
  await f.stop();
});

it("calls every operation of the route table successfully", async () => {
  const api = f.client.ops;
  const c = f.client;
  const done = new Set<OperationId>();
  const failures: { op: string; error: string }[] = [];

  /** Run one step that exercises `ops`; record them as done when it succeeds. */
  async function step<T>(
    ops: OperationId | OperationId[],
    fn: () => Promise<T>,
  ): Promise<T | undefined> {
    const list = Array.isArray(ops) ? ops : [ops];
    try {
      const r = await fn();
      for (const op of list) done.add(op);
      return r;
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      failures.push({ op: list.join(", "), error: msg });
      return undefined;
    }
  }
  const job = async (kind: Parameters<typeof c.waitForJob>[0], answer: unknown) => {
    const id = queueIdOf(answer);
    if (!id) throw new Error(`no queue id in ${JSON.stringify(answer)}`);
    return c.waitForJob(kind, id);
  };
  const P = { projectSlug: "ev-proj" };

  // ---------------------------------------------------------------- organizations, licenses
  const partner = await step("organizations.create", async () => {
    const r = await api.organizations.create({ body: { organization: "ev-partner" } });
    expect(r.data.name).toBe("ev-partner");
    return r.data;
  });
  await step("organizations.list", async () => {
    expect((await api.organizations.list()).map((o) => o.name)).toContain("ev-partner");
  });
  await step("organizations.ui", async () => {
    expect((await api.organizations.ui()).organizations.length).toBeGreaterThan(1);
  });
  await step(["organizations.rename", "organizations.renameStatus"], async () => {
    const other = await api.organizations.create({ body: { organization: "ev-old" } });
    const r = await api.organizations.rename({
      params: { orgid: other.data.id },
      body: { new_name: "ev-renamed" },
    });
    expect((await job("rename", r)).status).toBe("completed");
  });
  await step("licenses.list", async () => {
    expect((await api.licenses.list()).map((l) => l.name)).toContain("MIT");
  });

  // ---------------------------------------------------------------- users
  for (const u of ["ev-alice", "ev-bob"]) {
    await step("users.create", async () => {
      const r = await api.users.create({
        body: { username: u, firstName: u, lastName: "Ev", externalEmail: `${u}@example.org` },
      });
      expect(r.data.username).toBe(u);
    });
  }
  await step("users.get", async () => {
    expect((await api.users.get({ params: { username: "ev-alice" } })).data.email).toBe(
      "ev-alice@example.org",
    );
  });
  await step("users.list", async () => {
    const r = await api.users.list({ query: { query: "ev-" } });
    expect(r.data.map((u) => u.username)).toEqual(["ev-alice", "ev-bob"]);
  });
  await step("users.replace", async () => {
    const r = await api.users.replace({
      params: { username: "ev-bob" },
      body: { firstName: "Bob", lastName: "Builder" },
    });
    expect(r.data.lastName).toBe("Builder");
  });
  await step("users.patch", async () => {
    const r = await api.users.patch({ params: { username: "ev-bob" }, body: { displayName: "B" } });
    expect(r.data.displayName).toBe("B");
  });
  await step("users.sendWelcome", async () => {
    const r = await api.users.sendWelcome({ params: { username: "ev-alice" } });
    expect(r.info.sentTo).toBe("ev-alice@example.org");
  });
  await step(["users.transfer", "users.transferStatus"], async () => {
    const r = await api.users.transfer({
      params: { username: "ev-bob" },
      body: { org_id: partner!.id },
    });
    expect((await job("transfer", r)).status).toBe("completed");
    expect((await api.users.get({ params: { username: "ev-bob" } })).data.organization).toBe(
      "ev-partner",
    );
  });

  // ---------------------------------------------------------------- service accounts
  const U = { username: "ev-alice" };
  const accounts = [
    {
      s: "git",
      create: { personalProjectLimit: 2 },
      update: { status: "active", personalProjectLimit: 3 },
    },
    { s: "artifactservice", create: {}, update: { status: "inactive" } },
    { s: "servicedesk", create: {}, update: { status: "inactive" } },
    { s: "email", create: { mailplan: "non-retention" }, update: { status: "inactive" } },
    { s: "irc", create: { displayName: "alice" }, update: { status: "inactive" } },
    { s: "wiki", create: {}, update: { status: "active" } },
  ] as const;
  for (const a of accounts) {
    const ops = (v: string) => `users.${a.s}.${v}` as OperationId;
    await step([ops("create"), "users.entitlementStatus"], async () => {
      const r = await c.call(ops("create") as "users.git.create", {
        params: U,
        body: a.create as { personalProjectLimit?: number },
      });
      expect((await job("entitlement", r)).status).toBe("completed");
    });
    await step(ops("get"), async () => {
      const r = await c.call(ops("get") as "users.git.get", { params: U });
      expect(r.data.service).toBeTruthy();
    });
    await step(ops("update"), async () => {
      const r = await c.call(ops("update") as "users.git.update", {
        params: U,
        body: a.update,
      });
      expect((await job("entitlement", r)).status).toBe("completed");
    });
  }
  await step("users.services", async () => {
    const r = await api.users.services({ params: U });
    expect(r.data.git?.personalProjectLimit).toBe(3);
  });

  // ---------------------------------------------------------------- user teams
  const T = { teamname: "ev-team" };
  const PO = { parentOrganization: "acme" };
  await step("teams.create", async () => {
    const r = await api.teams.create({
      body: {
        name: "ev-team",
        gitservice: true,
        artifactservice: false,
        wiki: false,
        userNames: ["ev-alice"],
      },
    });
    expect(r.data.name).toBe("ev-team");
  });
  await step("teams.list", async () => {
    expect((await api.teams.list()).data.map((t) => t.name)).toContain("ev-team");
  });
  await step("teams.get", async () => {
    expect((await api.teams.get({ params: T, query: PO })).userNames).toEqual(["ev-alice"]);
  });
  await step("teams.enableService", async () => {
    const r = await api.teams.enableService({ params: T, body: { ...PO, service: "wiki" } });
    expect(r.data.wiki).toBe(true);
  });
  await step("teams.services", async () => {
    expect((await api.teams.services({ params: T, query: PO })).wiki).toBe(true);
  });
  await step("teams.addUser", async () => {
    await api.teams.addUser({ params: { ...T, username: "ev-bob" }, query: PO });
  });
  await step("teams.users", async () => {
    const r = await api.teams.users({ params: T, query: PO });
    expect(r.map((u) => u.username).sort()).toEqual(["ev-alice", "ev-bob"]);
  });
  await step("teams.removeUser", async () => {
    await api.teams.removeUser({ params: { ...T, username: "ev-bob" }, query: PO });
  });

  // ---------------------------------------------------------------- organization teams
  const orgTeam = await step("orgTeams.list", async () => {
    const r = await api.orgTeams.list();
    const t = r.data.find((x) => x.path === "fw-leads");
    expect(t).toBeDefined();
    return t!;
  });
  await step("orgTeams.get", async () => {
    const r = await api.orgTeams.get({ params: { teamid: Number(orgTeam!.id) } });
    expect(r.data.path).toBe("fw-leads");
  });
  await step("orgTeams.update", async () => {
    const r = await api.orgTeams.update({
      params: { teamid: Number(orgTeam!.id) },
      body: { name: "Firmware maintainers" },
    });
    expect(r.data.name).toBe("Firmware maintainers");
  });

  // ---------------------------------------------------------------- projects and access
  await step("projects.create", async () => {
    const r = await api.projects.create({
      body: { name: "Ev project", description: "every operation", projectSlug: "ev-proj" },
    });
    expect(r.data.projectSlug).toBe("ev-proj");
  });
  await step("projects.list", async () => {
    expect((await api.projects.list({ query: { query: "Ev project" } })).data).toHaveLength(1);
  });
  await step("projects.get", async () => {
    expect((await api.projects.get({ params: P })).data.name).toBe("Ev project");
  });
  await step("projects.replace", async () => {
    const r = await api.projects.replace({ params: P, body: { name: "Ev", description: "d" } });
    expect(r.data.name).toBe("Ev");
  });
  await step("projects.patch", async () => {
    const r = await api.projects.patch({ params: P, body: { restrictionLevel: "read-only" } });
    expect(r.data.restrictionLevel).toBe("read-only");
  });
  await step("access.addUser", async () => {
    await api.access.addUser({ params: { ...P, level: "admins", username: "ev-alice" } });
    const r = await api.access.addUser({
      params: { ...P, level: "developers", username: "ev-alice" },
    });
    expect((await job("entitlement", r)).status).toBe("completed");
    await api.access.addUser({ params: { ...P, level: "editors", username: "ev-alice" } });
  });
  await step("access.list", async () => {
    const r = await api.access.list({ params: { ...P, level: "developers" } });
    expect(JSON.stringify(r)).toContain("ev-alice");
  });
  await step("access.removeUser", async () => {
    await api.access.removeUser({ params: { ...P, level: "editors", username: "ev-alice" } });
  });
  await step(["access.addOrgTeam", "orgTeams.queueStatus"], async () => {
    const r = await api.access.addOrgTeam({
      params: { ...P, level: "maintainers", orgPathId: "fw-leads" },
    });
    expect((await job("orgTeam", r)).status).toBe("completed");
  });
  await step("access.removeOrgTeam", async () => {
    const r = await api.access.removeOrgTeam({
      params: { ...P, level: "maintainers", orgPathId: "fw-leads" },
    });
    expect((await job("orgTeam", r)).status).toBe("completed");
  });
  await step("users.projects", async () => {
    const r = await api.users.projects({ params: U });
    expect(r.data.map((p) => p.projectSlug)).toContain("ev-proj");
  });
  await step("projects.licenses.add", async () => {
    await api.projects.licenses.add({ params: { ...P, name: "MIT" } });
  });
  await step("projects.licenses.list", async () => {
    expect((await api.projects.licenses.list({ params: P })).map((l) => l.name)).toEqual(["MIT"]);
  });
  await step("projects.licenses.remove", async () => {
    await api.projects.licenses.remove({ params: { ...P, name: "MIT" } });
  });
  await step("teams.projects", async () => {
    expect(Array.isArray(await api.teams.projects({ params: T, query: PO }))).toBe(true);
  });

  // ---------------------------------------------------------------- git groups, subgroups
  const group = await step("git.group.create", async () => {
    const r = await api.git.group.create({ params: P, body: { enable_ci: true } });
    return r.data;
  });
  await step("git.group.get", async () => {
    expect((await api.git.group.get({ params: P })).data.id).toBe(group!.id);
  });
  await step("git.group.update", async () => {
    await api.git.group.update({ params: P, body: { request_access_enabled: true } });
  });
  await step("git.subgroups.create", async () => {
    const r = await api.git.subgroups.create({ params: P, body: { subGroups: "docs/old" } });
    expect(r.data.length).toBe(2);
  });
  const subgroups = await step("git.subgroups.list", async () => {
    const r = await api.git.subgroups.list({ params: P });
    expect(r.data.length).toBe(2);
    return r.data;
  });
  await step("git.subgroups.update", async () => {
    await api.git.subgroups.update({
      params: { ...P, groupID: subgroups![0].id },
      body: { request_access_enabled: true },
    });
  });
  await step("git.subgroups.delete", async () => {
    const deepest = subgroups!.find((s) => s.parentId !== null)!;
    await api.git.subgroups.delete({ params: { ...P, groupID: deepest.id } });
  });

  // ---------------------------------------------------------------- repositories
  const repo = await step("git.repos.create", async () => {
    const r = await api.git.repos.create({
      params: P,
      body: { name: "firmware", repoPathNew: "docs", issueTracking: "enabled" },
    });
    return r.data;
  });
  const R = { ...P, repoID: repo?.gitRepoID ?? 0 };
  await step("git.repos.list", async () => {
    expect((await api.git.repos.list({ params: P })).data.map((r) => r.name)).toEqual(["firmware"]);
  });
  await step("git.repos.get", async () => {
    expect((await api.git.repos.get({ params: R })).data.subgroups).toBe("docs");
  });
  await step("git.repos.replace", async () => {
    const r = await api.git.repos.replace({ params: R, body: { mergeRequests: "enabled" } });
    expect(r.data.mergeRequests).toBe("enabled");
  });
  await step("git.repos.patch", async () => {
    expect(
      (await api.git.repos.patch({ params: R, body: { requiresDCO: true } })).data.requiresDCO,
    ).toBe(true);
  });
  await step("git.repos.cleanup", async () => {
    await api.git.repos.cleanup({ params: R });
  });
  await step("git.repos.enableCommitBlocker", async () => {
    await api.git.repos.enableCommitBlocker({
      params: R,
      body: {
        emailCheck: [
          { type: "author", domain: "example.com" },
          { type: "committer", domain: "example.com" },
        ],
      },
    });
  });
  await step("git.repos.removeCommitBlocker", async () => {
    await api.git.repos.removeCommitBlocker({ params: R });
  });
  const seededRepo = await step("git.repos.list", async () => {
    const r = await api.git.repos.list({ params: { projectSlug: "ev-seeded" } });
    return r.data[0];
  });
  const SR = { projectSlug: "ev-seeded", repoID: seededRepo?.gitRepoID ?? 0 };
  await step("git.repos.commit", async () => {
    expect((await api.git.repos.commit({ params: { ...SR, sha: SHA } })).data.id).toBe(SHA);
  });
  await step("git.repos.commits", async () => {
    const r = await api.git.repos.commits({
      params: SR,
      body: { shas: [[SHA], ["0".repeat(40)]] },
    });
    expect(r.data[0][0]?.id).toBe(SHA);
  });
  await step("metrics.gitSearch", async () => {
    expect((await api.metrics.gitSearch({ params: { sha: SHA } }))[0].projectSlug).toBe(
      "ev-seeded",
    );
  });
  await step("git.fork", async () => {
    const r = await api.git.fork({
      params: P,
      body: { repoPathFrom: seededRepo!.sshURI, name: "history-fork" },
    });
    expect(r.data.gitSourceRepoID).toBe(seededRepo!.gitRepoID);
  });
  await step("git.archiveExternal", async () => {
    const r = await api.git.archiveExternal({
      params: P,
      body: {
        repoGitURL: "https://github.com/example/tree.git",
        refSpace: "HEAD",
        format: "tar",
        archiveFilename: "tree",
        prefix: "tree/",
        notification: "ops@example.org",
      },
    });
    expect(r.data.format).toBe("tar");
  });

  // ---------------------------------------------------------------- persistent storage, bundles
  const fsId = await step("storage.enable", async () => {
    const r = await api.storage.enable({ params: R });
    return Number(/filesystem (\d+)/.exec(r.status.message)![1]);
  });
  await step("storage.lookup", async () => {
    expect((await api.storage.lookup({ params: { filesystemId: fsId! } })).repo_id).toBe(R.repoID);
  });
  await step("storage.updateStatus", async () => {
    await api.storage.updateStatus({
      params: { filesystemId: fsId! },
      body: { status: "inactive", repoID: R.repoID },
    });
  });
  await step("storage.disable", async () => {
    await api.storage.disable({ params: R });
  });
  await step("bundles.createProject", async () => {
    await api.bundles.createProject({ params: P, body: { frequency: "weekly" } });
  });
  await step("bundles.createRepo", async () => {
    await api.bundles.createRepo({ params: R, body: { frequency: "daily" } });
  });
  await step("bundles.list", async () => {
    expect((await api.bundles.list({ params: P })).data).toHaveLength(2);
  });
  const seededBundle = await step("bundles.list", async () => {
    return (await api.bundles.list({ params: { projectSlug: "ev-seeded" } })).data[0];
  });
  const SB = { projectSlug: "ev-seeded", bundleId: seededBundle?.id ?? 0 };
  await step("bundles.get", async () => {
    expect((await api.bundles.get({ params: SB })).data.frequency).toBe("weekly");
  });
  const bundlePipelines = await step("bundles.pipelines", async () => {
    const r = await api.bundles.pipelines({ params: SB });
    expect(r.data).toHaveLength(1);
    return r.data;
  });
  await step("bundles.pipeline", async () => {
    const id = bundlePipelines![0].id;
    expect(
      (await api.bundles.pipeline({ params: { projectSlug: "ev-seeded", pipelineId: id } })).data
        .id,
    ).toBe(id);
  });

  // ---------------------------------------------------------------- pipelines and metrics
  const pipelines = await step("pipelines.list", async () => {
    const r = await api.pipelines.list({ params: { projectSlug: "ev-seeded" } });
    expect(r.length).toBeGreaterThan(0);
    return r;
  });
  await step("pipelines.jobs", async () => {
    const withJobs = pipelines!.find((p) => p.ref === "main")!;
    const r = await api.pipelines.jobs({
      params: { projectSlug: "ev-seeded", pipelinesid: withJobs.id },
    });
    expect(Array.isArray(r)).toBe(true);
  });
  await step("metrics.pipelines", async () => {
    expect(
      (await api.metrics.pipelines({ params: { projectSlug: "ev-seeded" } })).length,
    ).toBeGreaterThan(0);
  });
  await step("metrics.pipelineCounts", async () => {
    expect(
      Array.isArray(await api.metrics.pipelineCounts({ params: { projectSlug: "ev-seeded" } })),
    ).toBe(true);
  });
  for (const op of ["users", "usersEmail", "usersGit", "usersArtifact", "usersIrc"] as const) {
    await step(`metrics.${op}`, async () => {
      const r = await c.call(`metrics.${op}`, { query: { organization: "acme" } });
      expect(r.data).toBeDefined();
    });
  }
  await step("metrics.usersSearch", async () => {
    const r = await api.metrics.usersSearch({ params: { organization: "acme" } });
    expect(r.map((u) => u.username)).toContain("ev-alice");
  });
  await step("dora.project", async () => {
    const r = await api.dora.project({
      params: { id: String(seededRepo!.gitRepoID) },
      query: { metric: "deployment_frequency", start_date: "2026-01-01", end_date: "2026-01-31" },
    });
    expect(Array.isArray(r)).toBe(true);
  });
  await step("dora.group", async () => {
    const r = await api.dora.group({
      params: { id: String(group!.id) },
      query: { metric: "change_failure_rate", interval: "monthly" },
    });
    expect(Array.isArray(r)).toBe(true);
  });

  // ---------------------------------------------------------------- mirrors
  const mirror = await step("mirrors.create", async () => {
    const r = await api.mirrors.create({
      params: P,
      body: {
        repoURLFrom: "https://github.com/example/firmware.git",
        repoURLTo: repo!.sshURI,
        refSpaceFrom: "refs/heads/*",
        refSpaceTo: "refs/heads/*",
        frequency: "daily",
      },
    });
    return r.data;
  });
  const M = { ...P, mirrorID: Number(mirror?.mirrorID ?? 0) };
  await step("mirrors.list", async () => {
    expect((await api.mirrors.list({ params: P })).data).toHaveLength(1);
  });
  await step("mirrors.get", async () => {
    expect((await api.mirrors.get({ params: M })).data.frequency).toBe("daily");
  });
  await step("mirrors.update", async () => {
    expect(
      (await api.mirrors.update({ params: M, body: { frequency: "weekly" } })).data.frequency,
    ).toBe("weekly");
  });
  await step("mirrors.disableSelected", async () => {
    const r = await api.mirrors.disableSelected({
      params: P,
      body: { mirrorIds: [M.mirrorID], notes: "test" },
    });
    expect(r.data[0].enabled).toBe(false);
  });
  await step("mirrors.enableSelected", async () => {
    const r = await api.mirrors.enableSelected({
      params: P,
      body: { mirrorIds: [M.mirrorID], notes: "test" },
    });
    expect(r.data[0].enabled).toBe(true);
  });
  await step("mirrors.disableAll", async () => {
    await api.mirrors.disableAll({ params: P, body: { notes: "all off" } });
  });
  await step("mirrors.enableAll", async () => {
    await api.mirrors.enableAll({ params: P, body: { notes: "all on" } });
  });
  await step("mirrors.delete", async () => {
    await api.mirrors.delete({ params: M });
  });

  // ---------------------------------------------------------------- project wiki
  await step("wiki.create", async () => {
    expect((await api.wiki.create({ params: P })).data.projectSlug).toBe("ev-proj");
  });
  await step("wiki.get", async () => {
    expect((await api.wiki.get({ params: P })).data.spaceKey).toBeTruthy();
  });
  await step("wiki.token", async () => {
    expect((await api.wiki.token({ params: P })).data.token).toBeTruthy();
  });
  await step("wiki.orgToken", async () => {
    expect((await api.wiki.orgToken()).data.token).toBeTruthy();
  });
  await step("wiki.delete", async () => {
    await api.wiki.delete({ params: P });
  });

  // ---------------------------------------------------------------- artifact repositories
  const art = await step("artifacts.repos.create", async () => {
    const r = await api.artifacts.repos.create({
      params: P,
      body: { name: "releases", repoType: "generic" },
    });
    return r.data;
  });
  const A = { ...P, artifactRepoID: art?.id ?? 0 };
  await step("artifacts.repos.list", async () => {
    expect((await api.artifacts.repos.list({ params: P })).data).toHaveLength(1);
  });
  await step("artifacts.repos.get", async () => {
    expect((await api.artifacts.repos.get({ params: A })).data.id).toBe(A.artifactRepoID);
  });
  const F = { ...A, filePath: "v1/fw.bin" };
  await step("artifacts.files.upload", async () => {
    const r = await api.artifacts.files.upload({
      params: A,
      body: {
        sourceFilePath: "/tmp/fw.bin",
        destinationFilePath: "v1/fw.bin",
        metadata: { legacy: true },
      },
    });
    expect(r.data.status).toBe("pending");
  });
  await step("artifacts.files.list", async () => {
    // Files and the folders their paths imply.
    const uris = (await api.artifacts.files.list({ params: A })).data.map((x) => x.uri);
    expect(uris.some((u) => u.endsWith("fw.bin"))).toBe(true);
  });
  await step("artifacts.files.get", async () => {
    expect((await api.artifacts.files.get({ params: F })).data).toBeDefined();
  });
  await step("artifacts.files.replace", async () => {
    await new Promise((r) => setTimeout(r, 50)); // the upload "arrives" after the queue delay
    expect(
      (await api.artifacts.files.replace({ params: F, body: { status: "active" } })).data.status,
    ).toBe("active");
  });
  await step("artifacts.files.patch", async () => {
    expect(
      (await api.artifacts.files.patch({ params: F, body: { status: "inactive" } })).data.status,
    ).toBe("inactive");
  });
  await step("artifacts.files.delete", async () => {
    await api.artifacts.files.delete({ params: F });
  });
  await step("artifacts.repos.delete", async () => {
    await api.artifacts.repos.delete({ params: A });
  });

  // ---------------------------------------------------------------- archive, restore, deletes
  await step("projects.archive", async () => {
    expect((await api.projects.archive({ params: P })).data.projectSlug).toBe("ev-proj");
  });
  await step("projects.archived", async () => {
    const r = await api.projects.archived({ params: P });
    expect(r.data.map((p) => p.projectSlug)).toContain("ev-proj");
  });
  await step("projects.restore", async () => {
    const r = await api.projects.restore({ params: P, body: { oldproject: "ev-proj" } });
    expect(r.data.status).toBe("active");
  });
  await step("git.repos.delete", async () => {
    await api.git.repos.delete({ params: R });
  });
  await step("git.group.delete", async () => {
    await api.git.group.delete({ params: P });
  });
  await step("teams.delete", async () => {
    await api.teams.delete({ params: T, query: PO });
  });
  for (const a of accounts) {
    await step(`users.${a.s}.delete` as OperationId, async () => {
      await c.call(`users.${a.s}.delete` as "users.git.delete", { params: U });
    });
  }

  // ---------------------------------------------------------------- the verdict
  const handlers = allHandlers();
  const missing = operations.map(([op]) => op).filter((op) => !done.has(op));
  const report = missing.map((op) => ({
    op,
    handler: op in handlers ? "present" : "MISSING in the server",
    error: failures.find((x) => x.op.split(", ").includes(op))?.error ?? "(not called)",
  }));
  if (report.length > 0) console.log(JSON.stringify(report, null, 2));
  expect(failures).toEqual([]);
  expect(missing).toEqual([]);
  expect(done.size).toBe(operations.length);

  // Nothing was retried, and the server saw each POST the client made exactly once.
  const m = c.metrics.snapshot();
  expect(m.errors).toBe(0);
  expect(postsIn(f.server.requestLog).length).toBe(postCalls(c).calls);
}, 120_000);

it("reports operations that fail because the server handler is missing", () => {
  // Kept as its own assertion so a missing handler is named, not hidden in a long failure.
  const handlers = allHandlers();
  const missing = operations.map(([op]) => op).filter((op) => !(op in handlers));
  expect(missing).toEqual([]);
});

it("typed errors carry ApiError for an operation the server refuses", async () => {
  const e = await f.client.ops.projects
    .get({ params: { projectSlug: "does-not-exist" } })
    .catch((x: unknown) => x);
  expect(e).toBeInstanceOf(ApiError);
  expect((e as ApiError).pathTemplate).toBe("/v1/projects/{projectSlug}");
});
