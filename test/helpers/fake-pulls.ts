/**
 * The repository and pull/merge request endpoints of the GitHub and GitLab fakes
 * (fake-github.ts, fake-gitlab.ts) that `report access --propose` uses: a small git store
 * per repository (branches → commits → whole-file trees) and the requests opened on it, with
 * their labels, reviewers and bodies, answered in each platform's shape.
 *
 *   GitHub  GET   /repos/{o}/{r}/git/ref/heads/{branch}   {object: {sha}}; 404 no such branch
 *           GET   /repos/{o}/{r}/git/commits/{sha}        {sha, tree: {sha}, parents}
 *           POST  /repos/{o}/{r}/git/trees                {base_tree, tree: [{path, mode, type,
 *                                                         content | sha: null (delete)}]} → 201
 *           POST  /repos/{o}/{r}/git/commits              {message, tree, parents} → 201
 *           POST  /repos/{o}/{r}/git/refs                 {ref: refs/heads/B, sha} → 201; 422
 *                                                         "Reference already exists"
 *           PATCH /repos/{o}/{r}/git/refs/heads/{branch}  {sha, force} → 200; 422 not a fast
 *                                                         forward without force, or no branch
 *           GET   /repos/{o}/{r}/pulls                    state (open by default, closed, all),
 *                                                         head (owner:branch), direction (desc:
 *                                                         newest first); paged (per_page
 *                                                         default 30) with Link
 *           POST  /repos/{o}/{r}/pulls                    {title, head, base, body} → 201; 422
 *                                                         when an open one has that head, or
 *                                                         head is not a branch
 *           PATCH /repos/{o}/{r}/pulls/{n}                {title, body, state} → 200
 *           POST  /repos/{o}/{r}/issues/{n}/labels        {labels} on a pull request → 200
 *           POST  /repos/{o}/{r}/pulls/{n}/requested_reviewers  {reviewers, team_reviewers} →
 *                                                         201; 422 for a user who is not a
 *                                                         collaborator (when collaborators set)
 *   GitLab  POST  /projects/:id/repository/commits        {branch, start_branch, force,
 *                                                         commit_message, actions: [{action:
 *                                                         create | update | delete, file_path,
 *                                                         content}]} → 201. As GitLab: a new
 *                                                         branch starts at start_branch; an
 *                                                         existing one takes the commit on top,
 *                                                         unless start_branch differs: then 400
 *                                                         "A branch called … already exists"
 *                                                         without force, reset to start_branch
 *                                                         with force; update of a missing file
 *                                                         and create of an existing one → 400
 *           GET   /projects/:id/merge_requests            state (opened, closed, merged, all),
 *                                                         labels (all must match),
 *                                                         source_branch; newest first; paged
 *                                                         (per_page default 20), X-Next-Page
 *           POST  /projects/:id/merge_requests            {source_branch, target_branch, title,
 *                                                         description, labels (comma string),
 *                                                         reviewer_ids} → 201; 409 when an open
 *                                                         one has that source branch
 *           PUT   /projects/:id/merge_requests/:iid       {title, description, state_event} → 200
 *           GET   /projects/:id/members/all               query (a substring of the username)
 *
 * Test controls: `seedBranch(repo, branch, files)` (a commit of whole files),
 * `files(repo, branch)` (path → text; undefined: no such branch), `branches(repo)`,
 * `pulls(repo)` (copies, oldest first: number, state, title, body, head, base, labels,
 * reviewers, teams), `setCollaborators(repo, logins)` (GitHub) / `setMembers(project,
 * [{id, username}])` (GitLab).
 */
import { createHash } from "node:crypto";
import { pageOf, type FakeReply, type FakeRequest } from "./fake-platform.js";

export type Files = Record<string, string>;

export interface FakePull {
  number: number;
  state: "open" | "closed" | "merged";
  title: string;
  body: string;
  head: string;
  base: string;
  labels: string[];
  reviewers: string[];
  teams: string[];
}

export interface FakePullControls {
  seedBranch(repo: string, branch: string, files: Files): string;
  files(repo: string, branch: string): Files | undefined;
  branches(repo: string): string[];
  pulls(repo: string): FakePull[];
}

interface Commit {
  sha: string;
  tree: string;
  parents: string[];
  message: string;
}

type ErrorReply = (status: number, message: unknown, extra?: object) => FakeReply;

