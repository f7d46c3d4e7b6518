/**
 * The commit blocker (a pre-receive hook rejecting pushes whose author or committer e-mail
 * domain is not allowed). One request carries every domain and replaces the whole
 * blocker; one `since` holds for all of them, so items that state different ones are a 422.
 */
import { defineHandlers, statusOnly, type ServerContext } from "../../context.js";
import { DATE_FORMS, parseStrictDate } from "../../dates.js";
import { notFound, ruleViolated } from "../../errors.js";
import { requireLiveRepo, requireScope } from "./common.js";

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export interface Blocker {
  author: string[];
  committer: string[];
  since: string | null;
}

/** Store (replace) a repository's blocker; shared with seeding. */
export function writeBlocker(ctx: ServerContext, repoId: number, b: Blocker): void {
  ctx.db.run(
    `INSERT INTO commit_blockers (repo_id, author, committer, since) VALUES (?, ?, ?, ?)
     ON CONFLICT (repo_id) DO UPDATE SET author = excluded.author,
       committer = excluded.committer, since = excluded.since`,
    repoId,
    JSON.stringify(b.author),
    JSON.stringify(b.committer),
    b.since,
  );
}

export const blockerHandlers = defineHandlers({
  "git.repos.enableCommitBlocker": (ctx, { caller, params, body }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    const repo = requireLiveRepo(ctx, s, params.repoID);
    const b: Blocker = { author: [], committer: [], since: null };
    let since: { value: string | null; index: number } | undefined;
    for (const [i, item] of body.emailCheck.entries()) {
      // "@example.com" and "Example.COM" mean example.com.
      const domain = item.domain.trim().replace(/^@/, "").toLowerCase();
      if (!DOMAIN.test(domain)) {
        throw ruleViolated(`${item.domain} is not an e-mail domain`, `emailCheck[${i}].domain`);
      }
      if (!b[item.type].includes(domain)) b[item.type].push(domain);
      if (item.since === undefined) continue;
      if (item.since !== null && parseStrictDate(item.since) === undefined) {
        throw ruleViolated(
          `since ${item.since} is not a date: ${DATE_FORMS}`,
          `emailCheck[${i}].since`,
        );
      }
      if (since && since.value !== item.since) {
        throw ruleViolated(
          `one start date holds for the whole blocker: item ${i} says ${item.since}, item ${since.index} says ${since.value}`,
          `emailCheck[${i}].since`,
        );
      }
      since = { value: item.since, index: i };
    }
    b.since = since?.value ?? null;
    writeBlocker(ctx, repo.id, b);
    return statusOnly(
      `commit blocker enabled on repository ${repo.id}: ${b.author.length} author and ${b.committer.length} committer domain(s)`,
      201,
    );
  },

  "git.repos.removeCommitBlocker": (ctx, { caller, params }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    const repo = requireLiveRepo(ctx, s, params.repoID);
    const r = ctx.db.run("DELETE FROM commit_blockers WHERE repo_id = ?", repo.id);
    if (r.changes === 0) throw notFound(`commit blocker of repository ${repo.id}`);
    return statusOnly(`commit blocker removed from repository ${repo.id}`);
  },
});
