/**
 * The issues endpoints of the GitHub and GitLab fakes (fake-github.ts, fake-gitlab.ts): one
 * store of issues per project (numbered from 101: pull requests in the tests use lower
 * numbers), answered in each platform's shape. Both platforms create a label that does not
 * exist when an issue is created with it; `labels(project)` lists those created so far.
 *
 *   GitHub  GET   /repos/{owner}/{repo}/issues     labels (comma-separated, all must match),
 *                                                  state (open by default, closed, all);
 *                                                  paged (per_page default 30, max 100) with
 *                                                  Link headers that keep the query
 *           POST  /repos/{owner}/{repo}/issues     {title, body, labels} → 201; 422 without a
 *                                                  title or over the size limit
 *           PATCH /repos/{owner}/{repo}/issues/{n} {title, body, state, state_reason} → 200
 *   GitLab  GET   /projects/:id/issues             labels, state (opened | closed; absent:
 *                                                  both), sort; paged (per_page default 20)
 *                                                  with X-Next-Page and the other headers
 *           POST  /projects/:id/issues             {title, description, labels} → 201
 *           PUT   /projects/:id/issues/:iid        {title, description, state_event: close |
 *                                                  reopen} → 200
 *
 * Comments on an issue are the fakes' own comment / note endpoints.
 */
import { pageOf, type FakeReply, type FakeRequest } from "./fake-platform.js";

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
  /** GitHub's state_reason after a close or reopen. */
  stateReason: string | null;
  labels: string[];
  createdAt: string;
  updatedAt: string;
}

export interface IssueSeed {
  title: string;
  body: string;
  labels?: string[];
  state?: "open" | "closed";
}

export interface FakeIssues {
  /** The answer to an issues request; undefined when the path is not one. */
  route(req: FakeRequest, url: string): FakeReply | undefined;
  seed(project: string, i: IssueSeed): FakeIssue;
  /** Copies, oldest first, with the web address. */
  list(project: string): (FakeIssue & { url: string })[];
  labels(project: string): string[];
  has(project: string, n: number): boolean;
}

type ErrorReply = (status: number, message: unknown, extra?: object) => FakeReply;

function store(web: (project: string, n: number) => string) {
  const byProject = new Map<string, FakeIssue[]>();
  const labelSets = new Map<string, Set<string>>();
  let clock = Date.UTC(2026, 1, 1);
  const list = (p: string) => byProject.get(p) ?? byProject.set(p, []).get(p)!;
  const labels = (p: string) => labelSets.get(p) ?? labelSets.set(p, new Set()).get(p)!;
  const add = (p: string, i: IssueSeed): FakeIssue => {
    const at = new Date((clock += 1000)).toISOString();
    const names = [...new Set(i.labels ?? [])];
    for (const l of names) labels(p).add(l);
    const issue: FakeIssue = {
      number: 101 + list(p).length,
      title: i.title,
      body: i.body,
      state: i.state ?? "open",
      stateReason: null,
      labels: names,
      createdAt: at,
      updatedAt: at,
    };
    list(p).push(issue);
    return issue;
  };
  return {
    add,
    get: (p: string, n: number) => list(p).find((x) => x.number === n),
    /** Issues carrying every label asked for, in `state` ("all": both), oldest first. */
    filter: (p: string, want: readonly string[], state: "open" | "closed" | "all") =>
      list(p).filter(
        (x) => (state === "all" || x.state === state) && want.every((l) => x.labels.includes(l)),
      ),
    touch: (i: FakeIssue) => void (i.updatedAt = new Date((clock += 1000)).toISOString()),
    controls: {
      seed: (p: string, i: IssueSeed) => ({ ...add(p, i) }),
      list: (p: string) =>
        list(p).map((i) => ({ ...i, labels: [...i.labels], url: web(p, i.number) })),
      labels: (p: string) => [...labels(p)],
      has: (p: string, n: number) => list(p).some((x) => x.number === n),
    },
  };
}

const labelList = (v: unknown): string[] =>
  (Array.isArray(v)
    ? v.map((l: unknown) => (typeof l === "string" ? l : String((l as { name?: unknown }).name)))
    : typeof v === "string"
      ? v.split(",")
      : []
  )
    .map((l) => l.trim())
    .filter(Boolean);

