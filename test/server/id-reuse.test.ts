/**
 * Defect 8 of issue 34 (first half): the reference server handed out the ids of deleted
 * objects again. SQLite's plain INTEGER PRIMARY KEY takes max(id) + 1, and the group and
 * subgroup ids were max(id) + 1 over both tables, so once the newest group or subgroup was
 * deleted its id went to the next one made — another organization's. A journal or a saved
 * plan that remembers an id could then act on someone else's object. Now no id the API
 * shows is handed out twice: not after a delete, not after a restart with a database file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/seed.js";
import { startServer, type TestServer } from "../helpers/server.js";

const dir = mkdtempSync(join(tmpdir(), "phctl-ids-"));
let t: TestServer;
beforeAll(async () => {
  t = await startServer();
  seed(t.server.ctx, {
    parentOrganization: "acme",
    projects: [
      { slug: "gone", name: "Gone" },
      { slug: "kept", name: "Kept" },
    ],
  });
  seed(t.server.ctx, {
    parentOrganization: "globex",
    projects: [{ slug: "other", name: "Other" }],
  });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A delete answers 200 or 204. */
const deleted = (status: number) => status === 200 || status === 204;
const G = (slug: string) => `/v1/projects/${slug}/git/groups`;
const SG = (slug: string) => `/v1/projects/${slug}/git/subgroups`;

async function created(
  s: TestServer,
  path: string,
  body: unknown,
  as: "admin" | "other" = "admin",
) {
  const r = await s.call("POST", path, { body, as });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data;
}

describe("defect 8: ids are never handed out twice", () => {
  it("one organization's deleted group and subgroups: another's new ones get new ids", async () => {
    const group = await created(t, G("gone"), {});
    const subs = (await created(t, SG("gone"), { subGroups: "a/b/c" })) as { id: number }[];
    const old = [group.id as number, ...subs.map((s) => s.id)];
    // the newest subgroup first, then the whole group (its subgroups go with it)
    expect((await t.call("DELETE", `${SG("gone")}/${subs[2].id}`)).status).toSatisfy(deleted);
    const again = (await created(t, SG("gone"), { subGroups: "a/b/c2" })) as { id: number }[];
    expect(again.at(-1)!.id).toBeGreaterThan(Math.max(...old));
    old.push(again.at(-1)!.id);
    expect((await t.call("DELETE", G("gone"))).status).toSatisfy(deleted);

    const theirs = await created(t, G("other"), {}, "other");
    const theirSubs = (await created(t, SG("other"), { subGroups: "x/y" }, "other")) as {
      id: number;
    }[];
    for (const id of [theirs.id as number, ...theirSubs.map((s) => s.id)]) {
      expect(old).not.toContain(id);
      expect(id).toBeGreaterThan(Math.max(...old));
    }
    // and acme's own new group is new too
    const back = await created(t, G("gone"), {});
    expect(back.id).toBeGreaterThan(Math.max(...theirSubs.map((s) => s.id)));
  });

  it("repositories, mirrors, artifact repositories, filesystems: a delete frees no id", async () => {
    await created(t, G("kept"), {});
    const mirror = (n: number) => ({
      repoURLFrom: `https://github.com/example/r${n}.git`,
      repoURLTo: `ssh://git@git.example.org/acme/kept/r${n}.git`,
      refSpaceFrom: "refs/heads/*",
      refSpaceTo: "refs/heads/*",
      frequency: "daily",
    });
    const kinds: {
      kind: string;
      make: (n: number) => Promise<number>;
      drop: (id: number) => Promise<number>;
    }[] = [
      {
        kind: "mirror",
        make: async (n) =>
          Number((await created(t, "/v1/projects/kept/git/mirrors", mirror(n))).mirrorID),
        drop: async (id) => (await t.call("DELETE", `/v1/projects/kept/git/mirrors/${id}`)).status,
      },
      {
        kind: "artifact repository",
        make: async (n) =>
          (await created(t, "/v1/projects/kept/artifactservice/repo", { name: `a${n}` })).id,
        drop: async (id) =>
          (await t.call("DELETE", `/v1/projects/kept/artifactservice/repo/${id}`)).status,
      },
      {
        // a repository goes for good with its subgroup (the repository delete is soft)
        kind: "repository",
        make: async (n) => {
          await created(t, SG("kept"), { subGroups: `s${n}` });
          return (
            await created(t, "/v1/projects/kept/git/repo", { name: `r${n}`, repoPathNew: `s${n}` })
          ).gitRepoID;
        },
        drop: async (id) => {
          const sub = t.server.ctx.db.get<{ subgroup_id: number }>(
            "SELECT subgroup_id FROM repositories WHERE id = ?",
            id,
          )!.subgroup_id;
          return (await t.call("DELETE", `${SG("kept")}/${sub}`)).status;
        },
      },
      {
        kind: "filesystem",
        make: async (n) => {
          const repo = await created(t, "/v1/projects/kept/git/repo", { name: `fs${n}` });
          const storage = `/v1/projects/kept/git/repo/${repo.gitRepoID}/persistent-storage`;
          expect((await t.call("POST", storage)).status).toBe(201);
          return (await t.call("GET", `/v1/projects/kept/git/repo/${repo.gitRepoID}`)).body.data
            .persistentStorage.filesystemId;
        },
        drop: async (id) => {
          const repo = t.server.ctx.db.get<{ repo_id: number }>(
            "SELECT repo_id FROM persistent_storage WHERE id = ?",
            id,
          )!.repo_id;
          return (await t.call("DELETE", `/v1/projects/kept/git/repo/${repo}/persistent-storage`))
            .status;
        },
      },
    ];
    const reused: string[] = [];
    for (const k of kinds) {
      const first = await k.make(1);
      expect([k.kind, await k.drop(first)]).toEqual([k.kind, expect.toSatisfy(deleted)]);
      const second = await k.make(2);
      expect([k.kind, second]).toEqual([k.kind, expect.any(Number)]);
      if (second <= first) reused.push(`${k.kind} ${first} → ${second}`);
    }
    expect(reused).toEqual([]);
  });

  it("with a database file, a restart does not hand out a deleted id either", async () => {
    const db = join(dir, "ids.db");
    const one = await startServer({ db });
    seed(one.server.ctx, { parentOrganization: "acme", projects: [{ slug: "p", name: "P" }] });
    await created(one, G("p"), {});
    const subs = (await created(one, SG("p"), { subGroups: "a/b" })) as { id: number }[];
    expect((await one.call("DELETE", `${SG("p")}/${subs[0].id}`)).status).toSatisfy(deleted);
    await one.close();
    const two = await startServer({ db });
    try {
      const [again] = (await created(two, SG("p"), { subGroups: "c" })) as { id: number }[];
      expect(again.id).toBeGreaterThan(subs[1].id);
    } finally {
      await two.close();
    }
  });
});
