/**
 * GitHub through Octokit (@octokit/core + plugin-paginate-rest): the comments of a pull
 * request or issue (the issues API serves both) on every page, create, update; and the pull
 * requests a commit belongs to (the apply job after a merge). `apiUrl` is GITHUB_API_URL, so
 * GitHub Enterprise Server and the tests' fake work as api.github.com does. The issues API
 * (the drift tracking issue) extends this client in github-issues.ts.
 *
 * Retries live in one request hook (retry.ts's policy, a timeout per attempt); every failure
 * leaves as a CiHttpError carrying GitHub's own message. Octokit never logs here.
 */
import { Octokit } from "@octokit/core";
import { paginateRest } from "@octokit/plugin-paginate-rest";
import { VERSION } from "../version.js";
import type { Comment, CommitPull, PlatformClient, Thread } from "./sticky.js";
import { isComment, isNumbered, itemsOf } from "./shape.js";
import {
  DEFAULT_POLICY,
  retrying,
  waitFromHeaders,
  wireFailure,
  type Failure,
  type RetryPolicy,
} from "./retry.js";

const Client = Octokit.plugin(paginateRest);

export interface GitHubOptions {
  apiUrl: string;
  /** "owner/name". */
  repository: string;
  token: string;
  policy?: RetryPolicy;
}

interface ErrorLike {
  name?: string;
  status?: number;
  response?: { status: number; headers: Record<string, unknown>; data: unknown };
  cause?: unknown;
}

/** GitHub's message, with the validation errors it lists ("Validation Failed: body is too long"). */
function messageOf(data: unknown): string {
  if (typeof data === "string") return data.slice(0, 300) || "(no message)";
  const d = data as { message?: unknown; errors?: { message?: string; code?: string }[] };
  const base = typeof d?.message === "string" ? d.message : "(no message)";
  const errors = Array.isArray(d?.errors)
    ? d.errors.map((x) => x.message ?? x.code).filter(Boolean)
    : [];
  return errors.length > 0 ? `${base}: ${errors.join("; ")}` : base;
}

export function describeGitHubFailure(e: unknown): Failure {
  const err = e as ErrorLike;
  if (!err?.response) {
    const cause = err?.cause ?? e;
    if ((cause as ErrorLike)?.name === "TimeoutError" || err?.name === "TimeoutError")
      return { message: "no answer (timed out)" };
    return wireFailure(cause);
  }
  const { status, headers, data } = err.response;
  const message = messageOf(data);
  const wait = waitFromHeaders(headers);
  const limited =
    status === 429 ||
    (status === 403 &&
      (wait !== undefined || /secondary rate limit|rate limit exceeded/i.test(message)));
  return {
    status,
    message,
    ...(limited ? { retryAfterMs: wait ?? 60_000 } : {}),
  };
}

export class GitHubClient implements PlatformClient {
  readonly platform = "GitHub";
  protected readonly octokit: InstanceType<typeof Client>;
  private readonly owner: string;
  private readonly repo: string;

  constructor(opts: GitHubOptions) {
    const [owner, repo] = opts.repository.split("/");
    this.owner = owner;
    this.repo = repo;
    const policy = opts.policy ?? DEFAULT_POLICY;
    const quiet = () => undefined;
    this.octokit = new Client({
      auth: opts.token,
      baseUrl: opts.apiUrl.replace(/\/+$/, ""),
      userAgent: `phctl/${VERSION}`,
      log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
    });
    this.octokit.hook.wrap("request", (request, options) =>
      retrying(
        options.method,
        async () =>
          request({
            ...options,
            request: { ...options.request, signal: AbortSignal.timeout(policy.timeoutMs) },
          }),
        describeGitHubFailure,
        policy,
      ),
    );
  }

  describe(thread: Thread): string {
    return `${thread.type === "pull" ? "pull request" : "issue"} #${thread.number}`;
  }

  protected get where() {
    return {
      owner: this.owner,
      repo: this.repo,
      headers: { "x-github-api-version": "2022-11-28" },
    };
  }

  async list(thread: Thread): Promise<Comment[]> {
    const answer: unknown = await this.octokit.paginate(
      "GET /repos/{owner}/{repo}/issues/{issue_number}/comments",
      { ...this.where, issue_number: thread.number, per_page: 100 },
    );
    const all = itemsOf(answer, {
      what: "GET /repos/{owner}/{repo}/issues/{issue_number}/comments",
      setting: "GITHUB_API_URL",
      fits: isComment,
    }) as { id: number; body: string | null; created_at: string; html_url: string }[];
    return all.map((c) => ({
      id: Number(c.id),
      body: c.body ?? "",
      createdAt: c.created_at,
      url: c.html_url,
    }));
  }

  async create(thread: Thread, body: string): Promise<Comment> {
    const { data } = await this.octokit.request(
      "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
      { ...this.where, issue_number: thread.number, body },
    );
    return {
      id: Number(data.id),
      body: data.body ?? "",
      createdAt: data.created_at,
      url: data.html_url,
    };
  }

  async update(_thread: Thread, id: number, body: string): Promise<Comment> {
    const { data } = await this.octokit.request(
      "PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}",
      { ...this.where, comment_id: id, body },
    );
    return {
      id: Number(data.id),
      body: data.body ?? "",
      createdAt: data.created_at,
      url: data.html_url,
    };
  }

  /** The pull requests `sha` belongs to (merged ones first). */
  async pullsOfCommit(sha: string): Promise<CommitPull[]> {
    const { data } = await this.octokit.request(
      "GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls",
      { ...this.where, commit_sha: sha, per_page: 100 },
    );
    const checked = itemsOf(data, {
      what: "GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls",
      setting: "GITHUB_API_URL",
      fits: isNumbered("number"),
    }) as unknown as typeof data;
    const pulls = checked.map((p) => ({
      number: p.number,
      merged: p.merged_at !== null && p.merged_at !== undefined,
      headSha: p.head.sha,
      baseSha: p.base.sha,
    }));
    return [...pulls.filter((p) => p.merged), ...pulls.filter((p) => !p.merged)];
  }

  /** Octokit keeps no connection of its own (global fetch). */
  async close(): Promise<void> {}
}
