/**
 * GitHub's issues API on the Octokit client of github.ts (same retries, errors, GITHUB_API_URL):
 * `GET /repos/{owner}/{repo}/issues?labels=L&state=all` on every page (pull requests, which
 * that endpoint also returns, left out), create with the label, `PATCH` title, body and state,
 * and comments through the issue-comments endpoint the sticky comment uses. GitHub creates a
 * label that does not exist yet when an issue is created with it (and silently drops labels a
 * token may not set: the caller checks the answer).
 */
import type { Comment } from "./sticky.js";
import { GitHubClient } from "./github.js";
import type { Issue, IssueApi, IssueEdit } from "./issues.js";
import { isNumbered, itemsOf } from "./shape.js";

interface RawIssue {
  number: number;
  title: string;
  body?: string | null;
  state: string;
  labels: (string | { name?: string })[];
  html_url?: string;
  created_at?: string;
  pull_request?: unknown;
}

function toIssue(i: RawIssue): Issue {
  return {
    number: i.number,
    title: i.title,
    body: i.body ?? "",
    state: i.state === "closed" ? "closed" : "open",
    labels: i.labels.map((l) => (typeof l === "string" ? l : (l.name ?? ""))).filter(Boolean),
    ...(i.html_url ? { url: i.html_url } : {}),
    ...(i.created_at ? { createdAt: i.created_at } : {}),
  };
}

export class GitHubIssueClient extends GitHubClient implements IssueApi {
  async listIssues(label: string): Promise<Issue[]> {
    const answer: unknown = await this.octokit.paginate("GET /repos/{owner}/{repo}/issues", {
      ...this.where,
      labels: label,
      state: "all",
      per_page: 100,
    });
    const all = itemsOf(answer, {
      what: "GET /repos/{owner}/{repo}/issues",
      setting: "GITHUB_API_URL",
      fits: isNumbered("number", "title"),
    }) as unknown as RawIssue[];
    return all.filter((i) => !i.pull_request).map(toIssue);
  }

  async createIssue(input: { title: string; body: string; label: string }): Promise<Issue> {
    const { data } = await this.octokit.request("POST /repos/{owner}/{repo}/issues", {
      ...this.where,
      title: input.title,
      body: input.body,
      labels: [input.label],
    });
    return toIssue(data);
  }

  async editIssue(number: number, edit: IssueEdit): Promise<Issue> {
    const reason =
      edit.state === "open"
        ? "reopened"
        : edit.state === "closed"
          ? (edit.reason ?? "completed")
          : undefined;
    const { data } = await this.octokit.request(
      "PATCH /repos/{owner}/{repo}/issues/{issue_number}",
      {
        ...this.where,
        issue_number: number,
        ...(edit.title !== undefined ? { title: edit.title } : {}),
        ...(edit.body !== undefined ? { body: edit.body } : {}),
        ...(edit.state !== undefined ? { state: edit.state } : {}),
        ...(reason !== undefined ? { state_reason: reason } : {}),
      },
    );
    return toIssue(data);
  }

  commentIssue(number: number, body: string): Promise<Comment> {
    return this.create({ type: "issue", number }, body);
  }
}
