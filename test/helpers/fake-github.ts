/**
 * A fake of the GitHub REST API parts phctl uses, on 127.0.0.1 (pass `url` as GITHUB_API_URL:
 * the API is served at the root, as api.github.com does).
 *
 *   GET   /repos/{owner}/{repo}/issues/{n}/comments   paged: per_page (default 30, max 100),
 *                                                      page; Link header rel="next"/"last"
 *   POST  /repos/{owner}/{repo}/issues/{n}/comments   {body} → 201; 422 over 65,536 chars
 *   PATCH /repos/{owner}/{repo}/issues/comments/{id}  {body} → 200; 404 unknown id
 *   GET   /repos/{owner}/{repo}/commits/{sha}/pulls   the pull requests set by setCommitPulls
 *   GET, POST /repos/{owner}/{repo}/issues, PATCH …/issues/{n}   see fake-issues.ts
 *   git refs, commits and trees; GET, POST, PATCH pulls; a pull request's labels and
 *   requested_reviewers (`report access --propose`)                  see fake-pulls.ts
 *
 * Auth: `Authorization: token X` or `Bearer X`. A token not listed → 401 "Bad credentials";
 * a read token on a write → 403 "Resource not accessible by integration". Defaults:
 * GITHUB_TOKENS.write / GITHUB_TOKENS.read. Anything else → 404 "Not Found".
 *
 * Test controls: `seed(repo, pr, bodies)` adds comments (oldest first) by another user,
 * `comments(repo, pr)` reads them (an issue's too), `issues` (seed, list, labels: see
 * fake-issues.ts), `git` (seedBranch, files, branches, pulls, setCollaborators: see
 * fake-pulls.ts), `setCommitPulls(repo, sha, prs, {merged})`,
 * `failNext(method, pathRegex, status, body?, {headers, landed})` (see fake-platform.ts:
 * status 0 drops the connection; `landed` applies the write before failing), `requests`
 * (method, path with query, status of every call), `url`, `close()`. `repo` is "owner/name".
 */
import { githubIssues, type FakeIssues } from "./fake-issues.js";
import { githubPulls, type FakeGitHubPulls } from "./fake-pulls.js";
import { pageOf, startFakeServer, type FakeReply, type FakeServer } from "./fake-platform.js";

export const GITHUB_TOKENS = { write: "ghs_fakeWriteToken1234", read: "ghs_fakeReadToken5678" };
export const GITHUB_LIMIT = 65_536;

export interface FakeGitHubComment {
  id: number;
  body: string;
  user: { login: string };
  created_at: string;
  updated_at: string;
  html_url: string;
}

export interface FakeGitHub extends FakeServer {
  seed(repo: string, pr: number, bodies: readonly string[]): void;
  comments(repo: string, pr: number): FakeGitHubComment[];
  issues: Omit<FakeIssues, "route">;
  git: Omit<FakeGitHubPulls, "route">;
  setCommitPulls(
    repo: string,
    sha: string,
    prNumbers: readonly number[],
    opts?: { merged?: boolean },
  ): void;
}

interface Pull {
  number: number;
  state: string;
  merged_at: string | null;
  base: { sha: string };
  head: { sha: string };
}

