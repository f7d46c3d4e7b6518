/**
 * The cells and tables every tabular format is made of (report-tables.ts builds them): per
 * cell the raw value for machines (CSV) and the text for people (markdown), and the words
 * both use for "no data" and "unknown". Pure.
 */

/** One cell: the value for machines and the text for people. */
export interface Cell {
  raw: string | number | boolean | null;
  text: string;
}

/** One table of the report. */
export interface ReportTable {
  name: string;
  title: string;
  headers: string[];
  rows: Cell[][];
  /** A narrower form for people (markdown, html), when the full one is too wide to read. */
  compact?: { headers: string[]; rows: string[][] };
  /** A line for people above the rows (markdown): why a finding is unknown, what a column means. */
  note?: string;
  /** Never cut (markdown): the legend the other tables are read with (the DORA bands). */
  whole?: boolean;
}

export const NO_DATA = "no data";
/** A value that could not be read (a last login, a finding that needs it): never 0. */
export const UNKNOWN = "unknown";

export const t = (s: string | null | undefined): Cell => ({ raw: s ?? null, text: s ?? "" });
export const n = (v: number | null): Cell => ({ raw: v, text: v === null ? NO_DATA : String(v) });
export const yes = (b: boolean): Cell => ({ raw: b, text: b ? "yes" : "no" });

/** Seconds for people: `45 s`, `12 min`, `3 h 05 min`, `2.5 days`. */
export function humanSeconds(s: number | null): string {
  if (s === null) return NO_DATA;
  if (s < 60) return `${Math.round(s)} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 86_400) {
    const m = Math.round(s / 60);
    return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min`;
  }
  return `${Math.round((s / 86_400) * 10) / 10} days`;
}

/** A 0..1 ratio for people: `12.5%`. */
export const percent = (r: number | null): string =>
  r === null ? NO_DATA : `${Math.round(r * 1000) / 10}%`;

export const sec = (v: number | null): Cell => ({ raw: v, text: humanSeconds(v) });
export const pct = (v: number | null): Cell => ({ raw: v, text: percent(v) });

export const unknown: Cell = { raw: UNKNOWN, text: UNKNOWN };

/** A last login: the day, "never", or "unknown" (not read). */
export const login = (l: string | null | undefined): Cell =>
  l === undefined
    ? unknown
    : l === null
      ? { raw: "never", text: "never" }
      : { raw: l, text: l.slice(0, 10) };
