/**
 * The DORA report's performance bands as versioned data: each year's report redraws them
 * (Apache DevLake keeps them as a table per year for the same reason), so a report names
 * the year it rated against. A band is the first of elite, high, medium whose bound the
 * value meets; low otherwise. Bounds are inclusive and in the report's units: deployments
 * per day, seconds, and a 0..1 ratio.
 */
import type { Band, DoraMetricName } from "./types.js";

/** One metric's bounds: the value meets a band when it is on the right side of its bound. */
interface MetricBands {
  /** "at-least": higher is better (deployments per day); "at-most": lower is better. */
  better: "at-least" | "at-most";
  elite: number;
  high: number;
  medium: number;
  /** How the report words each band, for the band table people read. */
  words: Record<Band, string>;
}

/** A year's band table. */
export interface BandTable {
  year: number;
  source: string;
  metrics: Record<DoraMetricName, MetricBands>;
}

const HOUR = 3_600;
const DAY = 24 * HOUR;

/**
 * Accelerate State of DevOps Report 2023 (DORA), "software delivery performance" cluster
 * table (elite, high, medium, low): deployment frequency on demand / daily to weekly /
 * weekly to monthly / weekly to monthly; change lead time under a day / a day to a week / a
 * week to a month / a week to a month; change failure rate 5 / 10 / 15 / 64 %; failed
 * deployment recovery time (the 2023 name of time to restore service) under an hour /
 * under a day / a day to a week / a month to six months. Low's deployment frequency and
 * lead time read the same as Medium's, and the table leaves gaps between clusters (15 % to
 * 64 %, a week to a month of recovery): a value beyond Medium's bound is rated Low.
 */
export const BANDS_2023: BandTable = {
  year: 2023,
  source: "Accelerate State of DevOps Report 2023 (DORA)",
  metrics: {
    deployment_frequency: {
      better: "at-least",
      elite: 1,
      high: 1 / 7,
      medium: 1 / 30,
      words: {
        elite: "on demand (daily or more)",
        high: "between once per day and once per week",
        medium: "between once per week and once per month",
        low: "less than once per month",
      },
    },
    lead_time_for_changes: {
      better: "at-most",
      elite: DAY,
      high: 7 * DAY,
      medium: 30 * DAY,
      words: {
        elite: "less than one day",
        high: "between one day and one week",
        medium: "between one week and one month",
        low: "more than one month",
      },
    },
    time_to_restore_service: {
      better: "at-most",
      elite: HOUR,
      high: DAY,
      medium: 7 * DAY,
      words: {
        elite: "less than one hour",
        high: "less than one day",
        medium: "between one day and one week",
        low: "more than one week (between one month and six months in the report)",
      },
    },
    change_failure_rate: {
      better: "at-most",
      elite: 0.05,
      high: 0.1,
      medium: 0.15,
      words: { elite: "5%", high: "10%", medium: "15%", low: "more than 15% (64% in the report)" },
    },
  },
};

/** Every table phctl knows, by year; the newest rates by default. */
export const BAND_TABLES: readonly BandTable[] = [BANDS_2023];
export const CURRENT_BANDS: BandTable = BAND_TABLES[BAND_TABLES.length - 1];

/** The band a value falls in, or null for no data. */
export function bandOf(
  metric: DoraMetricName,
  value: number | null,
  table: BandTable = CURRENT_BANDS,
): Band | null {
  if (value === null || !Number.isFinite(value)) return null;
  const b = table.metrics[metric];
  const meets = (bound: number) => (b.better === "at-least" ? value >= bound : value <= bound);
  if (meets(b.elite)) return "elite";
  if (meets(b.high)) return "high";
  if (meets(b.medium)) return "medium";
  return "low";
}

/** The table as report rows: one per metric, the words of each band. */
export function bandTableRows(table: BandTable = CURRENT_BANDS) {
  return (Object.keys(table.metrics) as DoraMetricName[]).map((metric) => ({
    metric,
    ...table.metrics[metric].words,
  }));
}
