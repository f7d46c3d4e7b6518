/**
 * One issue per key and month (the access review, `phctl report publish --issue`), found again
 * by its label and the marker its body starts with, among open AND closed issues on every
 * page, on the drift issue's clients (issues.ts):
 *
 * - none for this month: open one; a later run the same month replaces its title and body
 *   (a re-run after a fix, a manual dispatch) and never opens a second;
 * - the month's issue closed (the review was done): its body is brought up to date, it stays
 *   closed — a re-run does not undo a review;
 * - the issues of earlier months are left alone: each month's review is its own record.
 *
 * Two runs at the same time may both find nothing and both create: after a create the list is
 * read again and the oldest stays, the newer closed as its duplicate (its body loses the
 * marker). A create that failed without an answer is looked for before it is sent again
 * (tracking-issue.ts, as for the drift issue).
 */
import type { Issue, IssueApi } from "./issues.js";
import { closeDuplicates, createOnce, listOurs } from "./tracking-issue.js";

/** The label of the access-review issues. */
export const ACCESS_REVIEW_LABEL = "phctl-access-review";

/** The marker of a key's issue for a month (key: [A-Za-z0-9._/-]+, validated by the caller). */
export const monthlyMarker = (kind: string, key: string, month: string): string =>
  `<!-- phctl:${kind} key=${key} month=${month} -->`;

export interface MonthlyIssueInput {
  /** What the issue is (the marker's name): "access-review". */
  kind: string;
  key: string;
  /** yyyy-MM. */
  month: string;
  title: string;
  /** The body without the marker (the marker is put first). */
  body: string;
  label: string;
}

export interface MonthlyIssueResult {
  action: "opened" | "updated";
  issue: Issue;
  /** Open issues of the same month closed as duplicates of the one kept. */
  duplicates: number[];
  /** The platform dropped the label on create (a token that may not set labels). */
  labelDropped: boolean;
  /** A create answered by no one had landed: it was not sent twice. */
  recovered: boolean;
}

const duplicateBody = (kept: number) =>
  `Closed as a duplicate of #${kept}: two runs opened this month's issue at the same time.`;

/** Keep this month's issue for the key; platform errors (CiHttpError) reach the caller. */
export async function keepMonthlyIssue(
  api: IssueApi,
  i: MonthlyIssueInput,
): Promise<MonthlyIssueResult> {
  const marker = monthlyMarker(i.kind, i.key, i.month);
  const kind = { label: i.label, markers: [marker], duplicateBody };
  const body = `${marker}\n${i.body}`;
  const found = await listOurs(api, kind);
  if (found.length) {
    // The oldest stays, open or closed (a review done stays done).
    const duplicates = await closeDuplicates(api, kind, found, found[0].number);
    const issue = await api.editIssue(found[0].number, { title: i.title, body });
    return { action: "updated", issue: { ...found[0], ...issue }, duplicates, labelDropped: false, recovered: false }; // prettier-ignore
  }
  const { issue, duplicates, labelDropped, recovered } = await createOnce(api, kind, { title: i.title, body }); // prettier-ignore
  return { action: "opened", issue, duplicates, labelDropped, recovered };
}
