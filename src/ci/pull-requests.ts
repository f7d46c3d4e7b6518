/**
 * Pull requests (GitHub) and merge requests (GitLab) that phctl opens itself: one branch with
 * one commit of whole-file edits on top of the base branch, and a request from it, with
 * reviewers and a label — what `report access --propose` turns findings into. Both platforms
 * on the same clients, retries and errors as the sticky comment and the tracking issue.
 *
 * Safe to run again: the open requests carrying the label (or, on GitHub, whose branch is
 * one of phctl's) are listed first, and a request whose branch is already open is updated in
 * place (new commit on the same branch, new body) only when its content changed — never a
 * second request for the same branch. The branches are phctl's own: one left behind by a
 * closed request is reset to the base plus the new commit. A request that proposes what no
 * longer stands is withdrawn: closed, and a comment says why. A request people closed
 * without merging is a decision: the same proposal is not opened again (`lastDeclined`).
 */
import type { CiContext } from "./platform.js";
import { GitHubPullClient } from "./github-pulls.js";
import { GitLabPullClient } from "./gitlab-pulls.js";

/** A file of the commit: its path in the repository and its new text (null: delete it). */
export interface CommitFile {
  path: string;
  content: string | null;
}

/** An open request as both platforms have it. */
export interface OpenRequest {
  /** GitHub's number, GitLab's iid. */
  number: number;
  branch: string;
  title: string;
  body: string;
  url?: string;
  /** What the platform refused without failing the request (a reviewer it does not know). */
  notes?: string[];
}

export interface RequestInput {
  branch: string;
  base: string;
  title: string;
  body: string;
  files: readonly CommitFile[];
  message: string;
  label: string;
  /** Platform user names; teams as `org/team` (GitHub) — GitLab takes users only. */
  reviewers: readonly string[];
}

export interface PullRequestApi {
  /** "GitHub" / "GitLab", for messages. */
  readonly platform: string;
  /** The open requests carrying `label` or from a branch under `prefix`, every page. */
  listOpen(label: string, prefix: string): Promise<OpenRequest[]>;
  /** Commit `files` on a new branch from `base` and open a request from it. */
  open(input: RequestInput): Promise<OpenRequest>;
  /** Replace the branch's commit with one of `files` on `base`, and the request's body. */
  refresh(request: OpenRequest, input: RequestInput): Promise<OpenRequest>;
  /**
   * Close the request with `body` as its new body, then say why in a comment (the branch
   * stays: the next open resets it).
   */
  withdraw(request: OpenRequest, why: string, body: string): Promise<void>;
  /** The newest request from `branch` closed without being merged (declined), if any. */
  lastDeclined(branch: string): Promise<OpenRequest | undefined>;
  close(): Promise<void>;
}

export function openPullClient(ctx: CiContext, token: string): PullRequestApi {
  return ctx.platform === "github"
    ? new GitHubPullClient({ apiUrl: ctx.apiUrl, repository: ctx.project, token })
    : new GitLabPullClient({
        apiUrl: ctx.apiUrl,
        projectId: ctx.project,
        token,
        ...(ctx.projectUrl ? { projectUrl: ctx.projectUrl } : {}),
      });
}
