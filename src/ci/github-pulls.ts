/**
 * GitHub pull requests phctl opens (pull-requests.ts), through the git data API on the Octokit
 * client of github.ts: the base branch's commit and tree (once per run), a tree of the edited
 * files on it, a commit, the branch's ref, the pull request, its reviewers (users, and teams
 * written `org/team`) and its label. A refresh writes a new commit on the base and moves the
 * branch to it (force), then edits the body.
 */
import { GitHubClient } from "./github.js";
import type { OpenRequest, PullRequestApi, RequestInput } from "./pull-requests.js";
import { isNumbered, itemsOf } from "./shape.js";

interface RawPull {
  number: number;
  title: string;
  body?: string | null;
  html_url?: string;
  head: { ref: string };
  labels?: { name?: string }[];
}

const toRequest = (p: RawPull): OpenRequest => ({
  number: p.number,
  branch: p.head.ref,
  title: p.title,
  body: p.body ?? "",
  ...(p.html_url ? { url: p.html_url } : {}),
});

export class GitHubPullClient extends GitHubClient implements PullRequestApi {
  private readonly bases = new Map<string, Promise<{ commit: string; tree: string }>>();

  async listOpen(label: string): Promise<OpenRequest[]> {
    const answer: unknown = await this.octokit.paginate("GET /repos/{owner}/{repo}/pulls", {
      ...this.where,
      state: "open",
      per_page: 100,
    });
    const all = itemsOf(answer, {
      what: "GET /repos/{owner}/{repo}/pulls",
      setting: "GITHUB_API_URL",
      fits: isNumbered("number", "title"),
    }) as unknown as RawPull[];
    return all.filter((p) => (p.labels ?? []).some((l) => l.name === label)).map(toRequest);
  }

  /** The base branch's head commit and its tree, read once per run. */
  private base(branch: string) {
    let found = this.bases.get(branch);
    if (!found) {
      found = (async () => {
        const { data: ref } = await this.octokit.request(
          "GET /repos/{owner}/{repo}/git/ref/{ref}",
          { ...this.where, ref: `heads/${branch}` },
        );
        const { data: commit } = await this.octokit.request(
          "GET /repos/{owner}/{repo}/git/commits/{commit_sha}",
          { ...this.where, commit_sha: ref.object.sha },
        );
        return { commit: ref.object.sha, tree: commit.tree.sha };
      })();
      this.bases.set(branch, found);
    }
    return found;
  }

  /** One commit of `input.files` on the base: its sha. */
  private async commit(input: RequestInput): Promise<string> {
    const base = await this.base(input.base);
    const { data: tree } = await this.octokit.request("POST /repos/{owner}/{repo}/git/trees", {
      ...this.where,
      base_tree: base.tree,
      tree: input.files.map((f) =>
        f.content === null
          ? { path: f.path, mode: "100644" as const, type: "blob" as const, sha: null }
          : { path: f.path, mode: "100644" as const, type: "blob" as const, content: f.content },
      ),
    });
    const { data: commit } = await this.octokit.request("POST /repos/{owner}/{repo}/git/commits", {
      ...this.where,
      message: input.message,
      tree: tree.sha,
      parents: [base.commit],
    });
    return commit.sha;
  }

  async open(input: RequestInput): Promise<OpenRequest> {
    const sha = await this.commit(input);
    await this.octokit.request("POST /repos/{owner}/{repo}/git/refs", {
      ...this.where,
      ref: `refs/heads/${input.branch}`,
      sha,
    });
    const { data } = await this.octokit.request("POST /repos/{owner}/{repo}/pulls", {
      ...this.where,
      title: input.title,
      head: input.branch,
      base: input.base,
      body: input.body,
    });
    const pull = toRequest(data as unknown as RawPull);
    await this.octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/labels", {
      ...this.where,
      issue_number: pull.number,
      labels: [input.label],
    });
    const users = input.reviewers.filter((r) => !r.includes("/"));
    const teams = input.reviewers.filter((r) => r.includes("/")).map((r) => r.split("/")[1]!);
    if (users.length + teams.length > 0)
      await this.octokit.request(
        "POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers",
        { ...this.where, pull_number: pull.number, reviewers: users, team_reviewers: teams },
      );
    return pull;
  }

  async refresh(request: OpenRequest, input: RequestInput): Promise<OpenRequest> {
    const sha = await this.commit(input);
    await this.octokit.request("PATCH /repos/{owner}/{repo}/git/refs/{ref}", {
      ...this.where,
      ref: `heads/${input.branch}`,
      sha,
      force: true,
    });
    const { data } = await this.octokit.request("PATCH /repos/{owner}/{repo}/pulls/{pull_number}", {
      ...this.where,
      pull_number: request.number,
      title: input.title,
      body: input.body,
    });
    return toRequest(data as unknown as RawPull);
  }
}
