/**
 * Repository kind against the reference server: reads of seeded state (objects and calls),
 * create → read → no changes (a plain repository with commit blocker, storage, bundle and
 * archiving; a fork of another project's repository in a nested subgroup, through the
 * fork-cleanup 500), updates naming exactly the changed field, blocked changes never sent,
 * and the ownership of undeclared repositories (unmanaged, pruned, protected).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { repositoryKind } from "../../src/kinds/repository.js";
import { seed, type SeedProject } from "../../src/server/seed.js";
import { startClient, type ClientFixture } from "../api/helpers.js";
import { lines, load, projectDoc } from "../helpers/kinds.js";
import { applyAndReplan, execute, planFor, readKind } from "./git-fixtures.js";

const UPSTREAM_SEED: SeedProject = {
  slug: "upstream",
  name: "Upstream",
  git: { repositories: [{ name: "core", issueTracking: "enabled", mergeRequests: "enabled" }] },
};
const UPSTREAM = projectDoc(
  "upstream",
  `
title: Upstream
git:
  repositories:
    - { name: core, issueTracking: enabled, mergeRequests: enabled }
`,
);

const MAIN = `
    - name: main
      issueTracking: enabled
      requiresDCO: true
      status: archived
      commitBlocker: { author: [Example.com, arm.com], committer: [arm.com], since: "2024-03-01" }
      persistentStorage: true
      bundle: { frequency: weekly }`;
const FORK_FROM = "forkFrom: https://git.example.org/acme/upstream/core.git";

interface FwOptions {
  /** The main repository's list item. */
  main?: string;
  /** fork-of-core declared as a fork (default true). */
  fork?: boolean;
  /** plain declared as a fork. */
  plainFork?: boolean;
  annotations?: string;
}

const fwDoc = (o: FwOptions = {}) =>
  projectDoc(
    "fw",
    `
title: Firmware
git:
  subgroups: [tools/ci]
  repositories:${o.main ?? MAIN}
    - name: fork-of-core
      subgroup: tools/ci
      enableForking: false${o.fork === false ? "" : `\n      ${FORK_FROM}`}
    - name: plain${o.plainFork ? `\n      ${FORK_FROM}` : ""}
`,
    o.annotations,
  );

let t: ClientFixture;
beforeEach(async () => {
  t = await startClient();
});
afterEach(async () => t.stop());

const lastSeq = () => t.server.requestLog.at(-1)?.seq ?? 0;
const requestsAfter = (seq: number) => t.server.requestLog.filter((r) => r.seq > seq);
const repo = async (slug: string, name: string) => {
  const all = await t.call("GET", `/v1/projects/${slug}/git/repo`, { query: { all: true } });
  return all.body.data.find((r: { name: string }) => r.name === name);
};

/** The fw project seeded in sync with fwDoc(), apart from `over`. */
function seedInSync(over: Partial<Record<"main" | "plain", object>> = {}, bundle = "weekly") {
  seed(t.server.ctx, {
    parentOrganization: "acme",
    projects: [
      UPSTREAM_SEED,
      {
        slug: "fw",
        name: "Firmware",
        git: {
          subgroups: ["tools/ci"],
          repositories: [
            {
              name: "main",
              issueTracking: "enabled",
              requiresDCO: true,
              status: "archived",
              commitBlocker: {
                author: ["arm.com", "example.com"],
                committer: ["arm.com"],
                since: "2024-03-01T00:00:00.000Z",
              },
              persistentStorage: true,
              ...over.main,
            },
            {
              name: "fork-of-core",
              subgroup: "tools/ci",
              forkOf: { project: "upstream", name: "core" },
              issueTracking: "disabled",
              mergeRequests: "disabled",
              enableForking: false,
            },
            { name: "plain", ...over.plain },
          ],
          bundles: [{ frequency: bundle, repository: "main" }],
        },
      },
    ],
  });
}

describe("read", () => {
  it("reads the live repositories of declared git projects: 1 list + 1 bundles call each", async () => {
    seedInSync();
    const state = load(`${UPSTREAM}---\n${fwDoc()}`);
    const { objects, calls } = await readKind(t.client, repositoryKind, state);
    const desired = new Map(repositoryKind.desired(state).map((d) => [d.key, d.fields]));
    expect(objects.map((o) => o.key).sort()).toEqual([...desired.keys()].sort());
    for (const o of objects) expect(o.fields).toEqual(desired.get(o.key));
    expect(objects.find((o) => o.key === "project/fw/repo/main")!.ids).toEqual({
      gitRepoID: expect.any(Number),
    });
    // project list + 2 groups + 2 repository lists + fw's bundles (upstream declares none).
    expect(calls).toBe(6);
  });
});

