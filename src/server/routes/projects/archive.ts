/**
 * Project archiving: archive a project, list the archived projects of the parent
 * organization, and restore one. Archiving keeps every row (git group, access, licenses);
 * it only moves the status, so a restore gives back exactly what was archived.
 */
import type { Static } from "@sinclair/typebox";
import type { ArchivedProject } from "../../../api/schemas.js";
import { defineHandlers, ok } from "../../context.js";
import { conflict, ruleViolated } from "../../errors.js";
import { isoNow } from "../../store/db.js";
import { findProject, requireProject } from "../../store/lookups.js";
import { projectById, projectDetail, type ProjectWithOrg } from "./records.js";
import { checkNewSlug } from "./rules.js";

function archivedRecord(p: ProjectWithOrg): Static<typeof ArchivedProject> {
  return {
    projectSlug: p.slug,
    name: p.name,
    organization: p.org_name,
    archivedAt: p.archived_at ?? p.created,
  };
}

const withOrg = `SELECT p.*, o.name AS org_name FROM projects p JOIN organizations o ON o.id = p.org_id`;

export const archiveHandlers = defineHandlers({
  "projects.archive": (ctx, { caller, params }) => {
    const p = requireProject(ctx, caller, params.projectSlug);
    if (p.status === "archived") throw conflict(`project ${p.slug} is already archived`);
    ctx.db.run(
      "UPDATE projects SET status = 'archived', archived_at = ? WHERE id = ?",
      isoNow(ctx.now()),
      p.id,
    );
    const row = ctx.db.get<ProjectWithOrg>(`${withOrg} WHERE p.id = ?`, p.id)!;
    return ok(archivedRecord(row), `project ${p.slug} archived`, 201);
  },

  // The path names a project of the parent organization (404 otherwise, like every
  // /v1/projects/{slug} path); the list is every archived project of the parent.
  "projects.archived": (ctx, { caller, params }) => {
    requireProject(ctx, caller, params.projectSlug);
    return ok(
      ctx.db
        .all<ProjectWithOrg>(
          `${withOrg} WHERE p.parent_org_id = ? AND p.status = 'archived'
           ORDER BY p.archived_at, p.slug`,
          caller.parentOrgId,
        )
        .map(archivedRecord),
    );
  },

  /**
   * `oldproject` is the archived project; the path slug is the slug it has once restored.
   * The same slug restores it in place; another (free) slug restores it under that slug.
   */
  "projects.restore": (ctx, { caller, params, body }) => {
    const old = findProject(ctx, caller, body.oldproject);
    if (!old || old.status !== "archived") {
      throw ruleViolated(`project ${body.oldproject} is not an archived project`, "oldproject");
    }
    const slug = params.projectSlug;
    if (slug !== old.slug) checkNewSlug(ctx, slug);
    ctx.db.run(
      "UPDATE projects SET slug = ?, status = 'active', archived_at = NULL WHERE id = ?",
      slug,
      old.id,
    );
    return ok(
      projectDetail(ctx, projectById(ctx, old.id)),
      `project ${old.slug} restored as ${slug}`,
    );
  },
});
