/**
 * The findings about accounts that hold access they should not (findings.ts lists them
 * all): deactivated accounts that still hold access, and dormant users who hold read
 * access only (the dormant ones with write are findings.ts's inactive-with-write). One row
 * per user, its detail naming the projects. Pure.
 */
import type { FindingsInput } from "./findings.js";
import { daysSince } from "./span.js";
import type { AccessRow, FindingRow } from "./types.js";

/** How an access is held, in words ("directly", "through user team docs"). */
export const via = (r: AccessRow) =>
  r.via.kind === "direct"
    ? "directly"
    : r.via.kind === "userTeam"
      ? `through user team ${r.via.team}`
      : `through organization team ${r.via.team}`;

/** The day of an ISO instant. */
export const day = (iso: string) => iso.slice(0, 10);

/** The user rows, by user. */
function rowsByUser(rows: readonly AccessRow[]): Map<string, AccessRow[]> {
  const out = new Map<string, AccessRow[]>();
  for (const r of rows) {
    if (r.principalKind !== "user") continue;
    const list = out.get(r.principal) ?? [];
    list.push(r);
    out.set(r.principal, list);
  }
  return out;
}

const plural = (n: number) => (n === 1 ? "" : "s");
const RANK = { admin: 0, write: 1, read: 2 } as const;
/** A user's rows, the highest grade first (then as the rows are sorted). */
const highestFirst = (held: readonly AccessRow[]) =>
  [...held].sort((a, b) => RANK[a.grade] - RANK[b.grade]);
/** "alpha (admins), beta (member through user team docs) and 3 more". */
function heldWords(held: readonly AccessRow[], most = 5): string {
  const words = highestFirst(held).map(
    (r) => `${r.project} (${r.level}${r.via.kind === "direct" ? "" : ` ${via(r)}`})`,
  );
  const shown = words.slice(0, most).join(", ");
  return words.length > most ? `${shown} and ${words.length - most} more` : shown;
}

/** Deactivated accounts (status inactive) that still hold access: high. */
export function deactivated(i: FindingsInput): FindingRow[] {
  const held = rowsByUser(i.rows);
  return i.users
    .filter((u) => u.deactivated === true && held.has(u.username))
    .map((u) => {
      const rows = held.get(u.username)!;
      const top = highestFirst(rows)[0];
      const n = new Set(rows.map((r) => r.project)).size;
      return {
        principal: u.username,
        project: top.project,
        level: top.level,
        detail: `deactivated, still holds access to ${n} project${plural(n)}: ${heldWords(rows)}`,
      };
    });
}

/** Users inactive for --inactive days or more who hold read access only: low. */
export function dormantRead(i: FindingsInput): FindingRow[] {
  const held = rowsByUser(i.rows);
  return i.users
    .filter(
      (u) =>
        typeof u.lastLogin === "string" &&
        daysSince(u.lastLogin, i.nowMs) >= i.inactiveDays &&
        u.highest === "read" &&
        held.has(u.username),
    )
    .map((u) => {
      const rows = held.get(u.username)!;
      const n = new Set(rows.map((r) => r.project)).size;
      return {
        principal: u.username,
        project: rows[0].project,
        level: rows[0].level,
        detail: `last login ${day(u.lastLogin!)} (${daysSince(u.lastLogin!, i.nowMs)} days ago); read only, on ${n} project${plural(n)}: ${heldWords(rows)}`,
      };
    });
}
