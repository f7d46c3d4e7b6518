/**
 * Open one request per proposal, safely again and again: the open requests carrying the
 * label are listed once; a proposal whose branch has an open request is left alone when the
 * request's digest is the same (nothing sent), refreshed when it changed, opened otherwise.
 * Requests are made one after another, and at most `max` are opened or refreshed in a run:
 * GitHub's secondary rate limit allows about 80 content-creating calls a minute and 500 an
 * hour, and each pull request takes five; the rest are "deferred" and the next run, finding
 * the first ones unchanged, goes on with them. A failure stops nothing else: it is reported
 * with the proposal it belongs to.
 *
 * A proposal with no open request whose branch's last request was closed without merging
 * while proposing exactly the same (the same digest) is "declined": people decided, and it
 * is not opened again until the proposal changes (a new finding, another file).
 *
 * An open request on one of phctl's branches that no proposal of this run wants, and that the
 * caller says this review covers (`stale`: its project was reviewed and has nothing left to
 * propose), is withdrawn: closed, its body and a comment saying why — within the same `max`.
 */
import type { OpenRequest, PullRequestApi } from "../ci/pull-requests.js";
import {
  BRANCH_PREFIX,
  digestIn,
  PROPOSE_LABEL,
  withoutDigest,
  type ProposedRequest,
} from "./request.js";

export type Outcome =
  | {
      request: ProposedRequest;
      status: "opened" | "refreshed" | "unchanged" | "declined";
      opened: OpenRequest;
    }
  | { request: ProposedRequest; status: "failed"; error: string }
  | { request: ProposedRequest; status: "deferred" };

/** What became of a standing request no proposal wants any more. */
export type Withdrawal =
  | { standing: OpenRequest; status: "withdrawn" | "deferred" }
  | { standing: OpenRequest; status: "failed"; error: string };

/** The comment a withdrawn request gets. */
export const WITHDRAWN =
  "phctl's access review no longer proposes this: the findings it carried are gone (the access changed, the user signed in again, or the grant was declared or ended). Closed by `phctl report access --propose`; a later review opens a new request if a finding returns.";

export async function openRequests(
  api: PullRequestApi,
  requests: readonly ProposedRequest[],
  o: {
    base: string;
    reviewersOf: (projects: readonly string[]) => string[];
    max: number;
    /** Whether a standing request on this branch may be withdrawn (default: none may). */
    stale?: (branch: string) => boolean;
  },
): Promise<{ outcomes: Outcome[]; withdrawals: Withdrawal[] }> {
  let writes = 0;
  const open = new Map(
    (await api.listOpen(PROPOSE_LABEL, BRANCH_PREFIX)).map((r) => [r.branch, r]),
  );
  const out: Outcome[] = [];
  for (const request of requests) {
    const input = {
      branch: request.branch,
      base: o.base,
      title: request.title,
      body: request.body,
      files: request.files,
      message: request.message,
      label: PROPOSE_LABEL,
      // Nobody reviews their own removal.
      reviewers: o.reviewersOf(request.projects).filter((r) => !request.removed.includes(r)),
    };
    const standing = open.get(request.branch);
    const same = standing !== undefined && digestIn(standing.body) === request.digest;
    if (!same && writes >= o.max) {
      out.push({ request, status: "deferred" });
      continue;
    }
    try {
      if (standing && same) out.push({ request, status: "unchanged", opened: standing });
      else if (standing) {
        writes++;
        out.push({ request, status: "refreshed", opened: await api.refresh(standing, input) });
      } else {
        // Closed without merging, proposing exactly this: people decided; not asked again.
        const declined = await api.lastDeclined(request.branch);
        if (declined && digestIn(declined.body) === request.digest)
          out.push({ request, status: "declined", opened: declined });
        else {
          writes++;
          out.push({ request, status: "opened", opened: await api.open(input) });
        }
      }
    } catch (e) {
      out.push({ request, status: "failed", error: (e as Error).message });
    }
  }
  const wanted = new Set(requests.map((r) => r.branch));
  const withdrawals: Withdrawal[] = [];
  for (const standing of open.values()) {
    if (wanted.has(standing.branch) || !standing.branch.startsWith(BRANCH_PREFIX)) continue;
    if (!o.stale?.(standing.branch)) continue;
    if (writes >= o.max) {
      withdrawals.push({ standing, status: "deferred" });
      continue;
    }
    writes++;
    try {
      // The body says why too, should the comment be lost.
      await api.withdraw(standing, WITHDRAWN, `${WITHDRAWN}\n\n${withoutDigest(standing.body)}`);
      withdrawals.push({ standing, status: "withdrawn" });
    } catch (e) {
      withdrawals.push({ standing, status: "failed", error: (e as Error).message });
    }
  }
  return { outcomes: out, withdrawals };
}
