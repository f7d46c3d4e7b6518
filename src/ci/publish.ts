/**
 * Publish one sticky comment in CI: open the platform's client, find the pull/merge request
 * (`--pr`, else the event, else the merged pull request of the commit the job runs on), then
 * create or update the comment carrying the marker. A platform failure becomes one user
 * error with the platform's status and message and what to do about it. Prints nothing.
 */
import { userError } from "../errors.js";
import { requestWord, type CiContext } from "./platform.js";
import { CiHttpError } from "./retry.js";
import { openIssueClient } from "./issues.js";
import {
  markedComments,
  upsertSticky,
  type PlatformClient,
  type StickyResult,
  type Thread,
} from "./sticky.js";

/** The platform's client (the issue client: it is the comment client and more). */
export function openClient(ctx: CiContext, token: string): PlatformClient {
  return openIssueClient(ctx, token);
}

/** What to do after a failed call, by platform and status. */
function hint(ctx: CiContext, status: number | undefined): string {
  const gh = ctx.platform === "github";
  if (status === 401)
    return gh
      ? "the token was refused: pass the job's token as GITHUB_TOKEN (env: GITHUB_TOKEN: ${{ github.token }})"
      : "set PHCTL_GITLAB_TOKEN to a token with api scope";
  if (status === 403)
    return gh
      ? "give the job `pull-requests: write` (and `issues: write`) in its permissions"
      : "set PHCTL_GITLAB_TOKEN to a token with api scope (Developer role or more)";
  if (status === 404)
    return gh
      ? `check GITHUB_REPOSITORY (${ctx.project}) and the pull request number; a token without access to the repository also gets 404`
      : `check CI_PROJECT_ID (${ctx.project}) and the merge request iid; a token without access to the project also gets 404`;
  if (status === 422 || status === 400) return "this is likely a phctl bug: please report it";
  return `${ctx.name} may be having trouble: run the job again later`;
}

export function platformError(ctx: CiContext, what: string, e: unknown): unknown {
  if (!(e instanceof CiHttpError)) return e;
  // GitLab's messages start with the status already ("401 Unauthorized").
  const said =
    e.status === undefined || e.platformMessage.startsWith(`${e.status} `)
      ? e.platformMessage
      : `${e.status} ${e.platformMessage}`;
  return userError("CI_PLATFORM", `cannot ${what}: ${said} — ${hint(ctx, e.status)}`);
}

/** The pull/merge request to comment on. */
export async function findThread(
  ctx: CiContext,
  client: PlatformClient,
  pr: number | undefined,
): Promise<Thread> {
  if (pr !== undefined) return { type: "pull", number: pr };
  if (ctx.number !== undefined) return { type: ctx.isIssue ? "issue" : "pull", number: ctx.number };
  const kind = requestWord(ctx.platform);
  const how =
    ctx.platform === "github"
      ? "run on a pull_request event, or pass --pr N"
      : "run in a merge-request pipeline (CI_MERGE_REQUEST_IID), or pass --pr N";
  if (!ctx.sha)
    throw userError("NO_PULL_REQUEST", `no ${kind} to comment on (the event names none): ${how}`);
  let pulls;
  try {
    pulls = await client.pullsOfCommit(ctx.sha);
  } catch (e) {
    throw platformError(ctx, `find the ${kind} of commit ${ctx.sha.slice(0, 12)}`, e);
  }
  const found = pulls.find((p) => p.merged) ?? pulls.find((p) => p.headSha === ctx.sha);
  if (!found)
    throw userError(
      "NO_PULL_REQUEST",
      `no ${kind} to comment on: the event names none and commit ${ctx.sha.slice(0, 12)} belongs to no merged ${kind}; ${how}`,
    );
  return { type: "pull", number: found.number };
}

export interface Published extends StickyResult {
  /** "pull request #12" / "merge request !12". */
  where: string;
}

/**
 * Create or update the comment carrying `marker` on the thread the context names; `body` may
 * be made from the comment's current body (undefined when there is none yet).
 */
export async function publishSticky(
  ctx: CiContext,
  token: string,
  input: { pr?: number; marker: string; body: string | ((previous?: string) => string) },
): Promise<Published> {
  const client = openClient(ctx, token);
  try {
    const thread = await findThread(ctx, client, input.pr);
    const where = client.describe(thread);
    try {
      const make = input.body;
      const body =
        typeof make === "string"
          ? make
          : make(markedComments(await client.list(thread), input.marker).at(-1)?.body);
      return { ...(await upsertSticky(client, thread, input.marker, body)), where };
    } catch (e) {
      throw platformError(ctx, `comment on ${ctx.name} ${where}`, e);
    }
  } finally {
    await client.close();
  }
}
