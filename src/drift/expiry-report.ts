/**
 * The expiry issue of one key (`phctl drift --report`), kept on every run whether or not
 * live state drifted (tracking-issue.ts does the finding, creating and duplicates, as for the
 * drift issue):
 *
 * - something expired or ending within `expiry.warnDays` (the plan's `expiring`): no issue →
 *   open one; a closed one → reopen it with a comment; open → replace its title and body, and
 *   comment only when the list changed (what was added, what now expired, what went);
 * - nothing: an open issue → comment and close it (completed); else nothing is sent.
 *
 * Platform errors (CiHttpError) reach the caller.
 */
import type { Plan } from "../engine/plan.js";
import type { IssueApi } from "../ci/issues.js";
import { keepTrackingIssue, type TrackingResult } from "../ci/tracking-issue.js";
import * as text from "./expiry-issue.js";
import type { RunRef } from "./summary.js";

export interface ExpiryInput {
  key: string;
  plan: Pick<Plan, "expiring" | "createdAt" | "organization">;
  /** phctl.yaml's `expiry.warnDays`: the window of "ends soon". */
  warnDays: number;
  run?: RunRef;
  /** The platform's size limit of an issue body. */
  maxChars: number;
  label?: string;
  /** Applied to every text sent (secret redaction). */
  scrub?: (s: string) => string;
}

export interface ExpiryResult extends TrackingResult {
  counts: text.ExpiryCounts;
}

export async function keepExpiryIssue(api: IssueApi, i: ExpiryInput): Promise<ExpiryResult> {
  const scrub = i.scrub ?? ((s: string) => s);
  const grants = i.plan.expiring ?? [];
  const time = i.plan.createdAt;
  const run = i.run ? { run: i.run } : {};
  const { warnDays } = i;
  const counts = text.expiryCounts(grants);
  const org = i.plan.organization;
  const body = scrub(text.expiryBody({ key: i.key, grants, warnDays, time, ...(org ? { organization: org } : {}), ...run, maxChars: i.maxChars })); // prettier-ignore
  const digest = text.expiryMetaOf(body)?.digest;
  const r = await keepTrackingIssue(api, {
    kind: {
      label: i.label ?? text.EXPIRY_LABEL,
      markers: [text.expiryMarker(i.key)],
      duplicateBody: text.expiryDuplicateBody,
    },
    ...(grants.length > 0
      ? {
          holds: {
            title: scrub(text.expiryTitle(i.key, counts, warnDays, org)),
            body: () => body,
            changed: (current) => {
              const was = text.expiryMetaOf(current.body);
              if (was && was.digest === digest) return undefined;
              return scrub(text.expiryChangedComment({ time, ...run, was, grants, warnDays }));
            },
            reopened: () => scrub(text.expiryReopenedComment({ time, ...run, counts, warnDays })),
          },
        }
      : {}),
    resolved: () => ({
      comment: scrub(text.expiryResolvedComment({ time, ...run, warnDays })),
      title: scrub(text.noExpiryTitle(i.key, warnDays, org)),
    }),
  });
  return { ...r, counts };
}