describe("create → read → no changes", () => {
  it("a plain repository with blocker, storage, bundle, archived; a fork across projects", async () => {
    seed(t.server.ctx, {
      parentOrganization: "acme",
      projects: [UPSTREAM_SEED, { slug: "fw", name: "Firmware", git: { subgroups: ["tools/ci"] } }],
    });
    // The first fork into fw fails on the git host; the client retries through the cleanup.
    await t.call("POST", "/_control/fork-failure", { body: { project: "fw" } });
    const state = load(`${UPSTREAM}---\n${fwDoc()}`);
    const first = await planFor(t.client, state);
    expect(lines(first.plan)).toEqual([
      "create project/fw/repo/main",
      "create project/fw/repo/plain",
      "create project/fw/repo/tools/ci/fork-of-core",
    ]);
    const again = await applyAndReplan(t.client, state);
    expect(again.plan.entries).toEqual([]);

    const core = await repo("upstream", "core");
    const fork = await repo("fw", "fork-of-core");
    expect(fork).toMatchObject({
      subgroups: "tools/ci",
      gitSourceRepoID: core.gitRepoID,
      issueTracking: "disabled",
      mergeRequests: "disabled",
      enableForking: false,
    });
    const main = await repo("fw", "main");
    expect(main).toMatchObject({
      status: "archived",
      requiresDCO: true,
      commitBlocker: { author: ["arm.com", "example.com"], committer: ["arm.com"] },
      persistentStorage: { status: "active" },
    });
    const bundles = await t.call("GET", "/v1/projects/fw/git/bundles");
    expect(bundles.body.data).toMatchObject([{ repoId: main.gitRepoID, frequency: "weekly" }]);

    const ops = t.server.requestLog.map((r) => `${r.operation} ${r.status}`);
    expect(ops.filter((o) => o.startsWith("git.fork "))).toEqual(
      expect.arrayContaining(["git.fork 500", "git.fork 201"]),
    );
    expect(ops.filter((o) => o === "git.fork 201")).toHaveLength(1);
    expect(ops.filter((o) => o.startsWith("git.repos.enableCommitBlocker"))).toEqual([
      "git.repos.enableCommitBlocker 201",
    ]);
  });

  it("a fork is created after its source when both are new (dependency across projects)", async () => {
    seed(t.server.ctx, {
      parentOrganization: "acme",
      projects: [
        { slug: "upstream", name: "Upstream", git: {} },
        { slug: "fw", name: "Firmware", git: { subgroups: ["tools/ci"] } },
      ],
    });
    const state = load(`${UPSTREAM}---\n${fwDoc()}`);
    const p = await planFor(t.client, state);
    const forkEntry = p.plan.entries.find((e) => e.key.endsWith("fork-of-core"))!;
    expect(forkEntry.dependsOn).toContain("project/upstream/repo/core");
    await execute(t.client, p);
    expect((await planFor(t.client, state)).plan.entries).toEqual([]);
  });
});

