/**
 * Persistent CI storage of a repository. Enabling creates a filesystem whose id is the
 * persistent_storage row id; stopping removes it. The systems endpoints look a filesystem
 * up (→ `{repo_id}`) and set its status; both stay inside the caller's parent organization.
 */
import type { Caller, ServerContext } from "../../context.js";
import { defineHandlers, statusOnly } from "../../context.js";
import { conflict, notFound, ruleViolated } from "../../errors.js";
import { isoNow } from "../../store/db.js";
import { requireLiveRepo, requireScope } from "./common.js";

/** Create a repository's filesystem; returns its id (shared with seeding). */
export function insertStorage(ctx: ServerContext, repoId: number, status = "active"): number {
  return Number(
    ctx.db.run(
      "INSERT INTO persistent_storage (repo_id, status, created) VALUES (?, ?, ?)",
      repoId,
      status,
      isoNow(ctx.now()),
    ).lastInsertRowid,
  );
}

function requireFilesystem(ctx: ServerContext, caller: Caller, id: number) {
  const row = ctx.db.get<{ id: number; repo_id: number }>(
    `SELECT ps.id, ps.repo_id FROM persistent_storage ps
     JOIN repositories r ON r.id = ps.repo_id
     JOIN git_groups g ON g.id = r.group_id
     JOIN projects p ON p.id = g.project_id
     WHERE ps.id = ? AND p.parent_org_id = ?`,
    id,
    caller.parentOrgId,
  );
  if (!row) throw notFound(`persistent storage filesystem ${id}`);
  return row;
}

export const storageHandlers = defineHandlers({
  "storage.enable": (ctx, { caller, params }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    const repo = requireLiveRepo(ctx, s, params.repoID);
    const existing = ctx.db.get<{ id: number }>(
      "SELECT id FROM persistent_storage WHERE repo_id = ?",
      repo.id,
    );
    if (existing) {
      throw conflict(
        `repository ${repo.id} already has persistent storage (filesystem ${existing.id})`,
      );
    }
    const id = insertStorage(ctx, repo.id);
    return statusOnly(`persistent storage set up for repository ${repo.id}: filesystem ${id}`, 201);
  },

  "storage.disable": (ctx, { caller, params }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    const repo = requireLiveRepo(ctx, s, params.repoID);
    const r = ctx.db.run("DELETE FROM persistent_storage WHERE repo_id = ?", repo.id);
    if (r.changes === 0) throw notFound(`persistent storage of repository ${repo.id}`);
    return statusOnly(`persistent storage of repository ${repo.id} stopped`);
  },

  "storage.lookup": (ctx, { caller, params }) => ({
    repo_id: requireFilesystem(ctx, caller, params.filesystemId).repo_id,
  }),

  "storage.updateStatus": (ctx, { caller, params, body }) => {
    const fs = requireFilesystem(ctx, caller, params.filesystemId);
    if (fs.repo_id !== body.repoID) {
      throw ruleViolated(
        `filesystem ${fs.id} belongs to repository ${fs.repo_id}, not ${body.repoID}`,
        "repoID",
      );
    }
    ctx.db.run("UPDATE persistent_storage SET status = ? WHERE id = ?", body.status, fs.id);
    return statusOnly(`filesystem ${fs.id} is now ${body.status}`);
  },
});