/** Branches, commits and trees of every repository, and the requests opened on them. */
function gitStore() {
  let n = 0;
  const sha = (what: string) => createHash("sha1").update(`${what}:${n++}`).digest("hex");
  const trees = new Map<string, Files>();
  const commits = new Map<string, Commit>();
  const refs = new Map<string, Map<string, string>>();
  const pulls = new Map<string, FakePull[]>();
  const branchesOf = (repo: string) => refs.get(repo) ?? refs.set(repo, new Map()).get(repo)!;
  const pullsOf = (repo: string) => pulls.get(repo) ?? pulls.set(repo, []).get(repo)!;
  const tree = (files: Files) => {
    const s = sha("tree");
    trees.set(s, { ...files });
    return s;
  };
  const commit = (treeSha: string, parents: string[], message: string) => {
    const c = { sha: sha("commit"), tree: treeSha, parents, message };
    commits.set(c.sha, c);
    return c;
  };
  const filesAt = (repo: string, branch: string) => {
    const head = branchesOf(repo).get(branch);
    const c = head === undefined ? undefined : commits.get(head);
    return c ? { ...trees.get(c.tree)! } : undefined;
  };
  /** Is `ancestor` reachable from `sha` through parents? */
  const reaches = (from: string, ancestor: string): boolean => {
    const seen = new Set<string>();
    const todo = [from];
    while (todo.length) {
      const s = todo.pop()!;
      if (s === ancestor) return true;
      if (seen.has(s)) continue;
      seen.add(s);
      todo.push(...(commits.get(s)?.parents ?? []));
    }
    return false;
  };
  const controls: FakePullControls = {
    seedBranch(repo, branch, files) {
      const c = commit(tree(files), [], `seed ${branch}`);
      branchesOf(repo).set(branch, c.sha);
      return c.sha;
    },
    files: filesAt,
    branches: (repo) => [...branchesOf(repo).keys()].sort(),
    pulls: (repo) =>
      pullsOf(repo).map((p) => ({
        ...p,
        labels: [...p.labels],
        reviewers: [...p.reviewers],
        teams: [...p.teams],
      })),
  };
  return { sha, trees, commits, tree, commit, branchesOf, pullsOf, filesAt, reaches, controls };
}

export interface FakeGitHubPulls extends FakePullControls {
  route(req: FakeRequest, url: string): FakeReply | undefined;
  setCollaborators(repo: string, logins: readonly string[]): void;
}

