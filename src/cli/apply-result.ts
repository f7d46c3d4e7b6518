/**
 * `phctl apply --result FILE`: what the apply did, as JSON, written at the end of every
 * apply whatever its outcome (also a refusal), so that the CI step after it can report
 * it — `phctl comment PLAN.json --outcome FILE` updates the pull request's comment.
 */
import { Type, type Static } from "@sinclair/typebox";
import { PhctlError } from "../errors.js";
import { StringEnum } from "../api/schemas.js";
import { redactValue } from "../secrets.js";
import { writeAtomically } from "./plan-common.js";

export const APPLY_STATUSES = ["applied", "failed", "refused", "no-changes", "stopped"] as const;

export const ApplyResult = Type.Object(
  {
    formatVersion: Type.Literal(1),
    status: StringEnum(APPLY_STATUSES),
    /** Digest of the structured changes applied (the plan hash the comment shows). */
    planHash: Type.String(),
    done: Type.Integer({ minimum: 0 }),
    failed: Type.Integer({ minimum: 0 }),
    skipped: Type.Integer({ minimum: 0 }),
    message: Type.Optional(Type.String()),
    /** With --reviewed: how the merged commit's plan differs from the reviewed one. */
    differences: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false, description: "phctl apply --result" },
);
export type ApplyResult = Static<typeof ApplyResult>;

/** Filled in while apply runs; written once at the end. */
export function newResult(): ApplyResult {
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
export function failedResult(result: ApplyResult, e: unknown): ApplyResult {
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
export function writeResult(file: string, result: ApplyResult): void {
  writeAtomically(file, `${JSON.stringify(redactValue(result), null, 2)}\n`);
}
