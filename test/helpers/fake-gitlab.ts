/**
 * A fake of the GitLab REST API (v4) notes endpoints phctl uses, on 127.0.0.1. The API is
 * served under `/api/v4`: pass `apiUrl` as CI_API_V4_URL. `:id` is a project id or its
 * URL-encoded path; `:type` is merge_requests or issues.
 *
 *   GET  /projects/:id/:type/:iid/notes           paged: per_page (default 20, max 100), page,
 *                                                  sort (asc|desc, default desc by created_at);
 *                                                  X-Page, X-Next-Page (empty on the last),
 *                                                  X-Total, X-Total-Pages
 *   POST /projects/:id/:type/:iid/notes           {body} → 201; 400 over 1,000,000 chars
 *   PUT  /projects/:id/:type/:iid/notes/:note_id  {body} → 200; 404 unknown note
 *   GET  /projects/:id/repository/commits/:sha/merge_requests   set by setCommitMergeRequests
 *   GET, POST /projects/:id/issues, PUT …/issues/:iid          see fake-issues.ts
 *   POST /projects/:id/repository/commits; GET, POST, PUT merge_requests; GET members/all
 *   (`report access --propose`)                                see fake-pulls.ts
 *
 * Auth: the PRIVATE-TOKEN header. A token not listed → 401 "401 Unauthorized"; a read token
 * on a write → 403 "403 Forbidden". Defaults: GITLAB_TOKENS.write / GITLAB_TOKENS.read.
 *
 * Test controls: `seed(project, iid, bodies)` (merge-request notes, oldest first, by
 * another user), `notes(project, iid)`, `issueNotes(project, iid)`, `issues` (seed, list,
 * labels: see fake-issues.ts), `git` (seedBranch, files, branches, pulls, setMembers: see
 * fake-pulls.ts), `setCommitMergeRequests(project, sha, iids,
 * {merged})`, `failNext`, `requests`, `url`, `apiUrl`, `close()` — as in fake-github.ts.
 */
import { gitlabIssues, type FakeIssues } from "./fake-issues.js";
import { gitlabPulls, type FakeGitLabPulls } from "./fake-pulls.js";
import { pageOf, startFakeServer, type FakeReply, type FakeServer } from "./fake-platform.js";

export const GITLAB_TOKENS = { write: "glpat-fakeWriteToken12", read: "glpat-fakeReadToken345" };
export const GITLAB_LIMIT = 1_000_000;

export interface FakeGitLabNote {
  id: number;
  body: string;
  author: { username: string };
  system: boolean;
  created_at: string;
  updated_at: string;
}

export interface FakeGitLab extends FakeServer {
  apiUrl: string;
  seed(project: string, iid: number, bodies: readonly string[]): void;
  notes(project: string, iid: number): FakeGitLabNote[];
  issueNotes(project: string, iid: number): FakeGitLabNote[];
  issues: Omit<FakeIssues, "route">;
  git: Omit<FakeGitLabPulls, "route">;
  setCommitMergeRequests(
    project: string,
    sha: string,
    iids: readonly number[],
    opts?: { merged?: boolean },
  ): void;
}

export async function startFakeGitLab(
  opts: { tokens?: { write?: string[]; read?: string[] } } = {},
): Promise<FakeGitLab> {
  const write = new Set(opts.tokens?.write ?? [GITLAB_TOKENS.write]);
  const read = new Set(opts.tokens?.read ?? [GITLAB_TOKENS.read]);
  const threads = new Map<string, FakeGitLabNote[]>();
  const mrs = new Map<string, object[]>();
  let nextId = 500;

  const thread = (project: string, type: string, iid: number) => {
    const k = `${project}/${type}/${iid}`;
    if (!threads.has(k)) threads.set(k, []);
    return threads.get(k)!;
  };
  const add = (list: FakeGitLabNote[], body: string, username: string) => {
    const id = nextId++;
    const at = new Date(Date.UTC(2026, 0, 1) + id * 1000).toISOString();
    const n = { id, body, author: { username }, system: false, created_at: at, updated_at: at };
    list.push(n);
    return n;
  };
  const error = (status: number, message: unknown): FakeReply => ({ status, body: { message } });
  const tooLong = (body: unknown) =>
    typeof body !== "string"
      ? error(400, "400 Bad request - body is missing")
      : body.length > GITLAB_LIMIT
        ? error(400, { note: ["is too long (maximum is 1000000 characters)"] })
        : undefined;
  const pageHeaders = (p: { page: number; perPage: number; pages: number }, total: number) => ({
    "x-page": String(p.page),
    "x-per-page": String(p.perPage),
    "x-next-page": p.page < p.pages ? String(p.page + 1) : "",
    "x-prev-page": p.page > 1 ? String(p.page - 1) : "",
    "x-total": String(total),
    "x-total-pages": String(p.pages),
  });
  const issues = gitlabIssues({ web: "https://gitlab.example", error, tooLong, pageHeaders });
  const git = gitlabPulls({ web: "https://gitlab.example", error, pageHeaders });

  const server = await startFakeServer((req) => {
    const token = req.headers["private-token"];
    if (typeof token !== "string" || (!write.has(token) && !read.has(token)))
      return error(401, "401 Unauthorized");
    if (req.method !== "GET" && !write.has(token)) return error(403, "403 Forbidden");
    const m =
      /^\/api\/v4\/projects\/([^/]+)\/(merge_requests|issues)\/(\d+)\/notes(?:\/(\d+))?$/.exec(
        req.path,
      );
    if (m) {
      const list = thread(decodeURIComponent(m[1]), m[2], Number(m[3]));
      if (req.method === "GET" && !m[4]) {
        const asc = req.query.get("sort") === "asc";
        const sorted = [...list].sort((a, b) => (asc ? a.id - b.id : b.id - a.id));
        const p = pageOf(sorted, req.query, 20);
        return {
          status: 200,
          body: p.items,
          headers: pageHeaders(p, list.length),
        };
      }
      if (req.method === "POST" && !m[4])
        return tooLong(req.body?.body) ?? { status: 201, body: add(list, req.body.body, "phctl-bot") }; // prettier-ignore
      if (req.method === "PUT" && m[4]) {
        const n = list.find((x) => x.id === Number(m[4]));
        if (!n) return error(404, "404 Not found");
        const bad = tooLong(req.body?.body);
        if (bad) return bad;
        n.body = req.body.body;
        n.updated_at = new Date().toISOString();
        return { status: 200, body: n };
      }
    }
    const issue = issues.route(req, "") ?? git.route(req);
    if (issue) return issue;
    const c = /^\/api\/v4\/projects\/([^/]+)\/repository\/commits\/([^/]+)\/merge_requests$/.exec(
      req.path,
    );
    if (c && req.method === "GET")
      return { status: 200, body: mrs.get(`${decodeURIComponent(c[1])}@${c[2]}`) ?? [] };
    return error(404, "404 Not Found");
  });

  return {
    ...server,
    apiUrl: `${server.url}/api/v4`,
    seed(project, iid, bodies) {
      const list = thread(project, "merge_requests", iid);
      for (const b of bodies) add(list, b, "someone");
    },
    notes: (project, iid) => thread(project, "merge_requests", iid).map((n) => ({ ...n })),
    issueNotes: (project, iid) => thread(project, "issues", iid).map((n) => ({ ...n })),
    issues,
    git,
    setCommitMergeRequests(project, sha, iids, o = {}) {
      const merged = o.merged ?? true;
      mrs.set(
        `${project}@${sha}`,
        iids.map((iid) => ({ iid, state: merged ? "merged" : "opened", sha: "c".repeat(40) })),
      );
    },
  };
}
