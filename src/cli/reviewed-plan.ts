/**
 * `phctl apply CONFIG --reviewed PLAN.json`: the apply after merge carries out exactly what
 * was reviewed on the pull request. It re-plans the merged commit — scoped like the
 * reviewed plan — and compares the structured changes (src/engine/reviewed.ts), never the
 * rendered text: equal, or less because part is already in place, → apply without asking;
 * anything else → refuse, naming each difference, with nothing sent.
 *
 * Unlike a saved plan (`apply plan.json`), the manifests need not be the files the plan was
 * made from: the merge commit differs from the pull request's head whenever the default
 * branch moved. What must not differ is what apply would do.
 */
import { userError } from "../errors.js";
import type { Plan } from "../engine/plan.js";
import { changesDigest, compareReviewed, shortDigest } from "../engine/reviewed.js";
import { entriesDigest } from "./plan-identity.js";
import { readSavedPlan } from "./saved-plan.js";

export interface ReviewedPlan {
  file: string;
  plan: Plan;
  /** The digest of its changes (the plan hash the pull-request comment shows). */
  digest: string;
}

/** Read a reviewed plan and check that it was not edited since phctl made it. */
export function readReviewed(file: string): ReviewedPlan {
  const plan = readSavedPlan(file);
  if (plan.entriesDigest !== undefined && entriesDigest(plan.entries) !== plan.entriesDigest)
    throw userError(
      "EDITED_PLAN",
      `${file} was edited after phctl made it (its entries no longer match their recorded hash): only the plan phctl made on the pull request can be applied as reviewed`,
    );
  return { file, plan, digest: changesDigest(plan.entries) };
}

/**
 * Refuse a fresh plan that does anything the reviewed one did not; returns the reviewed
 * changes already in place (for a note).
 */
export function checkReviewed(
  reviewed: ReviewedPlan,
  fresh: Plan,
  apiUrl: string,
  owed: ReadonlySet<string>,
): string[] {
  const { file, plan } = reviewed;
  if (plan.apiUrl !== apiUrl)
    throw userError(
      "WRONG_SERVICE",
      `the reviewed plan ${file} was made against ${plan.apiUrl}, not ${apiUrl}: apply it against the service it was reviewed for (PHCTL_API_URL)`,
    );
  if (plan.organization !== fresh.organization)
    throw userError(
      "WRONG_SERVICE",
      `the reviewed plan ${file} is for organization ${plan.organization}, not ${fresh.organization}`,
    );
  const { differences, inPlace } = compareReviewed(plan.entries, fresh.entries, owed);
  if (differences.length > 0) {
    const shown = differences.slice(0, 5).join(" | ");
    throw userError(
      "REVIEW_MISMATCH",
      `the plan of the merged commit (${shortDigest(changesDigest(fresh.entries))}) differs from the one reviewed on the pull request (${shortDigest(reviewed.digest)}) in ${differences.length === 1 ? "1 change" : `${differences.length} changes`}: ${shown}${differences.length > 5 ? " | …" : ""}; nothing was applied — the default branch or live state moved since the review: re-run the pull request's plan (or open a new pull request) and review it`,
      differences,
    );
  }
  return inPlace;
}
