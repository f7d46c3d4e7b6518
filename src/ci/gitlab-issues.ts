/**
 * GitLab's issues API on the thin client of gitlab.ts (same retries, errors, CI_API_V4_URL):
 * `GET /projects/:id/issues?labels=L` (no `state`: open and closed) on every page, create
 * with the label (GitLab creates a project label that does not exist yet), `PUT` title,
 * description and `state_event` (close / reopen), and notes on the issue.
 */
import type { Comment } from "./sticky.js";
import { GitLabClient } from "./gitlab.js";
import type { Issue, IssueApi, IssueEdit } from "./issues.js";
import { isNumbered } from "./shape.js";

interface RawIssue {
  iid: number;
  title: string;
  description?: string | null;
  state: string;
  labels?: string[];
  web_url?: string;
  created_at?: string;
}

function toIssue(i: RawIssue): Issue {
  return {
    number: i.iid,
    title: i.title,
    body: i.description ?? "",
    state: i.state === "closed" ? "closed" : "open",
    labels: i.labels ?? [],
    ...(i.web_url ? { url: i.web_url } : {}),
    ...(i.created_at ? { createdAt: i.created_at } : {}),
  };
}

export class GitLabIssueClient extends GitLabClient implements IssueApi {
  async listIssues(label: string): Promise<Issue[]> {
    const issues = await this.allPages(
      `/issues?labels=${encodeURIComponent(label)}&order_by=created_at&sort=asc`,
      "GET /issues",
      isNumbered("iid", "title"),
    );
    return (issues as unknown as RawIssue[]).map(toIssue);
  }

  async createIssue(input: { title: string; body: string; label: string }): Promise<Issue> {
    const { data } = await this.call("POST", "/issues", {
      title: input.title,
      description: input.body,
      labels: input.label,
    });
    return toIssue(data as RawIssue);
  }

  async editIssue(number: number, edit: IssueEdit): Promise<Issue> {
    const { data } = await this.call("PUT", `/issues/${number}`, {
      ...(edit.title !== undefined ? { title: edit.title } : {}),
      ...(edit.body !== undefined ? { description: edit.body } : {}),
      ...(edit.state !== undefined
        ? { state_event: edit.state === "open" ? "reopen" : "close" }
        : {}),
    });
    return toIssue(data as RawIssue);
  }

  commentIssue(number: number, body: string): Promise<Comment> {
    return this.create({ type: "issue", number }, body);
  }
}
