/**
 * The lines a drift run says about a tracking issue it kept (the drift issue, the expiry
 * issue): the duplicates it closed, what it did to the issue with its link, and a label the
 * platform dropped — the same words for both, so that a job log reads the same.
 */
import type { CiContext } from "../ci/platform.js";
import type { TrackingResult } from "../ci/tracking-issue.js";

export interface IssueLines {
  /** "drift issue", "expiry issue". */
  what: string;
  label: string;
  key: string;
  /** The whole line when there was nothing to track and no open issue. */
  none: string;
  /** Why it was closed: "in sync again". */
  closed: string;
  /** After the key on an opened, reopened or updated issue: ": 1 expired". */
  detail?: string;
  /** On an updated issue whose content changed: "the drift changed". */
  changed: string;
}

export function sayIssue(
  say: (line: string) => void,
  ctx: Pick<CiContext, "name">,
  r: TrackingResult,
  o: IssueLines,
): void {
  const n = r.issue ? `#${r.issue.number}` : "";
  const url = r.issue?.url ? ` (${r.issue.url})` : "";
  for (const d of r.duplicates)
    say(`closed ${o.what} #${d} as a duplicate of ${n} (two runs opened one at the same time)`);
  if (r.action === "none") say(o.none);
  else if (r.action === "closed") say(`closed ${o.what} ${n} (key ${o.key}): ${o.closed}${url}`);
  else
    say(
      `${r.action} ${o.what} ${n} (key ${o.key})${o.detail ?? ""}${url}${r.action === "updated" && r.changed ? `; ${o.changed}: commented` : ""}${r.recovered ? " — the first attempt got no answer but had landed; it was not sent twice" : ""}`,
    );
  if (r.labelDropped)
    say(
      `${ctx.name} did not set the label ${o.label} on ${n}: the next run cannot find it; give the token the right to set labels (issues: write)`,
    );
}
