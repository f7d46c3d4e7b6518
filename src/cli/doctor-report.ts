/**
 * What `phctl doctor` found, as plain data: the connection checks (URL, TLS, proxy, CA,
 * token, parent organization, role, clock, rate limits, profile), one row per read
 * operation plan and export use, and the profile lines that would fix what does not fit.
 * The probe fills it; the renderers (doctor-render.ts) print it; `--format json` is this.
 */
import type { OperationId } from "../api/routes.js";

/** ok: fine; warn: works, but look; fail: phctl cannot work like this; info; skip: not probed. */
export type CheckStatus = "ok" | "warn" | "fail" | "info" | "skip";

/** One connection check. */
export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
  /** What to do, when the status is warn or fail. */
  fix?: string;
}

/** A way an answer did not fit what phctl reads (strict.ts's Mismatch, for people). */
export interface ShapeProblem {
  /** JSON pointer into the answer. */
  path: string;
  expected: string;
  got: string;
  /** Field names of the object the field was looked for in. */
  had?: string[];
  /** The API-profile line that would fix it, when a profile setting describes it. */
  profileFix?: string;
}

/** One read operation, called once with real parameters. */
export interface ReadCheck {
  operation: OperationId;
  /** Effective method and path template (the profile's, if it overrides them). */
  method: string;
  path: string;
  /** The path parameters it was called with (taken from earlier lists). */
  params?: Record<string, string | number>;
  status: CheckStatus;
  /** HTTP status of the answer (0: none). */
  http?: number;
  ms?: number;
  /** Items in the answer (lists). */
  items?: number;
  /** Answers, fits, paging results or the error, in a few words. */
  detail: string;
  shape?: ShapeProblem[];
  /** Paging with page/limit and with all=true, where checked. */
  paging?: { pageLimit?: CheckStatus; all?: CheckStatus; detail: string };
}

/** Everything doctor reports. */
export interface DoctorReport {
  formatVersion: 1;
  apiUrl: string;
  /** phctl can work with this service (the exit code is 0). */
  ok: boolean;
  checks: Check[];
  reads: ReadCheck[];
  /** Read operations phctl uses that doctor cannot call without a write first. */
  notProbed: { operations: OperationId[]; why: string }[];
  /**
   * Profile lines that would fix the mismatches found, each once — including those found
   * on reading again with the first ones applied (`withFixes`).
   */
  profileFixes: string[];
  /** The reads once more, with the suggested profile lines applied in memory. */
  withFixes?: { profileFixes: string[]; reads: ReadCheck[] };
}

/** Is the report good enough to work with (no failed check, no failed read)? */
export function reportOk(r: Pick<DoctorReport, "checks" | "reads">): boolean {
  return ![...r.checks, ...r.reads].some((c) => c.status === "fail");
}
