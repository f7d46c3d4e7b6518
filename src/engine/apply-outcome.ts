/**
 * What an apply did, as the JSON file `phctl apply --result FILE` writes at the end of every
 * apply whatever its outcome (also a refusal) and `phctl comment PLAN.json --outcome FILE`
 * reads back: one schema for the side that writes it and the side that checks it.
 */
import { Type, type Static } from "@sinclair/typebox";
import { StringEnum } from "../api/schemas.js";

export const APPLY_STATUSES = ["applied", "failed", "refused", "no-changes", "stopped"] as const;

/** The schema of the file (checked field by field when it is read). */
export const ApplyOutcome = Type.Object(
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
    /**
     * Each object that failed (or still differs after apply), with the error and what to do
     * next: the pull request's comment, the annotations and the follow-up issue list them.
     */
    failures: Type.Optional(
      Type.Array(
        Type.Object(
          {
            key: Type.String(),
            action: Type.String(),
            error: Type.String(),
            next: Type.String(),
          },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false, description: "phctl apply --result" },
);
/** What an apply did (the file `phctl apply --result` writes). */
export type ApplyOutcome = Static<typeof ApplyOutcome>;
/** One failed object of an apply (`failures` in the result). */
export type ApplyFailure = NonNullable<ApplyOutcome["failures"]>[number];
