/**
 * The date logic of access that expires (src/expiry/date.ts): a grant counts through its last
 * day (UTC) and not the day after; validate's window counts its last day; an impossible date
 * is no date. Properties over every day of four centuries, and the edges by example.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  daysLeft,
  endOf,
  expiryStatus,
  isDate,
  isExpired,
  todayOf,
} from "../../src/expiry/date.js";

const DAY = 86_400_000;
/** A day between 1900 and 2300 as YYYY-MM-DD. */
const day = fc
  .integer({ min: Date.UTC(1900, 0, 1) / DAY, max: Date.UTC(2300, 0, 1) / DAY })
  .map((n) => new Date(n * DAY).toISOString().slice(0, 10));

describe("dates that end a grant", () => {
  it("a grant counts on its last day and is expired from the day after", () => {
    fc.assert(
      fc.property(day, fc.integer({ min: -400, max: 400 }), (expires, offset) => {
        const today = new Date(endOf(expires)! - DAY + offset * DAY).toISOString().slice(0, 10);
        expect(isExpired(expires, today)).toBe(offset > 0);
        expect(daysLeft(expires, today) + offset).toBe(0);
      }),
    );
  });

  it("warns within the window, its edge included, and not a day before", () => {
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 60 }), (expires, warnDays) => {
        const before = (n: number) =>
          new Date(endOf(expires)! - DAY - n * DAY).toISOString().slice(0, 10);
        expect(expiryStatus(expires, before(warnDays), warnDays)).toBe("expiring");
        expect(expiryStatus(expires, before(warnDays + 1), warnDays)).toBe("active");
        expect(expiryStatus(expires, before(-1), warnDays)).toBe("expired");
      }),
    );
  });

  it("today is the UTC date of the one clock reading", () => {
    expect(todayOf(new Date("2026-06-10T23:59:59.999Z"))).toBe("2026-06-10");
    expect(todayOf(new Date("2026-06-11T00:00:00+02:00"))).toBe("2026-06-10");
  });

  it("an impossible or malformed date is no date", () => {
    for (const bad of [
      "2026-02-30",
      "2025-02-29",
      "2026-13-01",
      "2026-00-10",
      "2026-6-1",
      "10/06/2026",
      "",
    ])
      expect(isDate(bad), bad).toBe(false);
    for (const good of ["2024-02-29", "2026-12-31", "2000-02-29"])
      expect(isDate(good), good).toBe(true);
    expect(daysLeft("2026-02-30", "2026-01-01")).toBeNaN();
  });
});
