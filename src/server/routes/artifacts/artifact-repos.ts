/**
 * Handlers of a project's artifact repositories: list, create (the live name is
 * `<org>-<project_id>-<name>`, unique across the service), read, delete (with its files).
 */
import { defineHandlers, ok } from "../../context.js";
import { conflict } from "../../errors.js";
import { paged } from "../../paging.js";
import { isoNow } from "../../store/db.js";
import { requireProject } from "../../store/lookups.js";
import {
  artifactRepoRecord,
  liveRepoName,
  requireArtifactRepo,
  type ArtifactRepoRow,
} from "./artifact-records.js";

export const artifactRepoHandlers = defineHandlers({
  "artifacts.repos.list": (ctx, { caller, params, query }) => {
    const project = requireProject(ctx, caller, params.projectSlug);
    const total = ctx.db.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM artifact_repos WHERE project_id = ?",
      project.id,
    )!.n;
    return paged(query, ctx.maxPageSize, total, (limit, offset) =>
      ctx.db
        .all<ArtifactRepoRow>(
          "SELECT * FROM artifact_repos WHERE project_id = ? ORDER BY id LIMIT ? OFFSET ?",
          project.id,
          limit,
          offset,
        )
        .map((r) => artifactRepoRecord(ctx, r)),
    );
  },

  "artifacts.repos.create": (ctx, { caller, params, body }) => {
    const project = requireProject(ctx, caller, params.projectSlug);
    const short = body.name ?? project.slug;
    const name = liveRepoName(ctx, project, short);
    if (ctx.db.get("SELECT 1 FROM artifact_repos WHERE name = ?", name) !== undefined) {
      throw conflict(
        body.name === undefined
          ? `the default name ${name} (from the project slug) is already in use; a different name must be given`
          : `artifact repository name ${name} is already in use; a different name must be given`,
        "name",
      );
    }
    const id = Number(
      ctx.db.run(
        "INSERT INTO artifact_repos (project_id, name, repo_type, created) VALUES (?, ?, ?, ?)",
        project.id,
        name,
        body.repoType ?? "generic",
        isoNow(ctx.now()),
      ).lastInsertRowid,
    );
    return ok(
      artifactRepoRecord(ctx, requireArtifactRepo(ctx, project, id)),
      "artifact repository created",
      201,
    );
  },

  "artifacts.repos.get": (ctx, { caller, params }) => {
    const project = requireProject(ctx, caller, params.projectSlug);
    return ok(artifactRepoRecord(ctx, requireArtifactRepo(ctx, project, params.artifactRepoID)));
  },

  "artifacts.repos.delete": (ctx, { caller, params }) => {
    const project = requireProject(ctx, caller, params.projectSlug);
    const repo = requireArtifactRepo(ctx, project, params.artifactRepoID);
    // The files go with it (ON DELETE CASCADE).
    ctx.db.run("DELETE FROM artifact_repos WHERE id = ?", repo.id);
  },
});
