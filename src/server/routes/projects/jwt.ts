/**
 * HS256 JSON Web Tokens for the (deprecated) wiki token operations. The signing secret is
 * random per database, kept in the `meta` table, so tokens stay verifiable across a restart
 * with a database file and differ between servers.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Db } from "../../store/db.js";

/** How long a wiki token lives (spec, Limits). */
export const WIKI_TOKEN_TTL_MS = 12 * 60 * 60 * 1000;

const SECRET_KEY = "wiki_jwt_secret";

function secret(db: Db): Buffer {
  db.run(
    "INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)",
    SECRET_KEY,
    randomBytes(32).toString("base64url"),
  );
  const row = db.get<{ value: string }>("SELECT value FROM meta WHERE key = ?", SECRET_KEY)!;
  return Buffer.from(row.value, "base64url");
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

/** Sign `claims` (plus iat and exp) as header.payload.signature. */
export function signJwt(
  db: Db,
  nowMs: number,
  claims: Record<string, unknown>,
): { token: string; expiresAt: number } {
  // `exp` is in whole seconds; expiresAt is the same instant, so both always agree.
  const exp = Math.floor((nowMs + WIKI_TOKEN_TTL_MS) / 1000);
  const body = `${b64({ alg: "HS256", typ: "JWT" })}.${b64({
    ...claims,
    iat: Math.floor(nowMs / 1000),
    exp,
  })}`;
  const sig = createHmac("sha256", secret(db)).update(body).digest("base64url");
  return { token: `${body}.${sig}`, expiresAt: exp * 1000 };
}

/** The claims of a token this server signed, or undefined (bad signature or shape). Tests use it. */
export function verifyJwt(db: Db, token: string): Record<string, unknown> | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  const want = createHmac("sha256", secret(db)).update(`${parts[0]}.${parts[1]}`).digest();
  const got = Buffer.from(parts[2], "base64url");
  if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
  return JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8")) as Record<string, unknown>;
}