export function githubIssues(o: { web: string; limit: number; error: ErrorReply }): FakeIssues {
  const url = (repo: string, n: number) => `${o.web}/${repo}/issues/${n}`;
  const s = store(url);
  const json = (repo: string, i: FakeIssue) => ({
    number: i.number,
    title: i.title,
    body: i.body,
    state: i.state,
    state_reason: i.stateReason,
    labels: i.labels.map((name) => ({ name, color: "ededed" })),
    html_url: url(repo, i.number),
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    user: { login: "github-actions[bot]" },
  });
  const invalid = (b: Record<string, unknown>, create: boolean) =>
    create && (typeof b.title !== "string" || !b.title)
      ? o.error(422, "Validation Failed", { errors: [{ resource: "Issue", code: "missing_field", field: "title" }] }) // prettier-ignore
      : typeof b.body === "string" && b.body.length > o.limit
        ? o.error(422, "Validation Failed", { errors: [{ resource: "Issue", code: "custom", field: "body", message: `body is too long (maximum is ${o.limit} characters)` }] }) // prettier-ignore
        : undefined;
  return {
    ...s.controls,
    route(req, base) {
      let m = /^\/repos\/([^/]+\/[^/]+)\/issues$/.exec(req.path);
      if (m && req.method === "GET") {
        const state = (req.query.get("state") ?? "open") as "open" | "closed" | "all";
        const p = pageOf(s.filter(m[1], labelList(req.query.get("labels")), state), req.query, 30); // prettier-ignore
        const link = (n: number, rel: string) => {
          const q = new URLSearchParams(req.query);
          q.set("per_page", String(p.perPage));
          q.set("page", String(n));
          return `<${base}${req.path}?${q.toString()}>; rel="${rel}"`;
        };
        const links = [
          ...(p.page < p.pages ? [link(p.page + 1, "next"), link(p.pages, "last")] : []),
          ...(p.page > 1 ? [link(1, "first"), link(p.page - 1, "prev")] : []),
        ];
        const repo = m[1];
        return { status: 200, body: p.items.map((i) => json(repo, i)), ...(links.length ? { headers: { link: links.join(", ") } } : {}) }; // prettier-ignore
      }
      if (m && req.method === "POST") {
        const b = req.body ?? {};
        const bad = invalid(b, true);
        if (bad) return bad;
        const body = typeof b.body === "string" ? b.body : "";
        return { status: 201, body: json(m[1], s.add(m[1], { title: b.title, body, labels: labelList(b.labels) })) }; // prettier-ignore
      }
      m = /^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)$/.exec(req.path);
      if (m && req.method === "PATCH") {
        const i = s.get(m[1], Number(m[2]));
        if (!i) return o.error(404, "Not Found");
        const b = req.body ?? {};
        const bad = invalid(b, false);
        if (bad) return bad;
        if (typeof b.title === "string") i.title = b.title;
        if (typeof b.body === "string") i.body = b.body;
        if ((b.state === "open" || b.state === "closed") && b.state !== i.state) {
          i.stateReason = b.state === "open" ? "reopened" : (b.state_reason ?? "completed");
          i.state = b.state;
        }
        s.touch(i);
        return { status: 200, body: json(m[1], i) };
      }
      return undefined;
    },
  };
}

export function gitlabIssues(o: {
  web: string;
  error: ErrorReply;
  tooLong: (body: unknown) => FakeReply | undefined;
  pageHeaders: (p: { page: number; perPage: number; pages: number }, total: number) => Record<string, string>; // prettier-ignore
}): FakeIssues {
  const url = (project: string, iid: number) => `${o.web}/${project}/-/issues/${iid}`;
  const s = store(url);
  const json = (project: string, i: FakeIssue) => ({
    id: 9000 + i.number,
    iid: i.number,
    title: i.title,
    description: i.body,
    state: i.state === "open" ? "opened" : "closed",
    labels: i.labels,
    web_url: url(project, i.number),
    created_at: i.createdAt,
    updated_at: i.updatedAt,
  });
  return {
    ...s.controls,
    route(req) {
      const m = /^\/api\/v4\/projects\/([^/]+)\/issues(?:\/(\d+))?$/.exec(req.path);
      if (!m) return undefined;
      const project = decodeURIComponent(m[1]);
      const b = req.body ?? {};
      const bad = typeof b.description === "string" ? o.tooLong(b.description) : undefined;
      if (req.method === "GET" && !m[2]) {
        const st = req.query.get("state");
        const state = st === "opened" ? "open" : st === "closed" ? "closed" : "all";
        const all = s.filter(project, labelList(req.query.get("labels")), state);
        const sorted = req.query.get("sort") === "asc" ? all : [...all].reverse();
        const p = pageOf(sorted, req.query, 20);
        return { status: 200, body: p.items.map((i) => json(project, i)), headers: o.pageHeaders(p, all.length) }; // prettier-ignore
      }
      if (req.method === "POST" && !m[2]) {
        if (typeof b.title !== "string" || !b.title) return o.error(400, "400 Bad request - title is missing"); // prettier-ignore
        if (bad) return bad;
        const i = s.add(project, { title: b.title, body: b.description ?? "", labels: labelList(b.labels) }); // prettier-ignore
        return { status: 201, body: json(project, i) };
      }
      if (req.method === "PUT" && m[2]) {
        const i = s.get(project, Number(m[2]));
        if (!i) return o.error(404, "404 Not found");
        if (bad) return bad;
        if (typeof b.title === "string") i.title = b.title;
        if (typeof b.description === "string") i.body = b.description;
        if (b.state_event === "close") i.state = "closed";
        if (b.state_event === "reopen") i.state = "open";
        s.touch(i);
        return { status: 200, body: json(project, i) };
      }
      return undefined;
    },
  };
}
