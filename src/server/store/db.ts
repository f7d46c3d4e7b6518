/**
 * The reference server's SQLite database: opening (file or `:memory:`), schema (a file of
 * an older schema version is migrated first), pragmas, the seeded license catalogue, and a
 * statement cache so hot queries are prepared once.
 */
import { createRequire } from "node:module";
import type Database from "better-sqlite3";
import { PhctlError } from "../../errors.js";
import { ADDED_COLUMNS, DDL, SCHEMA_VERSION } from "./schema.js";
import { LICENSE_CATALOGUE } from "./licenses.js";
import { migrate, storedVersion } from "./migrate.js";

export type Row = Record<string, unknown>;

/**
 * How to get the database module when it is missing: one line, a command to run. It is an
 * optional dependency (package.json): the CLI installs without compiling anything (CI talks to
 * the service), and only the reference server — `phctl serve`, or a command on the embedded
 * server — needs it.
 */
export const SQLITE_MISSING =
  "the reference server needs better-sqlite3, an optional part of phctl not installed here (or installed without its install script): run npm install better-sqlite3@12 where phctl is installed, or reinstall phctl without --omit=optional and --ignore-scripts; other commands can use the service instead (--api-url or PHCTL_API_URL)";

/**
 * better-sqlite3, loaded when a database is first opened (never when this module is): a
 * missing or unbuilt module is SQLITE_MISSING, not a stack trace when the CLI starts.
 */
function openSqlite(file: string): Database.Database {
  try {
    const Sqlite = createRequire(import.meta.url)("better-sqlite3") as typeof Database;
    return new Sqlite(file);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    // Not installed (npm --omit=optional), or installed without its native module (install
    // scripts off: better-sqlite3's `bindings` cannot find better_sqlite3.node).
    const missing =
      (err.code === "MODULE_NOT_FOUND" && /better-sqlite3/.test(err.message)) ||
      /Could not locate the bindings file|better_sqlite3\.node/.test(String(err.message));
    if (!missing) throw e;
    throw new PhctlError("SQLITE_MISSING", SQLITE_MISSING, { cause: e });
  }
}

/** A thin wrapper: cached prepared statements and transactions. */
export class Db {
  readonly raw: Database.Database;
  private readonly cache = new Map<string, Database.Statement>();

  constructor(file: string) {
    this.raw = openSqlite(file);
    this.raw.pragma("journal_mode = WAL");
    this.raw.pragma("synchronous = NORMAL");
    const version = storedVersion(this.raw);
    if (version !== undefined && version !== SCHEMA_VERSION) migrate(this.raw, version, file);
    this.raw.pragma("foreign_keys = ON");
    this.raw.exec(DDL);
    for (const c of ADDED_COLUMNS) {
      const columns = this.raw.pragma(`table_info(${c.table})`) as { name: string }[];
      if (!columns.some((x) => x.name === c.column))
        this.raw.exec(`ALTER TABLE ${c.table} ADD COLUMN ${c.column} ${c.type}`);
    }
    if (version === undefined) {
      this.raw
        .prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?)")
        .run(String(SCHEMA_VERSION));
    }
    const ins = this.raw.prepare(
      "INSERT OR IGNORE INTO licenses (name, title, url) VALUES (?, ?, ?)",
    );
    for (const l of LICENSE_CATALOGUE) ins.run(l.name, l.title, l.url);
  }

  /** A prepared statement, cached by its SQL text. */
  q(sql: string): Database.Statement {
    let s = this.cache.get(sql);
    if (!s) {
      s = this.raw.prepare(sql);
      this.cache.set(sql, s);
    }
    return s;
  }

  get<T = Row>(sql: string, ...args: unknown[]): T | undefined {
    return this.q(sql).get(...args) as T | undefined;
  }

  all<T = Row>(sql: string, ...args: unknown[]): T[] {
    return this.q(sql).all(...args) as T[];
  }

  run(sql: string, ...args: unknown[]): Database.RunResult {
    return this.q(sql).run(...args);
  }

  /** Run `fn` in one transaction (nested calls use savepoints). */
  tx<T>(fn: () => T): T {
    return this.raw.transaction(fn)();
  }

  close(): void {
    this.raw.close();
  }
}

/** ISO 8601 in the spec's form yyyy-MM-dd'T'HH:mm:ss.SSSZ. */
export function isoNow(ms: number = Date.now()): string {
  return new Date(ms).toISOString();
}

export const bool = (v: unknown): boolean => v === 1 || v === true;
export const json = <T>(v: unknown, fallback: T): T =>
  typeof v === "string" ? (JSON.parse(v) as T) : fallback;
