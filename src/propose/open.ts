/**
 * Open one request per proposal, safely again and again: the open requests carrying the
 * label are listed once; a proposal whose branch has an open request is left alone when the
 * request's digest is the same (nothing sent), refreshed when it changed, opened otherwise.
 * Requests are made one after another (a platform's secondary rate limit punishes bursts of
 * writes), and a failure stops nothing else: it is reported with the proposal it belongs to.
 */
import type { OpenRequest, PullRequestApi } from "../ci/pull-requests.js";
import { BRANCH_PREFIX, digestIn, PROPOSE_LABEL, type ProposedRequest } from "./request.js";

export type Outcome =
  | { request: ProposedRequest; status: "opened" | "refreshed" | "unchanged"; opened: OpenRequest }
  | { request: ProposedRequest; status: "failed"; error: string };

export async function openRequests(
  api: PullRequestApi,
  requests: readonly ProposedRequest[],
  o: { base: string; reviewersOf: (projects: readonly string[]) => string[] },
): Promise<Outcome[]> {
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
    try {
      if (standing && digestIn(standing.body) === request.digest)
        out.push({ request, status: "unchanged", opened: standing });
      else if (standing)
        out.push({ request, status: "refreshed", opened: await api.refresh(standing, input) });
      else out.push({ request, status: "opened", opened: await api.open(input) });
    } catch (e) {
      out.push({ request, status: "failed", error: (e as Error).message });
    }
  }
  return out;
}