export async function startFakeGitHub(
  opts: { tokens?: { write?: string[]; read?: string[] } } = {},
): Promise<FakeGitHub> {
  const write = new Set(opts.tokens?.write ?? [GITHUB_TOKENS.write]);
  const read = new Set(opts.tokens?.read ?? [GITHUB_TOKENS.read]);
  const threads = new Map<string, FakeGitHubComment[]>();
  const pulls = new Map<string, Pull[]>();
  let nextId = 1000;
  const web = "https://github.example";

  const thread = (repo: string, pr: number) => {
    const k = `${repo}#${pr}`;
    if (!threads.has(k)) threads.set(k, []);
    return threads.get(k)!;
  };
  const add = (repo: string, pr: number, body: string, login: string) => {
    const id = nextId++;
    const at = new Date(Date.UTC(2026, 0, 1) + id * 1000).toISOString();
    const c = {
      id,
      body,
      user: { login },
      created_at: at,
      updated_at: at,
      html_url: `${web}/${repo}/${issues.has(repo, pr) ? "issues" : "pull"}/${pr}#issuecomment-${id}`,
    };
    thread(repo, pr).push(c);
    return c;
  };
  const error = (status: number, message: unknown, extra: object = {}): FakeReply => ({
    status,
    body: { message, documentation_url: "https://docs.github.com/rest", ...extra },
  });
  const issues = githubIssues({ web, limit: GITHUB_LIMIT, error });
  const git = githubPulls({ web, error });

  const server = await startFakeServer((req, url) => {
    const auth = /^(?:token|bearer)\s+(\S+)$/i.exec(String(req.headers.authorization ?? ""))?.[1];
    if (!auth || (!write.has(auth) && !read.has(auth))) return error(401, "Bad credentials");
    if (req.method !== "GET" && !write.has(auth))
      return error(403, "Resource not accessible by integration");
    let m = /^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/.exec(req.path);
    if (m && req.method === "GET") {
      const all = thread(m[1], Number(m[2]));
      const p = pageOf(all, req.query, 30);
      const link = (n: number, rel: string) =>
        `<${url}${req.path}?per_page=${p.perPage}&page=${n}>; rel="${rel}"`;
      const links = [
        ...(p.page < p.pages ? [link(p.page + 1, "next"), link(p.pages, "last")] : []),
        ...(p.page > 1 ? [link(1, "first"), link(p.page - 1, "prev")] : []),
      ];
      return {
        status: 200,
        body: p.items,
        ...(links.length ? { headers: { link: links.join(", ") } } : {}),
      };
    }
    if (m && req.method === "POST") {
      const body = req.body?.body;
      if (typeof body !== "string") return error(422, "Invalid request.");
      if (body.length > GITHUB_LIMIT)
        return error(422, "Validation Failed", {
          errors: [{ resource: "IssueComment", code: "custom", field: "body", message: "body is too long (maximum is 65536 characters)" }], // prettier-ignore
        });
      return { status: 201, body: add(m[1], Number(m[2]), body, "github-actions[bot]") };
    }
    m = /^\/repos\/([^/]+\/[^/]+)\/issues\/comments\/(\d+)$/.exec(req.path);
    if (m && req.method === "PATCH") {
      const [repo, id] = [m[1], Number(m[2])];
      const c = [...threads.entries()]
        .filter(([k]) => k.startsWith(`${repo}#`))
        .flatMap(([, list]) => list)
        .find((x) => x.id === id);
      if (!c) return error(404, "Not Found");
      const body = req.body?.body;
      if (typeof body !== "string" || body.length > GITHUB_LIMIT)
        return error(422, "Validation Failed");
      c.body = body;
      c.updated_at = new Date().toISOString();
      return { status: 200, body: c };
    }
    const issue = issues.route(req, url) ?? git.route(req, url);
    if (issue) return issue;
    m = /^\/repos\/([^/]+\/[^/]+)\/commits\/([^/]+)\/pulls$/.exec(req.path);
    if (m && req.method === "GET") return { status: 200, body: pulls.get(`${m[1]}@${m[2]}`) ?? [] };
    return error(404, "Not Found");
  });

  return {
    ...server,
    seed(repo, pr, bodies) {
      for (const b of bodies) add(repo, pr, b, "octocat");
    },
    comments: (repo, pr) => thread(repo, pr).map((c) => ({ ...c })),
    issues,
    git,
    setCommitPulls(repo, sha, prNumbers, o = {}) {
      const merged = o.merged ?? true;
      pulls.set(
        `${repo}@${sha}`,
        prNumbers.map((number) => ({
          number,
          state: merged ? "closed" : "open",
          merged_at: merged ? "2026-01-02T00:00:00Z" : null,
          base: { sha: "b".repeat(40) },
          head: { sha: "c".repeat(40) },
        })),
      );
    },
  };
}
