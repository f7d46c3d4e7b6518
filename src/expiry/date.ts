/**
 * Dates that end something: a policy exception's or a grant's `expires: YYYY-MM-DD`, the last
 * day it counts (UTC). One reading for both, so "expired" means the same everywhere; and
 * "today" is one string per run (UTC), compared with dates as text (ISO dates sort as text).
 * Pure: no import; the policy room (exceptions) and the rest of src/expiry use it.
 */

const DAY = 86_400_000;

/** Dates read so far: a config writes few distinct dates on many grants. */
const ends = new Map<string, number | undefined>();

/** The UTC midnight after the last day, or undefined when the date does not exist (02-30). */
export function endOf(expires: string): number | undefined {
  if (ends.has(expires)) return ends.get(expires);
  const end = readEnd(expires);
  if (ends.size < 10_000) ends.set(expires, end);
  return end;
}

function readEnd(expires: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(expires);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = Date.UTC(y, mo - 1, d);
  const back = new Date(t);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d)
    return undefined;
  return t + DAY;
}

/** Whether `expires` is a day that exists, written YYYY-MM-DD. */
export const isDate = (expires: string): boolean => endOf(expires) !== undefined;

/** Today (UTC) as YYYY-MM-DD: the one reading of the clock a run makes, passed down. */
export const todayOf = (now: Date): string => now.toISOString().slice(0, 10);

/** Whole days from `today` to `expires` (0: it ends today; negative: it has ended). */
export function daysLeft(expires: string, today: string): number {
  const end = endOf(expires);
  const start = endOf(today);
  if (end === undefined || start === undefined) return Number.NaN;
  return Math.round((end - start) / DAY);
}

/** The grant no longer counts: today is after its last day. */
export const isExpired = (expires: string, today: string): boolean => expires < today;

/**
 * expired (today is after the last day), expiring (the last day is within `warnDays` days of
 * today, today included: 14 warns on the 14th day before, not the 15th) or active.
 */
export function expiryStatus(
  expires: string,
  today: string,
  warnDays: number,
): "expired" | "expiring" | "active" {
  if (isExpired(expires, today)) return "expired";
  return daysLeft(expires, today) <= warnDays ? "expiring" : "active";
}