export function githubPulls(o: { web: string; error: ErrorReply }): FakeGitHubPulls {
  const g = gitStore();
  const collaborators = new Map<string, Set<string>>();
  const json = (repo: string, p: FakePull) => ({
    number: p.number,
    state: p.state === "open" ? "open" : "closed",
    merged_at: p.state === "merged" ? "2026-01-02T00:00:00Z" : null,
    title: p.title,
    body: p.body,
    html_url: `${o.web}/${repo}/pull/${p.number}`,
    head: { ref: p.head, sha: g.branchesOf(repo).get(p.head) ?? null },
    base: { ref: p.base, sha: g.branchesOf(repo).get(p.base) ?? null },
    labels: p.labels.map((name) => ({ name, color: "ededed" })),
    requested_reviewers: p.reviewers.map((login) => ({ login })),
    requested_teams: p.teams.map((slug) => ({ slug })),
  });
  const invalid = (message: string) =>
    o.error(422, "Validation Failed", { errors: [{ resource: "PullRequest", code: "custom", message }] }); // prettier-ignore
  return {
    ...g.controls,
    setCollaborators: (repo, logins) => void collaborators.set(repo, new Set(logins)),
    route(req, base) {
      const r = /^\/repos\/([^/]+\/[^/]+)\/(.*)$/.exec(req.path);
      if (!r) return undefined;
      // Octokit sends a ref's slashes encoded (heads%2Fmain), as GitHub accepts.
      const [repo, rest] = [r[1], decodeURIComponent(r[2])];
      const b = (req.body ?? {}) as Record<string, any>;
      let m = /^git\/ref\/heads\/(.+)$/.exec(rest);
      if (m && req.method === "GET") {
        const head = g.branchesOf(repo).get(decodeURIComponent(m[1]));
        if (head === undefined) return o.error(404, "Not Found");
        return { status: 200, body: { ref: `refs/heads/${decodeURIComponent(m[1])}`, object: { sha: head, type: "commit" } } }; // prettier-ignore
      }
      m = /^git\/commits\/([0-9a-f]{40})$/.exec(rest);
      if (m && req.method === "GET") {
        const c = g.commits.get(m[1]);
        if (!c) return o.error(404, "Not Found");
        return { status: 200, body: { sha: c.sha, message: c.message, tree: { sha: c.tree }, parents: c.parents.map((sha) => ({ sha })) } }; // prettier-ignore
      }
      if (rest === "git/trees" && req.method === "POST") {
        const from = b.base_tree === undefined ? {} : g.trees.get(String(b.base_tree));
        if (!from) return o.error(422, "Invalid tree info");
        const files = { ...from };
        for (const e of Array.isArray(b.tree) ? b.tree : []) {
          if (typeof e?.path !== "string") return o.error(422, "Invalid tree info");
          if (e.sha === null) {
            if (!(e.path in files)) return o.error(422, "GitRPC::BadObjectState");
            delete files[e.path];
          } else if (typeof e.content === "string") files[e.path] = e.content;
          else return o.error(422, "Invalid tree info");
        }
        return { status: 201, body: { sha: g.tree(files), truncated: false } };
      }
      if (rest === "git/commits" && req.method === "POST") {
        const parents: string[] = Array.isArray(b.parents) ? b.parents : [];
        if (!g.trees.has(String(b.tree)) || parents.some((p) => !g.commits.has(p)))
          return o.error(422, "Tree SHA does not exist");
        const c = g.commit(String(b.tree), parents, String(b.message ?? ""));
        return { status: 201, body: { sha: c.sha, tree: { sha: c.tree }, parents: parents.map((sha) => ({ sha })) } }; // prettier-ignore
      }
      if (rest === "git/refs" && req.method === "POST") {
        const name = /^refs\/heads\/(.+)$/.exec(String(b.ref))?.[1];
        if (!name || !g.commits.has(String(b.sha))) return o.error(422, "Invalid request.");
        if (g.branchesOf(repo).has(name)) return o.error(422, "Reference already exists");
        g.branchesOf(repo).set(name, String(b.sha));
        return { status: 201, body: { ref: b.ref, object: { sha: b.sha, type: "commit" } } };
      }
      m = /^git\/refs\/heads\/(.+)$/.exec(rest);
      if (m && req.method === "PATCH") {
        const name = decodeURIComponent(m[1]);
        const head = g.branchesOf(repo).get(name);
        if (head === undefined) return o.error(422, "Reference does not exist");
        if (!g.commits.has(String(b.sha))) return o.error(422, "Object does not exist");
        if (b.force !== true && !g.reaches(String(b.sha), head))
          return o.error(422, "Update is not a fast forward");
        g.branchesOf(repo).set(name, String(b.sha));
        return { status: 200, body: { ref: `refs/heads/${name}`, object: { sha: b.sha, type: "commit" } } }; // prettier-ignore
      }
      if (rest === "pulls" && req.method === "GET") {
        const state = req.query.get("state") ?? "open";
        // head=owner:branch narrows to one branch; newest first with direction=desc.
        const head = req.query.get("head")?.split(":").slice(1).join(":");
        const all = g.pullsOf(repo).filter((p) => (state === "all" || (state === "open") === (p.state === "open")) && (head === undefined || p.head === head)); // prettier-ignore
        const p = pageOf(req.query.get("direction") === "desc" ? [...all].reverse() : all, req.query, 30); // prettier-ignore
        const link = (n: number, rel: string) => {
          const q = new URLSearchParams(req.query);
          q.set("per_page", String(p.perPage));
          q.set("page", String(n));
          return `<${base}${req.path}?${q.toString()}>; rel="${rel}"`;
        };
        const links = p.page < p.pages ? [link(p.page + 1, "next"), link(p.pages, "last")] : [];
        return { status: 200, body: p.items.map((x) => json(repo, x)), ...(links.length ? { headers: { link: links.join(", ") } } : {}) }; // prettier-ignore
      }
      if (rest === "pulls" && req.method === "POST") {
        const [head, baseRef] = [String(b.head), String(b.base)];
        if (typeof b.title !== "string" || !b.title) return invalid("title is missing");
        const branches = g.branchesOf(repo);
        if (!branches.has(head)) return invalid(`head: invalid ${head}`);
        if (!branches.has(baseRef)) return invalid(`base: invalid ${baseRef}`);
        if (branches.get(head) === branches.get(baseRef))
          return invalid(`No commits between ${baseRef} and ${head}`);
        if (g.pullsOf(repo).some((p) => p.state === "open" && p.head === head))
          return invalid(`A pull request already exists for ${repo.split("/")[0]}:${head}.`);
        const pulls = g.pullsOf(repo);
        const p: FakePull = { number: pulls.length + 1, state: "open", title: b.title, body: typeof b.body === "string" ? b.body : "", head, base: baseRef, labels: [], reviewers: [], teams: [] }; // prettier-ignore
        pulls.push(p);
        return { status: 201, body: json(repo, p) };
      }
      m = /^pulls\/(\d+)$/.exec(rest);
      if (m && req.method === "PATCH") {
        const p = g.pullsOf(repo).find((x) => x.number === Number(m![1]));
        if (!p) return o.error(404, "Not Found");
        if (typeof b.title === "string") p.title = b.title;
        if (typeof b.body === "string") p.body = b.body;
        if (b.state === "closed" && p.state === "open") p.state = "closed";
        if (b.state === "open" && p.state === "closed") p.state = "open";
        return { status: 200, body: json(repo, p) };
      }
      m = /^issues\/(\d+)\/labels$/.exec(rest);
      const labelled = m ? g.pullsOf(repo).find((x) => x.number === Number(m![1])) : undefined;
      if (labelled && req.method === "POST") {
        const names: unknown[] = Array.isArray(b.labels) ? b.labels : [];
        for (const l of names) if (!labelled.labels.includes(String(l))) labelled.labels.push(String(l)); // prettier-ignore
        return { status: 200, body: labelled.labels.map((name) => ({ name, color: "ededed" })) };
      }
      m = /^pulls\/(\d+)\/requested_reviewers$/.exec(rest);
      if (m && req.method === "POST") {
        const p = g.pullsOf(repo).find((x) => x.number === Number(m[1]));
        if (!p) return o.error(404, "Not Found");
        const users: string[] = Array.isArray(b.reviewers) ? b.reviewers.map(String) : [];
        const teams: string[] = Array.isArray(b.team_reviewers) ? b.team_reviewers.map(String) : []; // prettier-ignore
        const known = collaborators.get(repo);
        if (known && users.some((u) => !known.has(u)))
          return o.error(422, `Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the ${repo} repository.`); // prettier-ignore
        for (const u of users) if (!p.reviewers.includes(u)) p.reviewers.push(u);
        for (const t of teams) if (!p.teams.includes(t)) p.teams.push(t);
        return { status: 201, body: json(repo, p) };
      }
      return undefined;
    },
  };
}

