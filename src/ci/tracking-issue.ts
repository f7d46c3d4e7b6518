/**
 * What every issue phctl keeps (the drift issue, the expiry issue, the monthly access review)
 * shares: it is found again by its label and the marker its body starts with, among open AND
 * closed issues on every page (issues.ts), and there is never a second one.
 *
 * - `listOurs`: the issues carrying the label and one of the markers, oldest first;
 * - `closeDuplicates`: the other open ones closed as duplicates of the one kept (their body
 *   loses the marker, so no run finds them again);
 * - `createOnce`: a create that failed without an answer is looked for before it is sent once
 *   more; after a create the list is read again and the oldest open issue stays (two runs at
 *   the same time may both have found nothing and created);
 * - `keepTrackingIssue`: the open / update / reopen / close cycle of an issue that tracks a
 *   condition (drift; access that expires): open while the condition holds, closed when not.
 *
 * Platform errors (CiHttpError) reach the caller.
 */
import type { Issue, IssueApi } from "./issues.js";
import { CiHttpError } from "./retry.js";
import { carriesMarker } from "./sticky.js";

/** How a kind of issue is found and how its duplicates read. */
export interface TrackedKind {
  label: string;
  /** An issue whose body starts with one of these is ours (the first is this run's). */
  markers: readonly string[];
  /** The body of an issue closed as a duplicate of `kept` (without a marker). */
  duplicateBody: (kept: number) => string;
}

/** Our issues, open and closed, oldest first. */
export async function listOurs(api: IssueApi, k: TrackedKind): Promise<Issue[]> {
  return (await api.listIssues(k.label))
    .filter((x) => k.markers.some((m) => carriesMarker(x.body, m)))
    .sort((a, b) => a.number - b.number);
}

/** Close the open issues of `found` other than `kept` as its duplicates; their numbers. */
export async function closeDuplicates(
  api: IssueApi,
  k: TrackedKind,
  found: readonly Issue[],
  kept: number,
): Promise<number[]> {
  const closed: number[] = [];
  for (const d of found.filter((x) => x.state === "open" && x.number !== kept)) {
    await api.editIssue(d.number, {
      body: k.duplicateBody(kept),
      state: "closed",
      reason: "not_planned",
    });
    closed.push(d.number);
  }
  return closed;
}

export interface Created {
  /** The issue kept: the one created, or an older open one another run created meanwhile. */
  issue: Issue;
  /** Another run's issue was kept: ours was closed as its duplicate. */
  raced: boolean;
  duplicates: number[];
  /** The platform dropped the label on create (a token that may not set labels). */
  labelDropped: boolean;
  /** A create answered by no one had landed: it was not sent twice. */
  recovered: boolean;
}

/** Create the issue once (after `listOurs` found none open). */
export async function createOnce(
  api: IssueApi,
  k: TrackedKind,
  input: { title: string; body: string },
): Promise<Created> {
  let created: Issue | undefined;
  let recovered = false;
  for (let attempt = 1; !created; attempt++) {
    try {
      created = await api.createIssue({ ...input, label: k.label });
    } catch (e) {
      if (!(e instanceof CiHttpError) || !e.ambiguous) throw e;
      // It may have landed: look before sending it again.
      created = (await listOurs(api, k)).find((x) => x.state === "open");
      recovered = created !== undefined;
      if (!created && attempt >= 2) throw e;
    }
  }
  const labelDropped = !created.labels.includes(k.label);
  // Another run may have opened one at the same time: the oldest open issue stays.
  const after = await listOurs(api, k);
  const first = after.find((x) => x.state === "open") ?? created;
  const duplicates = await closeDuplicates(api, k, after.some((x) => x.number === created.number) ? after : [...after, created], first.number); // prettier-ignore
  return { issue: first, raced: first.number !== created.number, duplicates, labelDropped, recovered }; // prettier-ignore
}

/** What a tracking issue should say this run; each text already scrubbed by the caller. */
export interface TrackingInput {
  kind: TrackedKind;
  /** The condition holds: the issue is open and says so. Absent: it does not. */
  holds?: {
    title: string;
    /** The body; `current`: the open issue it replaces (none: opened or reopened). */
    body: (current?: Issue) => string;
    /** On an open issue updated: the comment to post, or undefined when nothing changed. */
    changed: (current: Issue) => string | undefined;
    /** On a closed issue reopened. */
    reopened: () => string;
  };
  /** The condition no longer holds: the comment, and the title, of the issue closed. */
  resolved: () => { comment: string; title?: string };
}

export interface TrackingResult {
  /** "updated" also when another run's issue, opened at the same time, was kept. */
  action: "opened" | "reopened" | "updated" | "closed" | "none";
  issue?: Issue;
  /** What the issue shows differs from what it showed (new, reopened, changed or closed). */
  changed: boolean;
  commented: boolean;
  /** Open issues with the marker closed as duplicates of the one kept. */
  duplicates: number[];
  labelDropped: boolean;
  recovered: boolean;
}

/**
 * Holds, no issue: open one; holds, a closed one: reopen it with a comment, never a second;
 * holds, open: replace its title and body, comment when `changed` says so. Does not hold, an
 * open issue: comment and close it (completed); else nothing is sent after the list.
 */
export async function keepTrackingIssue(api: IssueApi, i: TrackingInput): Promise<TrackingResult> {
  const found = await listOurs(api, i.kind);
  const open = found.filter((x) => x.state === "open");
  const current = open[0];
  const duplicates = current ? await closeDuplicates(api, i.kind, open, current.number) : [];
  const base = { duplicates, labelDropped: false, recovered: false };
  const h = i.holds;

  if (!h) {
    if (!current) return { ...base, action: "none", changed: false, commented: false };
    const { comment, title } = i.resolved();
    await api.commentIssue(current.number, comment);
    const issue = await api.editIssue(current.number, {
      ...(title !== undefined ? { title } : {}),
      state: "closed",
      reason: "completed",
    });
    const closed = { ...current, ...issue };
    return { ...base, action: "closed", issue: closed, changed: true, commented: true };
  }

  if (current) {
    const comment = h.changed(current);
    const issue = await api.editIssue(current.number, { title: h.title, body: h.body(current) });
    if (comment !== undefined) await api.commentIssue(current.number, comment);
    const changed = comment !== undefined;
    const updated = { ...current, ...issue };
    return { ...base, action: "updated", issue: updated, changed, commented: changed };
  }

  const body = h.body();
  const closed = found.filter((x) => x.state === "closed").at(-1);
  if (closed) {
    const issue = await api.editIssue(closed.number, { title: h.title, body, state: "open" });
    await api.commentIssue(closed.number, h.reopened());
    const reopened = { ...closed, ...issue };
    return { ...base, action: "reopened", issue: reopened, changed: true, commented: true };
  }

  const c = await createOnce(api, i.kind, { title: h.title, body });
  const { labelDropped, recovered } = c;
  return {
    action: c.raced ? "updated" : "opened",
    issue: c.issue,
    changed: !c.raced,
    commented: false,
    duplicates: [...duplicates, ...c.duplicates],
    labelDropped,
    recovered,
  };
}
