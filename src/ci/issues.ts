/**
 * The issue calls both platforms share, for the drift tracking issue (`phctl drift --report`):
 * list the issues carrying a label (open and closed, every page), create one with the label,
 * edit its title, body and state, and comment on it. GitHub (github-issues.ts) and GitLab
 * (gitlab-issues.ts) implement them on the same clients, retries and errors as the sticky
 * comment. Finding "our" issue (the marker in its body) is the caller's business.
 */
import type { CiContext } from "./platform.js";
import type { Comment, PlatformClient } from "./sticky.js";
import { GitHubIssueClient } from "./github-issues.js";
import { GitLabIssueClient } from "./gitlab-issues.js";

/** An issue as both platforms have it. */
export interface Issue {
  /** GitHub's number, GitLab's iid: what people see after `#`. */
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
  labels: string[];
  /** Where people see it. */
  url?: string;
  createdAt?: string;
}

/** A change to an issue; what is left out stays as it is. */
export interface IssueEdit {
  title?: string;
  body?: string;
  state?: "open" | "closed";
  /** Why it is closed (GitHub's state_reason): done, or not to be done (a duplicate). */
  reason?: "completed" | "not_planned";
}

export interface IssueApi {
  /** "GitHub" / "GitLab", for messages. */
  readonly platform: string;
  /** Every issue carrying `label`, open and closed, on every page; pull requests left out. */
  listIssues(label: string): Promise<Issue[]>;
  /** A new open issue with the label (both platforms create a label that does not exist). */
  createIssue(input: { title: string; body: string; label: string }): Promise<Issue>;
  editIssue(number: number, edit: IssueEdit): Promise<Issue>;
  commentIssue(number: number, body: string): Promise<Comment>;
}

/** An issue client with its connection: the comment client of sticky.ts, and issues. */
export interface IssueClient extends IssueApi, PlatformClient {}

export function openIssueClient(ctx: CiContext, token: string): IssueClient {
  return ctx.platform === "github"
    ? new GitHubIssueClient({ apiUrl: ctx.apiUrl, repository: ctx.project, token })
    : new GitLabIssueClient({
        apiUrl: ctx.apiUrl,
        projectId: ctx.project,
        token,
        ...(ctx.projectUrl ? { projectUrl: ctx.projectUrl } : {}),
      });
}
