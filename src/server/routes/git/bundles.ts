/**
 * CI bundles: one project bundle per project and one bundle per repository (there is no
 * API to change or remove one, so a second create is a 409 rather than a duplicate), the
 * list, one bundle, its latest 10 pipelines, and one bundle pipeline.
 */
import { defineHandlers, ok, type ServerContext } from "../../context.js";
import { conflict, notFound } from "../../errors.js";
import { isoNow } from "../../store/db.js";
import { requireProject, type ProjectRow } from "../../store/lookups.js";
import { requireLiveRepo, requireScope } from "./common.js";
import { pipelineRecord, type PipelineRow } from "../projects/pipelines.js";
import { bundleRecord, type BundleRow } from "./records.js";

/** Latest pipelines answered per bundle (spec, Limits). */
export const BUNDLE_PIPELINES = 10;

/** Insert a bundle (repoId null = the project bundle); shared with seeding. */
export function insertBundle(
  ctx: ServerContext,
  project: ProjectRow,
  repoId: number | null,
  frequency: string,
): BundleRow {
  const existing = ctx.db.get<{ id: number }>(
    "SELECT id FROM bundles WHERE project_id = ? AND IFNULL(repo_id, 0) = ?",
    project.id,
    repoId ?? 0,
  );
  if (existing) {
    throw conflict(
      `${repoId === null ? `project ${project.slug}` : `repository ${repoId}`} already has a bundle (id ${existing.id})`,
    );
  }
  const id = Number(
    ctx.db.run(
      "INSERT INTO bundles (project_id, repo_id, frequency, created) VALUES (?, ?, ?, ?)",
      project.id,
      repoId,
      frequency,
      isoNow(ctx.now()),
    ).lastInsertRowid,
  );
  return ctx.db.get<BundleRow>("SELECT * FROM bundles WHERE id = ?", id)!;
}

function requireBundle(ctx: ServerContext, project: ProjectRow, id: number): BundleRow {
  const b = ctx.db.get<BundleRow>(
    "SELECT * FROM bundles WHERE id = ? AND project_id = ?",
    id,
    project.id,
  );
  if (!b) throw notFound(`bundle ${id} of project ${project.slug}`);
  return b;
}

export const bundleHandlers = defineHandlers({
  "bundles.list": (ctx, { caller, params }) => {
    const project = requireProject(ctx, caller, params.projectSlug);
    return ok(
      ctx.db
        .all<BundleRow>("SELECT * FROM bundles WHERE project_id = ? ORDER BY id", project.id)
        .map((b) => bundleRecord(b, project.slug)),
    );
  },

  "bundles.createProject": (ctx, { caller, params, body }) => {
    const project = requireProject(ctx, caller, params.projectSlug);
    const b = insertBundle(ctx, project, null, body.frequency);
    return ok(bundleRecord(b, project.slug), "project bundle created", 201);
  },

  "bundles.createRepo": (ctx, { caller, params, body }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    const repo = requireLiveRepo(ctx, s, params.repoID);
    const b = insertBundle(ctx, s.project, repo.id, body.frequency);
    return ok(bundleRecord(b, s.project.slug), "repository bundle created", 201);
  },

  "bundles.get": (ctx, { caller, params }) => {
    const project = requireProject(ctx, caller, params.projectSlug);
    return ok(bundleRecord(requireBundle(ctx, project, params.bundleId), project.slug));
  },

  "bundles.pipelines": (ctx, { caller, params }) => {
    const project = requireProject(ctx, caller, params.projectSlug);
    const b = requireBundle(ctx, project, params.bundleId);
    return ok(
      ctx.db
        .all<PipelineRow>(
          "SELECT * FROM pipelines WHERE bundle_id = ? ORDER BY created DESC, id DESC LIMIT ?",
          b.id,
          BUNDLE_PIPELINES,
        )
        .map(pipelineRecord),
    );
  },

  "bundles.pipeline": (ctx, { caller, params }) => {
    const project = requireProject(ctx, caller, params.projectSlug);
    const p = ctx.db.get<PipelineRow>(
      "SELECT * FROM pipelines WHERE id = ? AND project_id = ? AND bundle_id IS NOT NULL",
      params.pipelineId,
      project.id,
    );
    if (!p) throw notFound(`bundle pipeline ${params.pipelineId} of project ${project.slug}`);
    return ok(pipelineRecord(p));
  },
});
