/**
 * Forks: `repoPathFrom` is a clone URL of a repository on this git host (any project of the
 * caller's parent organization); the fork copies the source's settings and commits and
 * records `gitSourceRepoID`.
 *
 * The fork failure rule: a fork can go wrong on the git host (a test knob arms it); that
 * request answers 500 and the target project enters a cleanup window (fork_cleanups) of
 * max(queue delay, 300 ms), during which every fork request of the project answers 500
 * FORK_CLEANUP with a retry-later message. Afterwards forks work again.
 */
import { defineHandlers, ok, type ServerContext } from "../../context.js";
import { HttpError, notFound, ruleViolated } from "../../errors.js";
import { isoNow } from "../../store/db.js";
import type { ProjectRow } from "../../store/lookups.js";
import { requireProject } from "../../store/lookups.js";
import { parseHostRepoUrl } from "../../urls.js";
import { requirePlacement, requireScope, slugOf } from "./common.js";
import { repoById } from "./records.js";
import { assertNoClash } from "./repos.js";
import { resolveRepoPath } from "./resolve.js";

/** The shortest cleanup window, so a client always has a moment of 500s to survive. */
export const FORK_CLEANUP_MIN_MS = 300;

/** An armed fork failure: for a project slug (or null: any), of a parent organization (or any). */
interface ArmedFailure {
  slug: string | null;
  parentOrgId: number | undefined;
}

/** Armed one-shot fork failures per server. */
const armed = new WeakMap<ServerContext, ArmedFailure[]>();

/**
 * Make the next fork request (of `projectSlug`, or of any project) fail on the "git host"
 * after validation, starting that project's cleanup window. With `parentOrgId`, only a
 * fork into a project of that parent organization (the /_control caller's) is struck.
 */
export function armForkFailure(
  ctx: ServerContext,
  projectSlug?: string,
  parentOrgId?: number,
): void {
  const list = armed.get(ctx) ?? [];
  list.push({ slug: projectSlug ?? null, parentOrgId });
  armed.set(ctx, list);
}

function takeArmed(ctx: ServerContext, project: ProjectRow): boolean {
  const list = armed.get(ctx);
  const i =
    list?.findIndex(
      (a) =>
        (a.slug === null || a.slug === project.slug) &&
        (a.parentOrgId === undefined || a.parentOrgId === project.parent_org_id),
    ) ?? -1;
  if (i < 0) return false;
  list!.splice(i, 1);
  return true;
}

function cleanupWindowMs(ctx: ServerContext): number {
  return Math.max(ctx.queueDelayMs, FORK_CLEANUP_MIN_MS);
}

/** 500 FORK_CLEANUP while the project's failed fork is being cleaned up. */
function refuseDuringCleanup(ctx: ServerContext, project: ProjectRow): void {
  const row = ctx.db.get<{ until: string }>(
    "SELECT until FROM fork_cleanups WHERE project_id = ?",
    project.id,
  );
  if (!row) return;
  const left = Date.parse(row.until) - ctx.now();
  if (left <= 0) {
    ctx.db.run("DELETE FROM fork_cleanups WHERE project_id = ?", project.id);
    return;
  }
  throw new HttpError(
    "FORK_CLEANUP",
    `a failed fork is being cleaned up in project ${project.slug}; retry later`,
    undefined,
    { "retry-after": String(Math.max(1, Math.ceil(left / 1000))) },
  );
}

export const forkHandlers = defineHandlers({
  "git.fork": (ctx, { caller, params, body }) => {
    refuseDuringCleanup(ctx, requireProject(ctx, caller, params.projectSlug));
    const s = requireScope(ctx, caller, params.projectSlug);
    const path = parseHostRepoUrl(ctx.gitHost, body.repoPathFrom.trim());
    if (path === undefined) {
      throw ruleViolated(
        `${body.repoPathFrom} is not a clone URL of ${ctx.gitHost} (ssh://git@${ctx.gitHost}/… or https://${ctx.gitHost}/…)`,
        "repoPathFrom",
      );
    }
    const src = resolveRepoPath(ctx, caller.parentOrgId, path);
    if (!src) throw notFound(`repository ${body.repoPathFrom}`);
    if (src.repo.enable_forking !== 1) {
      throw ruleViolated(`forking is disabled on ${body.repoPathFrom}`, "repoPathFrom");
    }
    const sub = requirePlacement(ctx, s, body.repoPathNew);
    const name = body.name ?? src.repo.name;
    const slug = body.name === undefined ? src.repo.slug : slugOf(body.name);
    assertNoClash(ctx, s, sub?.id ?? null, name, slug);

    if (takeArmed(ctx, s.project)) {
      const until = isoNow(ctx.now() + cleanupWindowMs(ctx));
      ctx.db.run(
        `INSERT INTO fork_cleanups (project_id, until) VALUES (?, ?)
         ON CONFLICT (project_id) DO UPDATE SET until = excluded.until`,
        s.project.id,
        until,
      );
      throw new HttpError(
        "INTERNAL",
        `the fork of ${body.repoPathFrom} went wrong on the git host; retry later`,
      );
    }

    const id = ctx.db.tx(() => {
      const r = src.repo;
      const newId = Number(
        ctx.db.run(
          `INSERT INTO repositories (group_id, subgroup_id, name, slug, status, issue_tracking,
             merge_requests, requires_dco, enable_lfs, enable_forking, source_repo_id, created,
             last_push, size_bytes)
           VALUES (?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          s.group.id,
          sub?.id ?? null,
          name,
          slug,
          r.issue_tracking,
          r.merge_requests,
          r.requires_dco,
          r.enable_lfs,
          r.enable_forking,
          r.id,
          isoNow(ctx.now()),
          r.last_push,
          r.size_bytes,
        ).lastInsertRowid,
      );
      // A fork holds the source's history, so commit lookups and the sha search find it too.
      ctx.db.run(
        `INSERT INTO commits (repo_id, sha, refs, title, message, author_name, author_email,
           committer_name, committer_email, created, parent_ids)
         SELECT ?, sha, refs, title, message, author_name, author_email, committer_name,
           committer_email, created, parent_ids FROM commits WHERE repo_id = ?`,
        newId,
        r.id,
      );
      return newId;
    });
    return ok(repoById(ctx, s, id), `forked from repository ${src.repo.id}`, 201);
  },
});
