/**
 * One tracking issue per key (`phctl drift --report`), found again by its label and the
 * marker its body starts with, among open AND closed issues on every page:
 *
 * - drift, no issue: open one; drift, a closed one: reopen it (with a comment) — never a
 *   second issue;
 * - drift, the issue open: replace its title and body, and comment only when the drift
 *   changed: other changes, or other live values of the drifted fields (digest.ts; the
 *   digests are kept in the body);
 * - in sync, the issue open: comment "in sync again" and close it; else nothing.
 *
 * Two runs at the same time may both find nothing and both create: after a create the list is
 * read again, and the oldest open issue stays while the newer one is closed as its duplicate
 * (its body loses the marker). A create that failed without an answer is looked for before
 * it is sent once more. Platform errors (CiHttpError) reach the caller.
 */
import type { Plan } from "../engine/plan.js";
import type { Issue, IssueApi } from "../ci/issues.js";
import { keepTrackingIssue, type TrackingInput } from "../ci/tracking-issue.js";
import { driftChanged, driftDigests } from "./digest.js";
import * as text from "./issue-body.js";
import { countsOf, type RunRef } from "./summary.js";

export interface ReportInput {
  key: string;
  /** Keys earlier phctl versions gave this scope: an issue under one is taken over (options.ts). */
  formerKeys?: readonly string[];
  plan: Plan;
  /** The issue body for this drift (issue-body.ts's issueBody with the caller's limits). */
  render: (meta: text.DriftMeta) => string;
  run?: RunRef;
  label?: string;
  /** Applied to every text sent (secret redaction). */
  scrub?: (s: string) => string;
}

export interface ReportResult {
  action: "opened" | "reopened" | "updated" | "closed" | "none";
  issue?: Issue;
  /** What the issue said before this run: open → drift, closed or none → in sync. */
  previous: "drift" | "in-sync";
  /** The drift differs from what the issue showed (new, reopened or changed). */
  changed: boolean;
  commented: boolean;
  /** Open issues with the marker closed as duplicates of the one kept. */
  duplicates: number[];
  /** The platform dropped the label on create (a token that may not set labels). */
  labelDropped: boolean;
  /** A create answered by no one had landed: it was not sent twice. */
  recovered: boolean;
}

/** The drift seen by this run, as the issue says it (texts scrubbed). */
function driftHolds(i: ReportInput, scrub: (s: string) => string): TrackingInput["holds"] {
  const run = i.run ? { run: i.run } : {};
  const time = i.plan.createdAt;
  const counts = countsOf(i.plan);
  const digests = driftDigests(i.plan.entries);
  return {
    title: scrub(text.issueTitle(i.key, counts, i.plan.organization)),
    body: (current) => {
      const since = (current && text.metaOf(current.body)?.since) ?? time;
      return scrub(i.render({ ...digests, since }));
    },
    changed: (current) => {
      const was = text.metaOf(current.body);
      if (was && !driftChanged(was, digests)) return undefined;
      return scrub(
        text.changedComment({ time, ...run, counts, was: was?.digest, now: digests.digest }),
      );
    },
    reopened: () => scrub(text.reopenedComment({ time, ...run, counts })),
  };
}

export async function reportDrift(api: IssueApi, i: ReportInput): Promise<ReportResult> {
  const scrub = i.scrub ?? ((s: string) => s);
  const time = i.plan.createdAt;
  const holds = i.plan.entries.length > 0 ? driftHolds(i, scrub) : undefined;
  const r = await keepTrackingIssue(api, {
    kind: {
      label: i.label ?? text.DRIFT_LABEL,
      markers: [i.key, ...(i.formerKeys ?? [])].map(text.driftMarker),
      duplicateBody: text.duplicateBody,
    },
    ...(holds ? { holds } : {}),
    resolved: () => ({
      comment: scrub(text.recoveredComment({ time, ...(i.run ? { run: i.run } : {}) })),
      title: scrub(text.resolvedTitle(i.key, time, i.plan.organization)),
    }),
  });
  // An open issue said drift; a closed one, or none, in sync.
  const previous = r.action === "updated" || r.action === "closed" ? "drift" : "in-sync";
  return { ...r, previous };
}
