/**
 * `phctl apply --result FILE`: what the apply did, as JSON, written at the end of every
 * apply whatever its outcome (also a refusal), so that the CI step after it can report
 * it — `phctl comment PLAN.json --outcome FILE` updates the pull request's comment. The
 * file's shape is src/engine/apply-outcome.ts; here it is filled in and written.
 */
import { PhctlError } from "../errors.js";
import type { ApplyOutcome } from "../engine/apply-outcome.js";
import { writeAtomically } from "../fs/write-atomically.js";
import { redactValue } from "../secrets.js";

/** Filled in while apply runs; written once at the end. */
export function newResult(): ApplyOutcome {
  return { formatVersion: 1, status: "failed", planHash: "", done: 0, failed: 0, skipped: 0 };
}

const REFUSALS = new Set([
  "REFUSED",
  "REVIEW_MISMATCH",
  "UNREVIEWED_MERGE",
  "PLAN_MISMATCH",
  "STALE_PLAN",
  "MANIFESTS_CHANGED",
  "EDITED_PLAN",
  "WRONG_SERVICE",
  "NEEDS_APPROVAL",
  "LOCKED",
]);

/** The result of an apply that ended with an error. */
export function failedResult(result: ApplyOutcome, e: unknown): ApplyOutcome {
  const code = e instanceof PhctlError ? e.code : "";
  const status = code === "STOPPED" ? "stopped" : REFUSALS.has(code) ? "refused" : "failed";
  return {
    ...result,
    status,
    message: e instanceof Error ? e.message : String(e),
    ...(code === "REVIEW_MISMATCH" && e instanceof PhctlError
      ? { differences: [...e.details] }
      : {}),
  };
}

/** Write the result, its messages masked (an error may quote a live value). */
export function writeResult(file: string, result: ApplyOutcome): void {
  writeAtomically(file, `${JSON.stringify(redactValue(result), null, 2)}\n`);
}
