/**
 * GitHub pull requests phctl opens (pull-requests.ts), through the git data API on the Octokit
 * client of github.ts: the base branch's commit and tree (once per run), a tree of the edited
 * files on it, a commit, the branch's ref, the pull request, its reviewers (users, and teams
 * written `org/team`) and its label. A refresh writes a new commit on the base and moves the
 * branch to it (force), then edits the body. Calls: the open pull requests (one per 100),
 * the base's ref and commit (once per run), then per pull request opened 6 (tree, commit,
 * ref, pull, label, reviewers), per refresh 4 (tree, commit, ref, pull), per withdrawal 2
 * (close, comment); before opening, one read of the branch's last closed pull request.
 *
 * GitHub adds a label in a call of its own after the pull request exists, so a run stopped
 * between the two leaves a pull request without it: the open ones are matched by branch
 * too. A reviewer GitHub refuses (not a collaborator) does not undo the pull request: it is
 * noted, and the request stands for someone to assign.
 */
import { GitHubClient } from "./github.js";
import type { OpenRequest, PullRequestApi, RequestInput } from "./pull-requests.js";
import { CiHttpError } from "./retry.js";
import { isNumbered, itemsOf, shaAt } from "./shape.js";

interface RawPull {
  number: number;
  merged_at?: string | null;
  title: string;
  body?: string | null;
  html_url?: string;
  head: { ref: string };
  labels?: { name?: string }[];
}

/** Where a SHA is read from, for the error when it is not there. */
const at = (what: string) => ({ what, setting: "GITHUB_API_URL" });

const toRequest = (p: RawPull): OpenRequest => ({
  number: p.number,
  branch: p.head.ref,
  title: p.title,
  body: p.body ?? "",
  ...(p.html_url ? { url: p.html_url } : {}),
});

/** A pull request as GitHub lists one: a number, a title and its head branch. */
const isPull = (x: unknown): x is Record<string, unknown> =>
  isNumbered("number", "title")(x) &&
  typeof (x as { head?: { ref?: unknown } }).head?.ref === "string";

/** A list of pull requests, as GitHub answers one (else a PLATFORM_SHAPE error). */
const pullsIn = (answer: unknown): RawPull[] =>
  itemsOf(answer, {
    what: "GET /repos/{owner}/{repo}/pulls",
    setting: "GITHUB_API_URL",
    fits: isPull,
  }) as unknown as RawPull[];

export class GitHubPullClient extends GitHubClient implements PullRequestApi {
  private readonly bases = new Map<string, Promise<{ commit: string; tree: string }>>();

  async listOpen(label: string, prefix: string): Promise<OpenRequest[]> {
    const answer: unknown = await this.octokit.paginate("GET /repos/{owner}/{repo}/pulls", {
      ...this.where,
      state: "open",
      per_page: 100,
    });
    return pullsIn(answer)
      .filter(
        (p) => p.head.ref.startsWith(prefix) || (p.labels ?? []).some((l) => l.name === label),
      )
      .map(toRequest);
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
        const head = shaAt(ref, ["object", "sha"], at("GET /repos/{owner}/{repo}/git/ref/{ref}"));
        const { data: commit } = await this.octokit.request(
          "GET /repos/{owner}/{repo}/git/commits/{commit_sha}",
          { ...this.where, commit_sha: head },
        );
        const what = "GET /repos/{owner}/{repo}/git/commits/{commit_sha}";
        return { commit: head, tree: shaAt(commit, ["tree", "sha"], at(what)) };
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
      tree: shaAt(tree, ["sha"], at("POST /repos/{owner}/{repo}/git/trees")),
      parents: [base.commit],
    });
    return shaAt(commit, ["sha"], at("POST /repos/{owner}/{repo}/git/commits"));
  }

  /** Point the branch at `sha`, whatever it held (phctl's own branch). */
  private async moveBranch(branch: string, sha: string): Promise<void> {
    await this.octokit.request("PATCH /repos/{owner}/{repo}/git/refs/{ref}", {
      ...this.where,
      ref: `heads/${branch}`,
      sha,
      force: true,
    });
  }

  async open(input: RequestInput): Promise<OpenRequest> {
    const sha = await this.commit(input);
    try {
      await this.octokit.request("POST /repos/{owner}/{repo}/git/refs", {
        ...this.where,
        ref: `refs/heads/${input.branch}`,
        sha,
      });
    } catch (e) {
      // Left by a closed pull request, or by a run that stopped before opening one.
      if (!(e instanceof CiHttpError && e.status === 422 && /already exists/i.test(e.message)))
        throw e;
      await this.moveBranch(input.branch, sha);
    }
    const { data } = await this.octokit.request("POST /repos/{owner}/{repo}/pulls", {
      ...this.where,
      title: input.title,
      head: input.branch,
      base: input.base,
      body: input.body,
    });
    const pull = toRequest(data);
    await this.octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/labels", {
      ...this.where,
      issue_number: pull.number,
      labels: [input.label],
    });
    const users = input.reviewers.filter((r) => !r.includes("/"));
    const teams = input.reviewers.filter((r) => r.includes("/")).map((r) => r.split("/")[1]);
    if (users.length + teams.length > 0)
      try {
        await this.octokit.request(
          "POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers",
          { ...this.where, pull_number: pull.number, reviewers: users, team_reviewers: teams },
        );
      } catch (e) {
        if (!(e instanceof CiHttpError && e.status === 422)) throw e;
        return {
          ...pull,
          notes: [`reviewers ${input.reviewers.join(", ")} not requested: ${e.message}`],
        };
      }
    return pull;
  }

  async refresh(request: OpenRequest, input: RequestInput): Promise<OpenRequest> {
    await this.moveBranch(input.branch, await this.commit(input));
    const { data } = await this.octokit.request("PATCH /repos/{owner}/{repo}/pulls/{pull_number}", {
      ...this.where,
      pull_number: request.number,
      title: input.title,
      body: input.body,
    });
    return toRequest(data);
  }

  async withdraw(request: OpenRequest, why: string, body: string): Promise<void> {
    // The close first (a PATCH, safe to send again): a comment lost on the way is never
    // posted twice, as the closed request is not listed again.
    await this.octokit.request("PATCH /repos/{owner}/{repo}/pulls/{pull_number}", {
      ...this.where,
      pull_number: request.number,
      state: "closed",
      body,
    });
    await this.octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
      ...this.where,
      issue_number: request.number,
      body: why,
    });
  }

  async lastDeclined(branch: string): Promise<OpenRequest | undefined> {
    const { data } = await this.octokit.request("GET /repos/{owner}/{repo}/pulls", {
      ...this.where,
      state: "closed",
      head: `${this.where.owner}:${branch}`,
      sort: "created",
      direction: "desc",
      per_page: 10,
    });
    const last = pullsIn(data).find((p) => p.head.ref === branch);
    return last && !last.merged_at ? toRequest(last) : undefined;
  }
}
