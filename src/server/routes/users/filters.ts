/**
 * Query filters of the user lists and metrics: date ranges (a strict date of dates.ts, or
 * `A TO B` of two), keyword patterns and enumerated values. A malformed filter is a 400
 * naming the query parameter, so a typo never silently matches nothing.
 */
import { UserServices, type UserService } from "../../../api/schemas.js";
import { ROLES } from "../../auth.js";
import { DATE_FORMS, endOfDay, parseStrictDate } from "../../dates.js";
import { badRequest } from "../../errors.js";

/** A half-open interval of ISO timestamps, comparable with the stored strings. */
export interface TimeRange {
  from: string;
  /** Exclusive. */
  to: string;
}

function bound(text: string, field: string, end: boolean): number {
  const date = parseStrictDate(text);
  if (!date) {
    throw badRequest(`${field} must be ${DATE_FORMS}, or a range "A TO B" of those`, field);
  }
  // A date covers its whole day; a timestamp is one instant (inclusive at both ends).
  return end ? endOfDay(date) + 1 : date.ms;
}

/** Parse `yyyy-MM-dd`, a timestamp, or `A TO B` (inclusive) into a half-open range. */
export function parseTimeRange(text: string, field: string): TimeRange {
  const parts = text.split(/\s+TO\s+/i);
  if (parts.length > 2) throw badRequest(`${field} has more than one "TO"`, field);
  const [a, b = a] = parts;
  const from = bound(a, field, false);
  const to = bound(b, field, true);
  if (to <= from) throw badRequest(`${field} range ends before it starts`, field);
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}

/** A LIKE pattern that matches `keyword` anywhere, with % and _ taken literally (ESCAPE '\'). */
export function containsPattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export type Role = (typeof ROLES)[number];

export function parseRole(text: string, field = "role"): Role {
  if (!(ROLES as readonly string[]).includes(text)) {
    throw badRequest(`${field} must be one of ${ROLES.join(", ")}`, field);
  }
  return text as Role;
}

export function parseUserStatus(text: string, field = "status"): "active" | "inactive" {
  if (text !== "active" && text !== "inactive") {
    throw badRequest(`${field} must be active or inactive`, field);
  }
  return text;
}

/** A user service name; `gitservice` (the metrics' spelling) is accepted for `git`. */
export function parseUserService(text: string, field = "service"): UserService {
  const s = text === "gitservice" ? "git" : text;
  if (!(UserServices as readonly string[]).includes(s)) {
    throw badRequest(`${field} must be one of ${UserServices.join(", ")}`, field);
  }
  return s as UserService;
}
