/**
 * Flag values checked once, with one-line errors that name the flag and say what it takes:
 * durations (`--outage-timeout 2m`) and numbers (`--concurrency 8`, `--max-rps 20`, the
 * ports, latencies and limits of `serve`, …). Every numeric option of every command goes
 * through `parseNumberFlag` with its rule, so `--concurrency 1.5` and `--concurrency 0` say
 * what is wrong instead of failing later (or being taken silently as the default).
 *
 *   parseNumberFlag("--concurrency", "1.5", CONCURRENCY)
 *   // → userError: --concurrency must be a whole number from 1 to 64 (got 1.5)
 *   program.option("--port <n>", "port", numberOption("--port", { min: 0, max: 65535, integer: true }))
 */
import { userError } from "../errors.js";
import { parseDuration } from "../manifest/settings.js";

/** `90s`, `2m`, `1h30m`, `500ms` → milliseconds; undefined when it is not such a duration. */
export function durationOf(value: string): number | undefined {
  const text = value.trim();
  const ms = /^([0-9]+(ms|s|m|h))+$/.test(text) ? parseDuration(text) : 0;
  return ms > 0 ? ms : undefined;
}

/** `90s`, `2m`, `1h30m`, `500ms` → milliseconds; anything else is a user error. */
export function parseDurationFlag(flag: string, value: string): number {
  const ms = durationOf(value);
  if (ms === undefined)
    throw userError(
      "BAD_FLAG",
      `${flag} must be a duration such as 90s, 2m or 1h30m (got ${value})`,
    );
  return ms;
}

/** What a numeric flag accepts. */
export interface NumberRule {
  min: number;
  max: number;
  /** Whole numbers only. */
  integer?: boolean;
  /** What the number counts, for the message: `seconds` → "a number of seconds". */
  unit?: string;
  /** 0 is accepted too (below `min`), meaning this: "no throttle". */
  zero?: string;
}

/** Requests in flight at once (`--concurrency`; phctl.yaml's `concurrency` has the same range). */
export const CONCURRENCY: NumberRule = { min: 1, max: 64, integer: true };
/** phctl.yaml's `maxRps` (its schema's range). */
export const MAX_RPS_SETTING: NumberRule = { min: 0.1, max: 10_000, unit: "requests per second" };
/** The client-side throttle (`--max-rps`, PHCTL_MAX_RPS): 0 turns phctl.yaml's off. */
export const MAX_RPS: NumberRule = { ...MAX_RPS_SETTING, zero: "no throttle" };

const DECIMAL = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/;

/** The words of a rule: `a whole number from 1 to 64`, `0 (no throttle) or a number …`. */
export function describeRule(r: NumberRule): string {
  const what = `${r.integer ? "a whole number" : "a number"}${r.unit ? ` of ${r.unit}` : ""}`;
  const range = `${what} from ${r.min.toLocaleString("en-US")} to ${r.max.toLocaleString("en-US")}`;
  return r.zero ? `0 (${r.zero}) or ${range}` : range;
}

/**
 * A number given on the command line (or in an environment variable: `flag` names where it
 * came from), checked against `rule`; anything else is a one-line user error, exit 1.
 * Numbers already numbers (from phctl.yaml, checked by its schema) are checked the same way.
 */
export function parseNumberFlag(flag: string, value: string | number, rule: NumberRule): number {
  const text = typeof value === "number" ? String(value) : value.trim();
  const n = typeof value === "number" ? value : DECIMAL.test(text) ? Number(text) : NaN;
  const ok =
    Number.isFinite(n) &&
    (!rule.integer || Number.isInteger(n)) &&
    ((n >= rule.min && n <= rule.max) || (rule.zero !== undefined && n === 0));
  if (!ok)
    throw userError(
      "BAD_FLAG",
      `${flag} must be ${describeRule(rule)} (got ${text === "" ? '""' : text})`,
    );
  return n;
}

/** A commander argument parser for `.option(flags, description, parser)`: checked as it is read. */
export function numberOption(flag: string, rule: NumberRule): (value: string) => number {
  return (value) => parseNumberFlag(flag, value, rule);
}
