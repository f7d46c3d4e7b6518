/**
 * The report's spans of time: `--inactive 90d` (how long without a login makes a user
 * inactive) and `--period 3m` (the delivery report's period, and the one before it). A span
 * is a count and a unit: d (days), w (weeks) or m (calendar months; 30 days for
 * `--inactive`). Pure: `now` is given.
 */
import { userError } from "../errors.js";
import type { Period } from "./types.js";

/** A span of time as written on the command line. */
export interface Span {
  count: number;
  unit: "d" | "w" | "m";
}

const DAY_MS = 86_400_000;

/** `90d`, `12w`, `3m`; one line naming the flag otherwise. */
export function parseSpan(flag: string, text: string): Span {
  const m = /^\s*([0-9]{1,4})\s*([dwm])\s*$/i.exec(text);
  if (!m || Number(m[1]) === 0)
    throw userError(
      "BAD_FLAG",
      `${flag} must be a positive number of days, weeks or months such as 90d, 12w or 3m (got ${JSON.stringify(text)})`,
    );
  return { count: Number(m[1]), unit: m[2].toLowerCase() as Span["unit"] };
}

/** The span in whole days (a month counts 30). */
export function spanDays(s: Span): number {
  return s.count * (s.unit === "d" ? 1 : s.unit === "w" ? 7 : 30);
}

/** yyyy-MM-dd of an instant (UTC). */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The day `span` before `day` (calendar months for m). */
function back(day: string, s: Span): string {
  if (s.unit !== "m") return dayOf(dayMs(day) - spanDays(s) * DAY_MS);
  const d = new Date(dayMs(day));
  d.setUTCMonth(d.getUTCMonth() - s.count);
  return dayOf(d.getTime());
}

/** A period from its first and last day (inclusive). */
export function periodOf(start: string, end: string): Period {
  return { start, end, days: Math.round((dayMs(end) - dayMs(start)) / DAY_MS) + 1 };
}

/** The period of `span` ending today, and the one of the same span just before it. */
export function periods(s: Span, nowMs: number): { current: Period; previous: Period } {
  const end = dayOf(nowMs);
  const start = dayOf(dayMs(back(end, s)) + DAY_MS);
  const prevEnd = dayOf(dayMs(start) - DAY_MS);
  const prevStart = dayOf(dayMs(back(prevEnd, s)) + DAY_MS);
  return { current: periodOf(start, end), previous: periodOf(prevStart, prevEnd) };
}

/** Every day of a period, in order. */
export function daysOf(p: Period): string[] {
  const out: string[] = [];
  for (let t = dayMs(p.start); t <= dayMs(p.end); t += DAY_MS) out.push(dayOf(t));
  return out;
}

/** Whole days from `iso` to `nowMs` (0 on the same day). */
export function daysSince(iso: string, nowMs: number): number {
  return Math.max(0, Math.floor((nowMs - Date.parse(iso)) / DAY_MS));
}