export interface GitLabMember {
  id: number;
  username: string;
}

export interface FakeGitLabPulls extends FakePullControls {
  route(req: FakeRequest): FakeReply | undefined;
  setMembers(project: string, members: readonly GitLabMember[]): void;
}

export function gitlabPulls(o: {
  web: string;
  error: ErrorReply;
  pageHeaders: (p: { page: number; perPage: number; pages: number }, total: number) => Record<string, string>; // prettier-ignore
}): FakeGitLabPulls {
  const g = gitStore();
  const members = new Map<string, GitLabMember[]>();
  const json = (project: string, p: FakePull) => ({
    id: 7000 + p.number,
    iid: p.number,
    state: p.state === "open" ? "opened" : p.state,
    title: p.title,
    description: p.body,
    web_url: `${o.web}/${project}/-/merge_requests/${p.number}`,
    source_branch: p.head,
    target_branch: p.base,
    labels: [...p.labels],
    reviewers: p.reviewers.map((username) => ({
      username,
      id: members.get(project)?.find((x) => x.username === username)?.id,
    })),
  });
  const labelList = (v: unknown) =>
    (typeof v === "string" ? v.split(",") : Array.isArray(v) ? v.map(String) : [])
      .map((l) => l.trim())
      .filter(Boolean);
  return {
    ...g.controls,
    setMembers: (project, list) => void members.set(project, [...list]),
    route(req) {
      const r = /^\/api\/v4\/projects\/([^/]+)\/(.*)$/.exec(req.path);
      if (!r) return undefined;
      const [project, rest] = [decodeURIComponent(r[1]), r[2]];
      const b = (req.body ?? {}) as Record<string, any>;
      if (rest === "repository/commits" && req.method === "POST") {
        const branches = g.branchesOf(project);
        const branch = String(b.branch ?? "");
        const start = b.start_branch === undefined ? undefined : String(b.start_branch);
        if (!branch) return o.error(400, "branch is missing");
        if (start !== undefined && !branches.has(start))
          return o.error(400, `Invalid reference name: ${start}`);
        const exists = branches.has(branch);
        if (exists && start !== undefined && start !== branch && b.force !== true)
          return o.error(400, `A branch called '${branch}' already exists. Switch to that branch in order to make changes`); // prettier-ignore
        if (!exists && start === undefined)
          return o.error(400, "You can only create or edit files when you are on a branch");
        const from = exists && !(b.force === true && start !== undefined) ? branch : start!;
        const parent = branches.get(from)!;
        const files = g.filesAt(project, from)!;
        for (const a of Array.isArray(b.actions) ? b.actions : []) {
          const path = String(a?.file_path ?? "");
          if (a?.action === "update" && !(path in files))
            return o.error(400, "A file with this name doesn't exist");
          if (a?.action === "create" && path in files)
            return o.error(400, "A file with this name already exists");
          if (a?.action === "delete") {
            if (!(path in files)) return o.error(400, "A file with this name doesn't exist");
            delete files[path];
          } else if (a?.action === "update" || a?.action === "create")
            files[path] = String(a.content ?? "");
          else return o.error(400, "actions[action] does not have a valid value");
        }
        const c = g.commit(g.tree(files), [parent], String(b.commit_message ?? ""));
        branches.set(branch, c.sha);
        return { status: 201, body: { id: c.sha, short_id: c.sha.slice(0, 8), title: c.message.split("\n")[0], message: c.message, parent_ids: [parent] } }; // prettier-ignore
      }
      if (rest === "merge_requests" && req.method === "GET") {
        const state = req.query.get("state") ?? "all";
        const want = labelList(req.query.get("labels"));
        const source = req.query.get("source_branch");
        const all = g
          .pullsOf(project)
          .filter(
            (p) =>
              (state === "all" || state === (p.state === "open" ? "opened" : p.state)) &&
              want.every((l) => p.labels.includes(l)) &&
              (source === null || p.head === source),
          );
        const p = pageOf([...all].reverse(), req.query, 20);
        return { status: 200, body: p.items.map((x) => json(project, x)), headers: o.pageHeaders(p, all.length) }; // prettier-ignore
      }
      if (rest === "merge_requests" && req.method === "POST") {
        const [head, baseRef] = [String(b.source_branch), String(b.target_branch)];
        if (typeof b.title !== "string" || !b.title) return o.error(400, "title is missing");
        const branches = g.branchesOf(project);
        if (!branches.has(head) || !branches.has(baseRef))
          return o.error(422, ["Source branch does not exist"]);
        const open = g.pullsOf(project).find((p) => p.state === "open" && p.head === head);
        if (open)
          return o.error(409, [`Another open merge request already exists for this source branch: !${open.number}`]); // prettier-ignore
        const ids: unknown[] = Array.isArray(b.reviewer_ids) ? b.reviewer_ids : [];
        const known = members.get(project) ?? [];
        const pulls = g.pullsOf(project);
        const p: FakePull = { number: pulls.length + 1, state: "open", title: b.title, body: typeof b.description === "string" ? b.description : "", head, base: baseRef, labels: labelList(b.labels), reviewers: known.filter((x) => ids.includes(x.id)).map((x) => x.username), teams: [] }; // prettier-ignore
        pulls.push(p);
        return { status: 201, body: json(project, p) };
      }
      const m = /^merge_requests\/(\d+)$/.exec(rest);
      if (m && req.method === "PUT") {
        const p = g.pullsOf(project).find((x) => x.number === Number(m[1]));
        if (!p) return o.error(404, "404 Not found");
        if (typeof b.title === "string") p.title = b.title;
        if (typeof b.description === "string") p.body = b.description;
        if (b.state_event === "close" && p.state === "open") p.state = "closed";
        if (b.state_event === "reopen" && p.state === "closed") p.state = "open";
        return { status: 200, body: json(project, p) };
      }
      if (rest === "members/all" && req.method === "GET") {
        const q = req.query.get("query") ?? "";
        const found = (members.get(project) ?? []).filter((x) => x.username.includes(q));
        const p = pageOf(found, req.query, 20);
        return { status: 200, body: p.items.map((x) => ({ ...x, name: x.username, state: "active" })), headers: o.pageHeaders(p, found.length) }; // prettier-ignore
      }
      return undefined;
    },
  };
}
