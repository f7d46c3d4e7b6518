/**
 * GitLab merge requests phctl opens (pull-requests.ts), on the thin client of gitlab.ts: one
 * call commits the edited files on a branch started from the base (`POST
 * /repository/commits` with `start_branch` and `force`: the branch is phctl's, and is the
 * base plus that one commit even when a closed merge request left it behind), then the merge
 * request with its label and reviewers in one call — GitLab takes reviewers by id, found
 * among the project's members by username (one call per reviewer, once per run; a username
 * that is no member is noted and left out). Calls: the open merge requests with the label
 * (one per 100), then per merge request opened 2 plus the reviewers not looked up yet, per
 * refresh 2, per withdrawal 2 (close, note); before opening, one read of the branch's last
 * closed merge request.
 */
import { GitLabClient } from "./gitlab.js";
import type { OpenRequest, PullRequestApi, RequestInput } from "./pull-requests.js";
import { isNumbered, itemsOf } from "./shape.js";

interface RawMergeRequest {
  iid: number;
  title: string;
  description?: string | null;
  web_url?: string;
  source_branch: string;
}

const toRequest = (m: RawMergeRequest): OpenRequest => ({
  number: m.iid,
  branch: m.source_branch,
  title: m.title,
  body: m.description ?? "",
  ...(m.web_url ? { url: m.web_url } : {}),
});

/** A project member as GitLab lists one: an id and a username. */
const isMember = (x: unknown): x is { id: number; username: string } =>
  typeof x === "object" &&
  x !== null &&
  typeof (x as { id?: unknown }).id === "number" &&
  typeof (x as { username?: unknown }).username === "string";

export class GitLabPullClient extends GitLabClient implements PullRequestApi {
  private readonly members = new Map<string, Promise<number | undefined>>();

  async listOpen(label: string): Promise<OpenRequest[]> {
    // The label is set in the same call that opens the request: it alone finds them.
    const mrs = await this.allPages(
      `/merge_requests?state=opened&labels=${encodeURIComponent(label)}`,
      "GET /merge_requests",
      isNumbered("iid", "title", "source_branch"),
    );
    return (mrs as unknown as RawMergeRequest[]).map(toRequest);
  }

  /** A project member's id by username (undefined: not a member, so not a reviewer). */
  private memberId(username: string): Promise<number | undefined> {
    let found = this.members.get(username);
    if (!found) {
      found = (async () => {
        const { data } = await this.call(
          "GET",
          `/members/all?query=${encodeURIComponent(username)}&per_page=100`,
        );
        // Another shape is an error, never "not a member": a reviewer is not dropped unseen.
        const list = itemsOf(data, {
          what: "GET /members/all",
          setting: "CI_API_V4_URL",
          fits: isMember,
        });
        return list.find((x) => x.username === username)?.id;
      })();
      this.members.set(username, found);
    }
    return found;
  }

  private async commit(input: RequestInput): Promise<void> {
    await this.call("POST", "/repository/commits", {
      branch: input.branch,
      start_branch: input.base,
      commit_message: input.message,
      force: true,
      actions: input.files.map((f) =>
        f.content === null
          ? { action: "delete", file_path: f.path }
          : { action: "update", file_path: f.path, content: f.content },
      ),
    });
  }

  async open(input: RequestInput): Promise<OpenRequest> {
    // Reviewers first: a member list that cannot be read stops it before any write.
    const users = input.reviewers.filter((r) => !r.includes("/"));
    const ids: number[] = [];
    const unknown: string[] = [];
    for (const r of users) {
      const id = await this.memberId(r);
      if (id === undefined) unknown.push(r);
      else ids.push(id);
    }
    await this.commit(input);
    const { data } = await this.call("POST", "/merge_requests", {
      source_branch: input.branch,
      target_branch: input.base,
      title: input.title,
      description: input.body,
      labels: input.label,
      reviewer_ids: ids,
      remove_source_branch: true,
    });
    const opened = toRequest(data as RawMergeRequest);
    return unknown.length > 0
      ? { ...opened, notes: [`not members of the project, so not reviewers: ${unknown.join(", ")}`] } // prettier-ignore
      : opened;
  }

  async refresh(request: OpenRequest, input: RequestInput): Promise<OpenRequest> {
    await this.commit(input);
    const { data } = await this.call("PUT", `/merge_requests/${request.number}`, {
      title: input.title,
      description: input.body,
    });
    return toRequest(data as RawMergeRequest);
  }

  async withdraw(request: OpenRequest, why: string, body: string): Promise<void> {
    // The close first (a PUT, safe to send again): a note lost on the way is never posted
    // twice, as the closed request is not listed again.
    await this.call("PUT", `/merge_requests/${request.number}`, {
      state_event: "close",
      description: body,
    });
    await this.call("POST", `/merge_requests/${request.number}/notes`, { body: why });
  }

  async lastDeclined(branch: string): Promise<OpenRequest | undefined> {
    // GitLab keeps merged requests in a state of their own: "closed" is declined.
    const { data } = await this.call(
      "GET",
      `/merge_requests?state=closed&source_branch=${encodeURIComponent(branch)}&order_by=created_at&sort=desc&per_page=1`,
    );
    const [last] = itemsOf(data, {
      what: "GET /merge_requests",
      setting: "CI_API_V4_URL",
      fits: isNumbered("iid", "title", "source_branch"),
    }) as unknown as RawMergeRequest[];
    return last ? toRequest(last) : undefined;
  }
}
