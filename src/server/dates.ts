/**
 * Strict dates for query filters (and the commit blocker's `since`): exactly `YYYY-MM-DD`
 * or an RFC 3339 date-time — `2026-01-31T12:00:00Z`, fractional seconds and an offset
 * (`+01:00`) allowed, `T`/`Z` in either case — with a real calendar day and time. Anything
 * else is refused, so `foo 1`, `-1` or `1` (which `Date.parse` reads as 2001-01-01) never
 * silently become a date.
 */
import { badRequest } from "./errors.js";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const DAY_MS = 86_400_000;

/** What the message of a refused date says is accepted. */
export const DATE_FORMS = "YYYY-MM-DD or an RFC 3339 date-time (2026-01-31T12:00:00Z)";

/** A parsed date: its instant (ms since the epoch, UTC) and whether it was a day alone. */
export interface StrictDate {
  ms: number;
  dateOnly: boolean;
}

function validDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
  return d <= days;
}

/** The date `text` names, or undefined when it is not exactly one of the two forms. */
export function parseStrictDate(text: string): StrictDate | undefined {
  const day = DATE.exec(text);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    return validDay(y, m, d) ? { ms: Date.UTC(y, m - 1, d), dateOnly: true } : undefined;
  }
  const t = DATE_TIME.exec(text);
  if (!t) return undefined;
  const [y, mo, d, h, mi, s] = t.slice(1, 7).map(Number);
  const offH = t[9] === undefined ? 0 : Number(t[9]);
  const offM = t[10] === undefined ? 0 : Number(t[10]);
  if (!validDay(y, mo, d) || h > 23 || mi > 59 || s > 59 || offH > 23 || offM > 59)
    return undefined;
  const fraction = t[7] ? Math.floor(Number(`0${t[7]}`) * 1000) : 0;
  const offset = (t[8] === "-" ? -1 : 1) * (offH * 60 + offM) * 60_000;
  return { ms: Date.UTC(y, mo - 1, d, h, mi, s, fraction) - offset, dateOnly: false };
}

/** The date of a query parameter; 400 naming the parameter when it is not one. */
export function requireDate(text: string, field: string): StrictDate {
  const date = parseStrictDate(text);
  if (!date) {
    const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
    throw badRequest(`${field} must be ${DATE_FORMS} (got "${shown}")`, field);
  }
  return date;
}

/** The last millisecond of a date's day (a day alone as an upper bound covers all of it). */
export function endOfDay(date: StrictDate): number {
  return date.dateOnly ? date.ms + DAY_MS - 1 : date.ms;
}