describe("updates", () => {
  it("a changed repository setting is an update naming exactly that field", async () => {
    seedInSync({ plain: { mergeRequests: "private" } });
    const state = load(`${UPSTREAM}---\n${fwDoc()}`);
    const p = await planFor(t.client, state);
    expect(p.plan.entries.map((e) => [e.action, e.key, e.changes.map((c) => c.field)])).toEqual([
      ["update", "project/fw/repo/plain", ["mergeRequests"]],
    ]);
    const seq = lastSeq();
    await execute(t.client, p);
    expect(requestsAfter(seq).map((r) => r.operation)).toEqual(["git.repos.patch"]);
    expect((await planFor(t.client, state)).plan.entries).toEqual([]);
  });

  it("a commit blocker change is one removal and one enable carrying every domain", async () => {
    seedInSync({ main: { commitBlocker: { author: ["old.org"], committer: [], since: null } } });
    const state = load(`${UPSTREAM}---\n${fwDoc()}`);
    const p = await planFor(t.client, state);
    expect(p.plan.entries.map((e) => e.changes.map((c) => c.field))).toEqual([["commitBlocker"]]);
    const seq = lastSeq();
    await execute(t.client, p);
    expect(requestsAfter(seq).map((r) => r.operation)).toEqual([
      "git.repos.removeCommitBlocker",
      "git.repos.enableCommitBlocker",
    ]);
    expect((await repo("fw", "main")).commitBlocker).toEqual({
      author: ["arm.com", "example.com"],
      committer: ["arm.com"],
      since: "2024-03-01T00:00:00.000Z",
    });
    expect((await planFor(t.client, state)).plan.entries).toEqual([]);
  });

  it("storage off, un-archive and a missing bundle are applied; then no changes", async () => {
    seed(t.server.ctx, {
      parentOrganization: "acme",
      projects: [
        UPSTREAM_SEED,
        {
          slug: "fw",
          name: "Firmware",
          git: {
            subgroups: ["tools/ci"],
            repositories: [
              { name: "main", status: "archived", persistentStorage: true },
              {
                name: "fork-of-core",
                subgroup: "tools/ci",
                forkOf: { project: "upstream", name: "core" },
                issueTracking: "disabled",
                mergeRequests: "disabled",
                enableForking: false,
              },
              { name: "plain" },
            ],
          },
        },
      ],
    });
    const main = "\n    - { name: main, bundle: { frequency: daily } }";
    const state = load(`${UPSTREAM}---\n${fwDoc({ main })}`);
    const p = await planFor(t.client, state);
    expect(p.plan.entries.map((e) => [e.action, e.changes.map((c) => c.field)])).toEqual([
      ["update", ["status", "persistentStorage", "bundle"]],
    ]);
    await execute(t.client, p);
    expect((await planFor(t.client, state)).plan.entries).toEqual([]);
    expect(await repo("fw", "main")).toMatchObject({ status: "active", persistentStorage: null });
  });
});

describe("blocked, never sent", () => {
  it("a bundle frequency change and a fork-ness change", async () => {
    seedInSync({}, "daily");
    const p = await planFor(
      t.client,
      load(`${UPSTREAM}---\n${fwDoc({ fork: false, plainFork: true })}`),
    );
    expect(
      p.plan.entries.map((e) => [e.action, e.key, e.blocked?.field, e.blocked?.reason]),
    ).toEqual([
      [
        "blocked",
        "project/fw/repo/main",
        "bundle",
        expect.stringContaining("bundles cannot be updated or deleted"),
      ],
      [
        "blocked",
        "project/fw/repo/plain",
        "fork",
        expect.stringContaining("a repository cannot become a fork after creation"),
      ],
      [
        "blocked",
        "project/fw/repo/tools/ci/fork-of-core",
        "fork",
        expect.stringContaining("cannot become a fork"),
      ],
    ]);
    const seq = lastSeq();
    await execute(t.client, p);
    expect(requestsAfter(seq)).toEqual([]);
  });
});

describe("undeclared live repositories", () => {
  const extra = { name: "stray" };
  it("are unmanaged without prune.repositories", async () => {
    seedInSync({});
    await t.call("POST", "/v1/projects/fw/git/repo", { body: extra });
    const p = await planFor(t.client, load(`${UPSTREAM}---\n${fwDoc()}`));
    expect(p.plan.entries).toEqual([]);
    expect(p.plan.unmanaged).toEqual([
      expect.objectContaining({
        key: "project/fw/repo/stray",
        note: expect.stringContaining("prune.repositories is off"),
      }),
    ]);
  });

  it("are deleted with prune.repositories, and kept under phctl/protect", async () => {
    seedInSync({});
    await t.call("POST", "/v1/projects/fw/git/repo", { body: extra });
    const config = "organization: acme\nprune: { repositories: true }\n";
    const protectedState = load(
      `${UPSTREAM}---\n${fwDoc({ annotations: '"phctl/protect": "true"' })}`,
      config,
    );
    const kept = await planFor(t.client, protectedState);
    expect(kept.plan.entries).toEqual([]);
    expect(kept.plan.unmanaged.map((u) => [u.key, u.note])).toEqual([
      ["project/fw/repo/stray", expect.stringContaining("phctl/protect")],
    ]);

    const state = load(`${UPSTREAM}---\n${fwDoc()}`, config);
    const p = await planFor(t.client, state);
    expect(p.plan.entries.map((e) => [e.action, e.key, e.destructive])).toEqual([
      ["delete", "project/fw/repo/stray", true],
    ]);
    await execute(t.client, p);
    expect(await repo("fw", "stray")).toBeUndefined();
    expect((await planFor(t.client, state)).plan.entries).toEqual([]);
  });
});
