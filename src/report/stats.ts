/**
 * Small statistics for the report: medians (DORA's lead time and time to restore are
 * medians, so are CI durations), percentiles and ratios. Each answers null for no data,
 * never 0 or NaN: the renderers show null as "no data".
 */

/** The median, or null for an empty list. */
export function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The p-th percentile (0..100, nearest rank), or null for an empty list. */
export function percentile(xs: readonly number[], p: number): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length, Math.max(1, rank)) - 1];
}

/** part / whole rounded to 4 decimals, or null when whole is 0. */
export function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;
}

/** a − b, or null when either is null. */
export function change(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : Math.round((a - b) * 10_000) / 10_000;
}
