/**
 * `phctl apply --result FILE`: what the apply did, as JSON, written at the end of every
 * apply whatever its outcome (also a refusal), so that the CI step after it can report
 * it — `phctl comment PLAN.json --outcome FILE` updates the pull request's comment. The
 * file's shape is src/engine/apply-outcome.ts; here it is filled in and written.
 */
import { PhctlError } from "../errors.js";
import type { ApplyEvent, ApplyReporter } from "../engine/apply-events.js";
import type { ApplyFailure, ApplyOutcome } from "../engine/apply-outcome.js";
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

/** At most this many failures are kept (the counts say the rest). */
const MAX_FAILURES = 200;

/**
 * What a person does next about a failed object, by the error's code: the service may not
 * fail the same way twice (re-run the apply job: it applies the same reviewed plan and sends
 * nothing twice), or the manifests or live state must change first (a pull request, reviewed).
 */
export function nextStep(code: string, key: string): string {
  switch (code) {
    case "OUTAGE":
    case "INTERNAL":
    case "BAD_GATEWAY":
    case "UNAVAILABLE":
    case "GATEWAY_TIMEOUT":
    case "RATE_LIMITED":
    case "AMBIGUOUS":
    case "JOB_TIMEOUT":
      return "the service did not take it: re-run the apply job once the service answers (the same reviewed plan; nothing is sent twice)";
    case "UNAUTHORIZED":
    case "FORBIDDEN":
      return "the write token was refused: give the apply job a token that may make this change (PHCTL_TOKEN), then re-run the apply job";
    case "CONFLICT":
    case "NOT_FOUND":
      return `live state moved since the review: open a pull request (its plan shows ${key} under "Merged but not applied") and merge it once reviewed`;
    case "BAD_REQUEST":
    case "RULE_VIOLATED":
      return `the service refused the value: fix ${key} in a pull request; its plan shows the fix, and its apply carries it with what was left`;
    case "JOB_FAILED":
      return `the service's queued job failed: re-run the apply job; if it fails again, change ${key} in a pull request`;
    case "INCONSISTENT":
      return `the service did not keep what was sent: check ${key} on the service, then open a pull request to re-plan it`;
    default:
      return `re-run the apply job; if it fails again, fix ${key} in a pull request (its plan shows what is left)`;
  }
}

/**
 * The reporter that also keeps each failed object (and each one still differing after
 * apply) in `result.failures`, with its error and next step.
 */
export function keepFailures(result: ApplyOutcome, ui: ApplyReporter): ApplyReporter {
  const add = (f: ApplyFailure) => {
    const list = (result.failures ??= []);
    if (list.length < MAX_FAILURES) list.push(f);
  };
  return (e: ApplyEvent) => {
    if (e.type === "action-failed")
      add({ key: e.key, action: e.action, error: e.message, next: nextStep(e.code, e.key) });
    else if (e.type === "inconsistent")
      add({
        key: e.key,
        action: e.action,
        error: `inconsistent result after apply: a new plan still has ${e.action} (${e.reason})`,
        next: nextStep("INCONSISTENT", e.key),
      });
    ui(e);
  };
}

/** `%`, CR, LF (and in properties `:` and `,`) escaped as GitHub's workflow commands read them. */
const ghData = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const ghProperty = (s: string) => ghData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

/**
 * The failed objects for the CI log, masked: on GitHub one `::error` annotation each (shown
 * on the run's summary page) and one for a refusal or stop (its message), elsewhere one plain
 * line each (the GitLab job log; the error line that ends the run says the refusal).
 */
export function failureLines(result: ApplyOutcome, github: boolean): string[] {
  const r = redactValue(result);
  const lines = (r.failures ?? []).map((f) =>
    github
      ? `::error title=${ghProperty(`phctl apply: ${f.action} ${f.key} failed`)}::${ghData(`${f.error} — next: ${f.next}`)}`
      : `phctl: failed ${f.action} ${f.key}: ${f.error} — next: ${f.next}`,
  );
  if (github && r.message && r.status !== "applied" && r.status !== "no-changes")
    lines.push(`::error title=${ghProperty(`phctl apply ${r.status}`)}::${ghData(r.message)}`);
  return lines;
}

/** Write the result, its messages masked (an error may quote a live value). */
export function writeResult(file: string, result: ApplyOutcome): void {
  writeAtomically(file, `${JSON.stringify(redactValue(result), null, 2)}\n`);
}
