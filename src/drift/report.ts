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
import { CiHttpError } from "../ci/retry.js";
import { carriesMarker } from "../ci/sticky.js";
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

export async function reportDrift(api: IssueApi, i: ReportInput): Promise<ReportResult> {
  const label = i.label ?? text.DRIFT_LABEL;
  const markers = [i.key, ...(i.formerKeys ?? [])].map(text.driftMarker);
  const scrub = i.scrub ?? ((s: string) => s);
  const run = i.run ? { run: i.run } : {};
  const time = i.plan.createdAt;
  const ours = async () =>
    (await api.listIssues(label))
      .filter((x) => markers.some((m) => carriesMarker(x.body, m)))
      .sort((a, b) => a.number - b.number);
  const found = await ours();
  const open = found.filter((x) => x.state === "open");
  const duplicates: number[] = [];
  for (const d of open.slice(1)) {
    await api.editIssue(d.number, {
      body: text.duplicateBody(open[0].number),
      state: "closed",
      reason: "not_planned",
    });
    duplicates.push(d.number);
  }
  const current = open[0];
  const base = { duplicates, labelDropped: false, recovered: false };

  if (i.plan.entries.length === 0) {
    if (!current)
      return { ...base, action: "none", previous: "in-sync", changed: false, commented: false };
    await api.commentIssue(current.number, scrub(text.recoveredComment({ time, ...run })));
    const title = scrub(text.resolvedTitle(i.key, time, i.plan.organization));
    const issue = await api.editIssue(current.number, {
      title,
      state: "closed",
      reason: "completed",
    });
    return {
      ...base,
      action: "closed",
      issue: { ...current, ...issue },
      previous: "drift",
      changed: true,
      commented: true,
    };
  }

  const counts = countsOf(i.plan);
  const digests = driftDigests(i.plan.entries);
  const { digest } = digests;
  const title = scrub(text.issueTitle(i.key, counts, i.plan.organization));
  if (current) {
    const was = text.metaOf(current.body);
    const changed = !was || driftChanged(was, digests);
    const body = scrub(i.render({ ...digests, since: was?.since ?? time }));
    const issue = await api.editIssue(current.number, { title, body });
    if (changed)
      await api.commentIssue(
        current.number,
        scrub(text.changedComment({ time, ...run, counts, was: was?.digest, now: digest })),
      );
    return {
      ...base,
      action: "updated",
      issue: { ...current, ...issue },
      previous: "drift",
      changed,
      commented: changed,
    };
  }

  const body = scrub(i.render({ ...digests, since: time }));
  const closed = found.filter((x) => x.state === "closed").at(-1);
  if (closed) {
    const issue = await api.editIssue(closed.number, { title, body, state: "open" });
    await api.commentIssue(closed.number, scrub(text.reopenedComment({ time, ...run, counts })));
    return {
      ...base,
      action: "reopened",
      issue: { ...closed, ...issue },
      previous: "in-sync",
      changed: true,
      commented: true,
    };
  }

  let created: Issue | undefined;
  let recovered = false;
  for (let attempt = 1; !created; attempt++) {
    try {
      created = await api.createIssue({ title, body, label });
    } catch (e) {
      if (!(e instanceof CiHttpError) || !e.ambiguous) throw e;
      // It may have landed: look before sending it again.
      created = (await ours()).find((x) => x.state === "open");
      recovered = created !== undefined;
      if (!created && attempt >= 2) throw e;
    }
  }
  const labelDropped = !created.labels.includes(label);
  // Another run may have opened one at the same time: the oldest open issue stays.
  const first = (await ours()).find((x) => x.state === "open");
  if (first && first.number !== created.number) {
    await api.editIssue(created.number, {
      body: text.duplicateBody(first.number),
      state: "closed",
      reason: "not_planned",
    });
    duplicates.push(created.number);
    return {
      ...base,
      action: "updated",
      issue: first,
      previous: "drift",
      changed: false,
      commented: false,
      labelDropped,
      recovered,
    };
  }
  return {
    ...base,
    action: "opened",
    issue: created,
    previous: "in-sync",
    changed: true,
    commented: false,
    labelDropped,
    recovered,
  };
}
