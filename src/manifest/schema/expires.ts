/**
 * Access that expires: `expires: YYYY-MM-DD` on a grant, the last day it counts (UTC), as a
 * policy exception's `expires` is. A list item that grants (a user or team on an access level,
 * a team member) is its name, or a mapping naming it with the date — written as a tombstone
 * is, `{ user: bob, expires: 2026-12-31 }` beside `{ $remove: bob }` — so layers key both by
 * the name. src/expiry gives the date its meaning (from the day after, the grant is absent).
 */
import { Type, type Static, type TSchema, type TUnsafe } from "@sinclair/typebox";
import { about, Strict } from "./keywords.js";

/** The date's words, shared with policy exceptions (src/expiry/date.ts reads it). */
export const EXPIRES_PATTERN = "^\\d{4}-\\d{2}-\\d{2}$";

/** `expires:` on a grant (`what`: the thing that ends, for the description). */
export const Expires = (what: string) =>
  Type.String({
    pattern: EXPIRES_PATTERN,
    patternErrorMessage: "must be a date, YYYY-MM-DD",
    ...about(
      `The last day ${what} counts (UTC). From the day after, phctl treats it as absent: plan and apply remove it, drift shows it due for removal; validate warns 14 days before (phctl.yaml's expiry.warnDays).`,
      "2026-12-31",
    ),
  });

/** The key naming the grantee in an item's mapping form, by list. */
export type GrantName = "user" | "team";

/**
 * A list item that grants: `name` (the schema of a bare item), or `{ <by>: name, expires }`.
 * `if/then/else` rather than a union, so a wrong item is told what is wrong with it.
 */
export function grantItem<T extends TSchema, B extends GrantName>(
  name: T,
  by: B,
  example: string,
): TUnsafe<Static<T> | (Record<B, Static<T>> & { expires: string })> {
  return Type.Unsafe({
    if: { type: "object" },
    then: Strict(
      { [by]: name, expires: Expires(`the ${by === "user" ? "user's" : "team's"} grant`) },
      about(`A grant that ends: the ${by} and the last day it counts (UTC).`, {
        [by]: example,
        expires: "2026-12-31",
      }),
    ),
    else: name,
  });
}

/** The name an item grants to: the item, or its mapping's `user`/`team`. */
export function grantee(item: unknown): string {
  if (item !== null && typeof item === "object") {
    const o = item as Record<string, unknown>;
    const name = o.user ?? o.team;
    return typeof name === "string" ? name : "";
  }
  return String(item);
}

/** The date an item carries, if any. */
export function grantExpires(item: unknown): string | undefined {
  if (item === null || typeof item !== "object") return undefined;
  const e = (item as Record<string, unknown>).expires;
  return typeof e === "string" ? e : undefined;
}
