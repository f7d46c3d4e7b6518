/**
 * Bringing a database file made by an older phctl up to `SCHEMA_VERSION` when it is opened,
 * so `phctl serve --db FILE` keeps serving a sandbox across upgrades. Each step runs in one
 * transaction with foreign keys off (SQLite's way to rebuild a table: a `DROP TABLE` with
 * them on would cascade into the children), and is checked with `foreign_key_check` before
 * it commits.
 *
 * 1 → 2: every integer id becomes AUTOINCREMENT. SQLite cannot add it to a table, so each
 * table is rebuilt from its statement in `DDL` (create `x__v2`, copy, drop `x`, rename) —
 * copying the rows sets the table's sequence to its highest id. Groups and subgroups get
 * `git_namespace_ids`, started at their highest id. An id that was freed before the
 * upgrade (the newest row deleted) is not known any more, and may still be handed out once.
 */
import type Database from "better-sqlite3";
import { DDL, SCHEMA_VERSION } from "./schema.js";

type Raw = Database.Database;

/** The migration steps: `STEPS[v - 1]` takes a database from version v to v + 1. */
const STEPS: readonly ((raw: Raw) => void)[] = [autoincrementIds];

/** The schema version a database file records, or undefined for a new (empty) one. */
export function storedVersion(raw: Raw): number | undefined {
  const meta = raw
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
    .get();
  if (!meta) return undefined;
  const v = raw.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as
    { value: string } | undefined;
  return v ? Number(v.value) : undefined;
}

/**
 * Migrate `raw` from `from` to `SCHEMA_VERSION`; throws for a version this phctl does not
 * know (a newer phctl's database, or not ours). Leaves foreign keys off: the caller turns
 * them on.
 */
export function migrate(raw: Raw, from: number, file: string): void {
  if (!Number.isInteger(from) || from < 1 || from > SCHEMA_VERSION) {
    throw new Error(
      `database ${file} has schema version ${from}; this phctl serves versions 1 to ${SCHEMA_VERSION}: open it with the phctl that made it, or start a new database`,
    );
  }
  raw.pragma("foreign_keys = OFF");
  for (let v = from; v < SCHEMA_VERSION; v++) {
    raw.transaction(() => {
      STEPS[v - 1](raw);
      const broken = raw.pragma("foreign_key_check") as unknown[];
      if (broken.length > 0) {
        throw new Error(
          `database ${file}: migrating schema version ${v} to ${v + 1} left ${broken.length} broken references; nothing was changed`,
        );
      }
      raw.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(v + 1));
    })();
  }
}

/** The tables of `DDL` whose id is AUTOINCREMENT. */
export function autoincrementTables(): string[] {
  return [
    ...DDL.matchAll(/CREATE TABLE IF NOT EXISTS (\w+) \(\s*id INTEGER PRIMARY KEY AUTOINCREMENT/g),
  ].map((m) => m[1]);
}

const columnsOf = (raw: Raw, table: string) =>
  (raw.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name);

/** Version 1 → 2 (see the file comment). */
function autoincrementIds(raw: Raw): void {
  for (const table of autoincrementTables()) {
    const row = raw
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?")
      .get(table) as { sql: string } | undefined;
    if (!row || /AUTOINCREMENT/i.test(row.sql)) continue;
    rebuild(raw, table);
  }
  // The indexes went with the old tables, and git_namespace_ids is new.
  raw.exec(DDL);
  raw.exec(
    `INSERT INTO git_namespace_ids (id)
     SELECT m FROM (SELECT MAX(m) AS m FROM (SELECT MAX(id) AS m FROM git_groups
                                           UNION ALL SELECT MAX(id) AS m FROM subgroups))
     WHERE m IS NOT NULL`,
  );
}

/** Rebuild `table` from its statement in DDL, keeping its rows (the columns both have). */
function rebuild(raw: Raw, table: string): void {
  const start = `CREATE TABLE IF NOT EXISTS ${table} (`;
  const at = DDL.indexOf(start);
  const end = DDL.indexOf("\n);", at);
  if (at < 0 || end < 0) throw new Error(`schema: no CREATE TABLE statement for ${table}`);
  const tmp = `${table}__v2`;
  raw.exec(`CREATE TABLE ${tmp} (${DDL.slice(at + start.length, end)}\n)`);
  const kept = new Set(columnsOf(raw, tmp));
  const cols = columnsOf(raw, table)
    .filter((c) => kept.has(c))
    .map((c) => `"${c}"`)
    .join(", ");
  raw.exec(`INSERT INTO ${tmp} (${cols}) SELECT ${cols} FROM ${table}`);
  raw.exec(`DROP TABLE ${table}`);
  raw.exec(`ALTER TABLE ${tmp} RENAME TO ${table}`);
}
