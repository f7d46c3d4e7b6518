/**
 * Commit records (seeded, copied by forks): one commit by full sha, ref name or unique sha
 * prefix of at least 7 characters; the bulk lookup that answers the request's nesting; and
 * the organization-wide search for the repositories that contain a commit.
 */
import { defineHandlers, ok, type ServerContext } from "../../context.js";
import { badRequest, notFound, ruleViolated } from "../../errors.js";
import { requireRepo, requireScope } from "./common.js";
import { commitRecord, type CommitRow } from "./records.js";

const FULL_SHA = /^[0-9a-f]{40}$/;
const SHA_PREFIX = /^[0-9a-f]{7,39}$/;

/** The refs a name may be stored as: `main`, `refs/heads/main`, `refs/tags/main`. */
function refForms(ref: string): string[] {
  const m = /^refs\/(heads|tags)\/(.+)$/.exec(ref);
  return m ? [ref, m[2]] : [ref, `refs/heads/${ref}`, `refs/tags/${ref}`];
}

/** Upper bound of a sha-prefix range: every sha starting with `p` sorts in [p, p + "g"). */
const prefixEnd = (p: string) => `${p}g`;

/**
 * Resolve a sha, ref name or sha prefix in one repository, as git does: a full sha first,
 * then HEAD and ref names, then a unique prefix. "ambiguous" when a prefix matches several.
 */
export function resolveCommit(
  ctx: ServerContext,
  repoId: number,
  wanted: string,
): CommitRow | "ambiguous" | undefined {
  const w = wanted.trim();
  const lower = w.toLowerCase();
  if (FULL_SHA.test(lower)) {
    const c = ctx.db.get<CommitRow>(
      "SELECT * FROM commits WHERE repo_id = ? AND sha = ?",
      repoId,
      lower,
    );
    if (c) return c;
  }
  const byRef =
    w === "HEAD"
      ? ctx.db.get<CommitRow>(
          "SELECT * FROM commits WHERE repo_id = ? ORDER BY created DESC, rowid DESC LIMIT 1",
          repoId,
        )
      : ctx.db.get<CommitRow>(
          `SELECT * FROM commits WHERE repo_id = ? AND EXISTS (
             SELECT 1 FROM json_each(commits.refs) WHERE value IN (SELECT value FROM json_each(?)))
           ORDER BY created DESC LIMIT 1`,
          repoId,
          JSON.stringify(refForms(w)),
        );
  if (byRef) return byRef;
  if (SHA_PREFIX.test(lower)) {
    const hits = ctx.db.all<CommitRow>(
      "SELECT * FROM commits WHERE repo_id = ? AND sha >= ? AND sha < ? LIMIT 2",
      repoId,
      lower,
      prefixEnd(lower),
    );
    if (hits.length > 1) return "ambiguous";
    return hits[0];
  }
  return undefined;
}

export const commitHandlers = defineHandlers({
  "git.repos.commit": (ctx, { caller, params }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    const repo = requireRepo(ctx, s, params.repoID);
    const c = resolveCommit(ctx, repo.id, params.sha);
    if (c === "ambiguous") {
      throw ruleViolated(
        `sha prefix ${params.sha} is ambiguous in repository ${repo.id}; give more characters`,
        "sha",
      );
    }
    if (!c) throw notFound(`commit ${params.sha} in repository ${repo.id}`);
    return ok(commitRecord(c));
  },

  "git.repos.commits": (ctx, { caller, params, body }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    const repo = requireRepo(ctx, s, params.repoID);
    return ok(
      body.shas.map((group) =>
        group.map((sha) => {
          const c = resolveCommit(ctx, repo.id, sha);
          return c && c !== "ambiguous" ? commitRecord(c) : null;
        }),
      ),
    );
  },

  "metrics.gitSearch": (ctx, { caller, params }) => {
    const sha = params.sha.trim().toLowerCase();
    if (!FULL_SHA.test(sha) && !SHA_PREFIX.test(sha)) {
      throw badRequest("sha must be 7 to 40 hexadecimal characters", "sha");
    }
    return ctx.db.all<{ projectSlug: string; gitRepoID: number; name: string }>(
      `SELECT DISTINCT p.slug AS projectSlug, r.id AS gitRepoID, r.name AS name
       FROM commits c
       JOIN repositories r ON r.id = c.repo_id
       JOIN git_groups g ON g.id = r.group_id
       JOIN projects p ON p.id = g.project_id
       WHERE c.sha >= ? AND c.sha < ? AND p.parent_org_id = ? AND r.status != 'deleted'
       ORDER BY p.slug, r.id`,
      sha,
      sha.length === 40 ? `${sha}\u0000` : prefixEnd(sha),
      caller.parentOrgId,
    );
  },
});
