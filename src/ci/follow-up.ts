/**
 * The follow-up issue of a refused or failed apply (`phctl comment --outcome R --follow-up`).
 * After such an apply the default branch is ahead of the live service and nothing says so
 * until someone opens another pull request; the way out must stay reviewed (as tfaction
 * opens a follow-up pull request), never a `phctl apply` by hand. So the apply job keeps ONE
 * issue per key (label phctl-follow-up, found again by the marker its body starts with):
 *
 * - refused, failed or stopped: open it — or update the open one, or reopen the last closed
 *   one — with the commit, why, each failed object with its next step, and the two reviewed
 *   ways to carry the changes (re-run the apply job; a pull request whose plan shows them
 *   under "Merged but not applied");
 * - applied (or nothing to apply): close the open one, saying which run carried the changes.
 *
 * Applies of one key run one at a time (the concurrency group), so no two runs race to open it.
 */
import type { ApplyOutcome } from "../engine/apply-outcome.js";
import { failureList, outcomeLine } from "./outcome.js";
import type { Issue, IssueApi } from "./issues.js";
import { keepTrackingIssue } from "./tracking-issue.js";

export const FOLLOW_UP_LABEL = "phctl-follow-up";

/** The marker of a key's follow-up issue (key: [A-Za-z0-9._/-]+, validated by the caller). */
export const followUpMarker = (key: string): string => `<!-- phctl:follow-up key=${key} -->`;

export interface FollowUpInput {
  key: string;
  outcome: ApplyOutcome;
  platform: "github" | "gitlab";
  /** The pull/merge request whose reviewed plan the apply carried out. */
  pr?: number;
  /** The merged commit the apply ran on. */
  commit?: string;
  run?: { label: string; url?: string };
  /** No reviewed plan carried the commit (a direct push): re-running the job cannot help. */
  unreviewed?: true;
}

export interface FollowUpResult {
  action: "opened" | "updated" | "reopened" | "closed" | "none";
  issue?: Issue;
}

const short = (sha: string | undefined) => (sha ? `\`${sha.slice(0, 7)}\`` : "the merged commit");
const runRef = (r: FollowUpInput["run"]) =>
  r ? (r.url ? `[${r.label}](${r.url})` : r.label) : "the apply job";

/** The issue's title: which key, and that changes wait. */
export function followUpTitle(i: FollowUpInput): string {
  const which = i.key === "default" ? "" : ` (key ${i.key})`;
  const why = i.outcome.status === "refused" ? "refused" : "failed";
  return `phctl: merged changes not applied${which}: the apply of ${i.commit?.slice(0, 7) ?? "a merge"} ${why}`;
}

/** The issue's body: what happened, why, and the reviewed ways to carry the changes. */
export function followUpBody(i: FollowUpInput): string {
  const gh = i.platform === "github";
  const request = gh ? `pull request #${i.pr}` : `merge request !${i.pr}`;
  const from = i.pr !== undefined ? ` (${request})` : "";
  const failures = failureList(i.outcome);
  const branch = `phctl-carry-${i.commit?.slice(0, 7) ?? "changes"}`;
  const rerun = gh
    ? `re-run the apply job of ${runRef(i.run)} ("Re-run failed jobs")`
    : `retry the \`phctl-apply\` job of ${runRef(i.run)}`;
  return [
    followUpMarker(i.key),
    `The apply of ${short(i.commit)}${from} did not finish: ${outcomeLine(i.outcome, i.run)}`,
    "",
    `The default branch is ahead of the live service: these changes wait until a reviewed plan carries them.${failures ? "\n\n" + failures : ""}`,
    "",
    "### Carry them, reviewed",
    "",
    ...(i.unreviewed
      ? [
          `Re-running the apply job cannot help: no ${gh ? "pull request" : "merge request"} was reviewed for this commit. Open one from the default branch — an empty commit will do (with a \`paths:\` filter on the plan workflow, change a file it matches):`,
        ]
      : [
          `1. **The service failed** (an outage, a rate limit, a 5xx): ${rerun}. It applies the same reviewed plan again and sends nothing twice.`,
          `2. **Anything else** (a refusal, a value the service refused, live state that moved since the review): open a ${gh ? "pull request" : "merge request"} from the default branch — an empty commit will do (with a \`paths:\` filter on the plan workflow, change a file it matches):`,
        ]),
    "",
    "   ```sh",
    `   git fetch origin && git switch -c ${branch} origin/HEAD`,
    `   git commit --allow-empty -m "Carry the changes the apply of ${i.commit?.slice(0, 7) ?? "the merge"} left"`,
    gh
      ? "   git push -u origin HEAD   # then open a pull request from the branch"
      : "   git push -u origin HEAD -o merge_request.create",
    "   ```",
    "",
    `   Its plan shows the waiting changes under "Merged but not applied" (fix the manifests on the branch first if the service refused a value); once reviewed and merged, its apply carries them.`,
    "",
    `Both ways stay reviewed: no apply by hand is needed. phctl updates this issue after every apply${i.key === "default" ? "" : ` of key \`${i.key}\``} that does not finish and closes it when one applies everything.`,
  ].join("\n");
}

/** Open, update, reopen or close the key's follow-up issue; platform errors reach the caller. */
export async function keepFollowUp(api: IssueApi, i: FollowUpInput): Promise<FollowUpResult> {
  const done = i.outcome.status === "applied" || i.outcome.status === "no-changes";
  const request =
    i.pr !== undefined
      ? ` (${i.platform === "github" ? `pull request #${i.pr}` : `merge request !${i.pr}`})`
      : "";
  const title = followUpTitle(i);
  const r = await keepTrackingIssue(api, {
    kind: {
      label: FOLLOW_UP_LABEL,
      markers: [followUpMarker(i.key)],
      duplicateBody: (kept) => `Closed as a duplicate of #${kept}.`,
    },
    ...(done
      ? {}
      : {
          holds: {
            title,
            body: () => followUpBody(i),
            // The body says what the latest apply did; no comment per attempt.
            changed: () => undefined,
            reopened: () => `Another apply did not finish: ${outcomeLine(i.outcome, i.run)}`,
          },
        }),
    resolved: () => ({
      comment: `Carried out by ${runRef(i.run)}${request}: ${outcomeLine(i.outcome)} Closing.`,
    }),
  });
  return r.issue ? { action: r.action, issue: r.issue } : { action: r.action };
}
