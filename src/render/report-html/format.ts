/**
 * How the HTML report words numbers. `null` is "no data" everywhere (a project without
 * pipelines or deployments), never 0 and never a ratio of zero by zero.
 */
import type { Band } from "../../report/types.js";
import { humanSeconds, percent as percentText } from "../report-tables.js";
import { h, type Html } from "./html.js";

/** The mark for a missing value. */
export const NO_DATA: Html = h`<span class="nodata">no data</span>`;

/** An integer with thousands separators (fixed locale: the file is the same everywhere). */
export const count = (n: number): string => n.toLocaleString("en-US");

/** `v` shown by `show`, or "no data". */
export const orNoData = <T>(v: T | null | undefined, show: (v: T) => string): string | Html =>
  v === null || v === undefined || (typeof v === "number" && !Number.isFinite(v))
    ? NO_DATA
    : show(v);

/** A 0..1 ratio as a percentage, worded as in the other formats (report-tables.ts). */
export const percent = (r: number): string => percentText(r);

/** Seconds in the unit people read them in, worded as in the other formats. */
export const duration = (seconds: number): string => humanSeconds(seconds);

/** A rate per day with the precision it needs (0.03/day is not 0.0). */
export const perDay = (n: number): string =>
  `${n >= 10 ? n.toFixed(0) : n >= 1 ? n.toFixed(1) : n.toPrecision(2)}/day`;

/** An ISO instant as `yyyy-MM-dd HH:mm UTC` (the report's clock, not the reader's). */
export function instant(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** A last login: its day, "never" (null) or "unknown" (absent). */
export function lastLogin(v: string | null | undefined): string {
  if (v === null) return "never";
  if (v === undefined) return "unknown";
  return v.slice(0, 10);
}

/** A band as a coloured badge (the colour is repeated in words: print and colour-blind safe). */
export const badge = (band: Band | null): Html | string =>
  band ? h`<span class="band band-${band}">${band}</span>` : NO_DATA;

/** A signed change, in the metric's own words. */
export const signed = (v: number, show: (v: number) => string): string =>
  v > 0 ? `+${show(v)}` : v < 0 ? `−${show(-v)}` : "no change";
