/**
 * GitLab's notes API (merge-request and issue comments) and the merge requests of a commit,
 * on undici's `request`. Why not gitbeaker: phctl needs three endpoints (list notes on every
 * page, create, update) and one lookup; a thin client adds no dependency tree, and keeps
 * the error mapping, retries (retry.ts) and token redaction the same as the rest of phctl.
 * `apiUrl` is CI_API_V4_URL (gitlab.com, self-managed GitLab, the tests' fake); the token
 * goes in the PRIVATE-TOKEN header and never into a message. The issues API (the drift
 * tracking issue) extends this client in gitlab-issues.ts.
 */
import { Agent, request } from "undici";
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

export interface GitLabOptions {
  apiUrl: string;
  /** CI_PROJECT_ID: a numeric id or a "group/project" path. */
  projectId: string;
  token: string;
  /** CI_PROJECT_URL, to link to a note. */
  projectUrl?: string;
  policy?: RetryPolicy;
}

interface Note {
  id: number;
  body: string;
  system?: boolean;
  created_at?: string;
}

/** An HTTP answer that is not a success, thrown inside an attempt. */
class Answer extends Error {
  constructor(
    readonly status: number,
    readonly headers: Record<string, unknown>,
    readonly data: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

/** GitLab's `message` (a string, or field → messages), or OAuth's `error_description`. */
function messageOf(data: unknown): string {
  const d = data as { message?: unknown; error?: unknown; error_description?: unknown };
  if (typeof d?.message === "string") return d.message;
  if (d?.message && typeof d.message === "object")
    return Object.entries(d.message as Record<string, unknown>)
      .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(", ") : String(v)}`)
      .join("; ");
  if (typeof d?.error_description === "string") return d.error_description;
  if (typeof d?.error === "string") return d.error;
  return typeof data === "string" && data ? data.slice(0, 300) : "(no message)";
}

function describeGitLabFailure(e: unknown): Failure {
  if (!(e instanceof Answer)) return wireFailure(e);
  const wait = e.status === 429 ? (waitFromHeaders(e.headers) ?? 60_000) : undefined;
  return {
    status: e.status,
    message: messageOf(e.data),
    ...(wait !== undefined ? { retryAfterMs: wait } : {}),
  };
}

export class GitLabClient implements PlatformClient {
  readonly platform = "GitLab";
  private readonly agent: Agent;
  private readonly base: string;
  private readonly policy: RetryPolicy;

  constructor(protected readonly opts: GitLabOptions) {
    this.policy = opts.policy ?? DEFAULT_POLICY;
    this.agent = new Agent({
      headersTimeout: this.policy.timeoutMs,
      bodyTimeout: this.policy.timeoutMs,
      connect: { timeout: this.policy.timeoutMs },
    });
    this.base = `${opts.apiUrl.replace(/\/+$/, "")}/projects/${encodeURIComponent(opts.projectId)}`;
  }

  describe(thread: Thread): string {
    return thread.type === "pull" ? `merge request !${thread.number}` : `issue #${thread.number}`;
  }

  protected async call(
    method: "GET" | "POST" | "PUT",
    path: string,
    body?: unknown,
  ): Promise<{ data: unknown; headers: Record<string, unknown> }> {
    return retrying(
      method,
      async () => {
        const res = await request(`${this.base}${path}`, {
          method,
          dispatcher: this.agent,
          headers: {
            "private-token": this.opts.token,
            accept: "application/json",
            ...(body !== undefined ? { "content-type": "application/json" } : {}),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
        const text = await res.body.text();
        let data: unknown = text;
        try {
          data = text ? JSON.parse(text) : undefined;
        } catch {
          // not JSON: keep the text for the message
        }
        if (res.statusCode >= 400) throw new Answer(res.statusCode, res.headers, data);
        return { data, headers: res.headers };
      },
      describeGitLabFailure,
      this.policy,
    );
  }

  /** Every page of a list answer (X-Next-Page), each item checked (shape.ts). */
  protected async allPages<T>(
    path: string,
    what: string,
    fits: (x: unknown) => x is T,
  ): Promise<T[]> {
    const out: T[] = [];
    const joint = path.includes("?") ? "&" : "?";
    let page = "1";
    // X-Next-Page is empty on the last page; the bound guards against a server that loops.
    for (let i = 0; page && i < 10_000; i++) {
      const { data, headers } = await this.call("GET", `${path}${joint}per_page=100&page=${page}`);
      out.push(...itemsOf(data, { what, setting: "CI_API_V4_URL", fits }));
      const next = headers["x-next-page"];
      page = typeof next === "string" ? next.trim() : "";
    }
    return out;
  }

  private notesPath(thread: Thread): string {
    return `/${thread.type === "pull" ? "merge_requests" : "issues"}/${thread.number}/notes`;
  }

  private toComment(thread: Thread, n: Note): Comment {
    const page = thread.type === "pull" ? "merge_requests" : "issues";
    return {
      id: n.id,
      body: n.body ?? "",
      ...(n.created_at ? { createdAt: n.created_at } : {}),
      ...(this.opts.projectUrl
        ? { url: `${this.opts.projectUrl}/-/${page}/${thread.number}#note_${n.id}` }
        : {}),
    };
  }

  async list(thread: Thread): Promise<Comment[]> {
    const notes = (await this.allPages(
      `${this.notesPath(thread)}?sort=asc&order_by=created_at`,
      `GET ${this.notesPath(thread)}`,
      isComment,
    )) as Note[];
    return notes.filter((n) => !n.system).map((n) => this.toComment(thread, n));
  }

  async create(thread: Thread, body: string): Promise<Comment> {
    const { data } = await this.call("POST", this.notesPath(thread), { body });
    return this.toComment(thread, data as Note);
  }

  async update(thread: Thread, id: number, body: string): Promise<Comment> {
    const { data } = await this.call("PUT", `${this.notesPath(thread)}/${id}`, { body });
    return this.toComment(thread, data as Note);
  }

  /** The merge requests `sha` belongs to (merged ones first). */
  async pullsOfCommit(sha: string): Promise<CommitPull[]> {
    const { data } = await this.call(
      "GET",
      `/repository/commits/${encodeURIComponent(sha)}/merge_requests`,
    );
    const found = itemsOf(data, {
      what: "GET /repository/commits/:sha/merge_requests",
      setting: "CI_API_V4_URL",
      fits: isNumbered("iid"),
    }) as unknown as { iid: number; state: string; sha?: string }[];
    const mrs = found.map((m) => ({
      number: m.iid,
      merged: m.state === "merged",
      ...(m.sha ? { headSha: m.sha } : {}),
    }));
    return [...mrs.filter((m) => m.merged), ...mrs.filter((m) => !m.merged)];
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
