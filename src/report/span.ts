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

/**
 * The first day of the span that ends on `end` (inclusive): the day after `end`, less the
 * span — in calendar months for m, on the same day of the month or the month's last when it
 * has no such day (the 3 months ending 2025-05-31 start on 03-01, ending 02-28 on 12-01).
 */
function startOf(end: string, s: Span): string {
  const next = dayMs(end) + DAY_MS;
  if (s.unit !== "m") return dayOf(next - spanDays(s) * DAY_MS);
  const d = new Date(next);
  const [year, month] = [d.getUTCFullYear(), d.getUTCMonth() - s.count];
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return dayOf(Date.UTC(year, month, Math.min(d.getUTCDate(), last)));
}

/** A period from its first and last day (inclusive). */
export function periodOf(start: string, end: string): Period {
  return { start, end, days: Math.round((dayMs(end) - dayMs(start)) / DAY_MS) + 1 };
}

/**
 * The period of `span` ending with the last full day (UTC: yesterday), and the one of the
 * same span just before it. Today is left out: its few hours would read as a slow day at
 * the right edge of every chart and pull each rate and trend down.
 */
export function periods(s: Span, nowMs: number): { current: Period; previous: Period } {
  const end = dayOf(nowMs - DAY_MS);
  const start = startOf(end, s);
  const prevEnd = dayOf(dayMs(start) - DAY_MS);
  return { current: periodOf(start, end), previous: periodOf(startOf(prevEnd, s), prevEnd) };
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
