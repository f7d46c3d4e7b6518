/**
 * Defect 8 of issue 34, for a database file an older phctl made (schema version 1, plain
 * INTEGER PRIMARY KEY ids, group ids as max + 1): `phctl serve --db FILE` migrates it to
 * version 2 when it opens it. Its rows and indexes are all there, foreign keys still hold,
 * and from then on no id is handed out twice — the migrated tables count on from their
 * highest id, and the group/subgroup sequence from the highest of either.
 */
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Db } from "../../src/server/store/db.js";
import { autoincrementTables } from "../../src/server/store/migrate.js";
import { DDL, SCHEMA_VERSION } from "../../src/server/store/schema.js";
import { startServer } from "../helpers/server.js";

const dir = mkdtempSync(join(tmpdir(), "phctl-migrate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Version 1's schema: today's without AUTOINCREMENT and without the id sequence table. */
const V1_DDL = DDL.replaceAll(" AUTOINCREMENT", "").replace(
  /CREATE TABLE IF NOT EXISTS git_namespace_ids[^\n]*\n/,
  "",
);

/** A version-1 file: acme with project p, its group (1), subgroups 2 and 5, mirrors 1 and 4. */
function v1File(name: string): string {
  const file = join(dir, name);
  const raw = new Database(file);
  raw.pragma("foreign_keys = ON");
  raw.exec(V1_DDL);
  raw.exec(`
    INSERT INTO meta VALUES ('schema_version', '1');
    INSERT INTO organizations (id, name, created) VALUES (1, 'acme', '2026-01-01T00:00:00.000Z');
    INSERT INTO projects (id, slug, name, description, visibility, parent_org_id, org_id, created)
      VALUES (1, 'p', 'P', '', 'public', 1, 1, '2026-01-01T00:00:00.000Z');
    INSERT INTO git_groups (id, project_id, path, created) VALUES (1, 1, 'p', '2026-01-01T00:00:00.000Z');
    INSERT INTO subgroups (id, group_id, parent_id, name, path, created)
      VALUES (2, 1, NULL, 'a', 'a', '2026-01-01T00:00:00.000Z'),
             (5, 1, 2, 'b', 'a/b', '2026-01-01T00:00:00.000Z');
    INSERT INTO repositories (id, group_id, subgroup_id, name, slug, created)
      VALUES (3, 1, 5, 'r', 'r', '2026-01-01T00:00:00.000Z');
  `);
  const mirror = raw.prepare(
    `INSERT INTO mirrors (id, project_id, repo_url_from, repo_url_to, ref_space_from, ref_space_to, frequency, created)
     VALUES (?, 1, ?, ?, 'refs/heads/*', 'refs/heads/*', 'daily', '2026-01-01T00:00:00.000Z')`,
  );
  for (const id of [1, 4])
    mirror.run(id, `https://github.com/example/m${id}.git`, `ssh://git@h/acme/m${id}.git`);
  raw.close();
  return file;
}

/** The names of a database's indexes (those a statement made). */
const indexNames = (raw: Database.Database) =>
  raw
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name",
    )
    .all();

describe("defect 8: a version-1 database file is migrated when opened", () => {
  it("every integer id table becomes AUTOINCREMENT; rows, indexes and foreign keys are kept", () => {
    const file = v1File("tables.db");
    const db = new Db(file);
    try {
      const version = db.get<{ value: string }>(
        "SELECT value FROM meta WHERE key = 'schema_version'",
      );
      expect(version?.value).toBe(String(SCHEMA_VERSION));
      const plain = autoincrementTables().filter(
        (t) =>
          !/AUTOINCREMENT/.test(
            db.get<{ sql: string }>("SELECT sql FROM sqlite_master WHERE name = ?", t)!.sql,
          ),
      );
      expect(plain).toEqual([]);
      expect(autoincrementTables()).toEqual(expect.arrayContaining(["organizations", "mirrors"]));
      const fresh = new Database(":memory:");
      fresh.exec(DDL);
      expect(indexNames(db.raw)).toEqual(indexNames(fresh));
      fresh.close();
      expect(db.all("SELECT id FROM mirrors ORDER BY id")).toEqual([{ id: 1 }, { id: 4 }]);
      expect(db.get("SELECT subgroup_id FROM repositories WHERE id = 3")).toEqual({
        subgroup_id: 5,
      });
      expect(db.raw.pragma("foreign_keys", { simple: true })).toBe(1);
      // a foreign key still holds, and still cascades
      expect(() =>
        db.run(
          "INSERT INTO subgroups (id, group_id, name, path, created) VALUES (99, 42, 'x', 'x', '')",
        ),
      ).toThrow(/FOREIGN KEY/);
      db.run("DELETE FROM git_groups WHERE id = 1");
      expect(db.all("SELECT id FROM repositories")).toEqual([]);
    } finally {
      db.close();
    }
  });

  it("after the upgrade the API hands out no id twice", async () => {
    const file = v1File("api.db");
    const t = await startServer({ db: file });
    try {
      const sg = "/v1/projects/p/git/subgroups";
      expect((await t.call("GET", sg)).body.data.map((s: { id: number }) => s.id)).toEqual([2, 5]);
      expect((await t.call("DELETE", `${sg}/5`)).status).toBe(204);
      const made = await t.call("POST", sg, { body: { subGroups: "c" } });
      expect(made.status).toBe(201);
      expect(made.body.data[0].id).toBe(6);

      const m = "/v1/projects/p/git/mirrors";
      expect((await t.call("DELETE", `${m}/4`)).status).toBe(204);
      const mirror = await t.call("POST", m, {
        body: {
          repoURLFrom: "https://github.com/example/new.git",
          repoURLTo: "ssh://git@h/acme/new.git",
          refSpaceFrom: "refs/heads/*",
          refSpaceTo: "refs/heads/*",
          frequency: "daily",
        },
      });
      expect([mirror.status, mirror.body.data.mirrorID]).toEqual([201, "5"]);
    } finally {
      await t.close();
    }
    // opened again: already version 2, nothing to do, and the sequences were kept
    const db = new Db(file);
    try {
      expect(db.get("SELECT MAX(id) AS m FROM git_namespace_ids")).toEqual({ m: 6 });
    } finally {
      db.close();
    }
  });

  it("a newer schema version is refused with a message saying what to do", () => {
    const file = join(dir, "newer.db");
    const raw = new Database(file);
    raw.exec(DDL);
    raw.exec(`INSERT INTO meta VALUES ('schema_version', '${SCHEMA_VERSION + 1}')`);
    raw.close();
    expect(() => new Db(file)).toThrow(
      new RegExp(`schema version ${SCHEMA_VERSION + 1}.*open it with the phctl that made it`),
    );
  });
});
