/**
 * The project's git group: read, create (the project must exist first; one group per
 * project; path defaults to the project slug), update, and the permanent delete that takes
 * every subgroup and repository with it (foreign-key cascade).
 */
import { defineHandlers, ok, type ServerContext } from "../../context.js";
import { conflict, ruleViolated } from "../../errors.js";
import { isoNow } from "../../store/db.js";
import { requireProject, type GroupRow, type ProjectRow } from "../../store/lookups.js";
import { namespaceOf, nextNamespaceId, requireScope } from "./common.js";
import { groupRecord } from "./records.js";

/** The slug of the project whose group already has `path` in `project`'s namespace. */
export function groupPathOwner(
  ctx: ServerContext,
  project: ProjectRow,
  path: string,
): string | undefined {
  // git_groups first: it is the smaller table, and no index helps a case-insensitive path.
  return ctx.db.get<{ slug: string }>(
    `SELECT p.slug FROM git_groups g CROSS JOIN projects p
     WHERE p.id = g.project_id AND lower(g.path) = lower(?) AND p.org_id = ? AND p.visibility = ?`,
    path,
    project.org_id,
    project.visibility,
  )?.slug;
}

/**
 * Check that a group path is free in its namespace (`<org>/[private/]`) and insert the
 * group; shared with seeding, which answers `owner` from its own index of paths.
 */
export function insertGroup(
  ctx: ServerContext,
  project: ProjectRow,
  path: string,
  requestAccessEnabled: boolean,
  enableCi: boolean,
  owner: (project: ProjectRow, path: string) => string | undefined = (p, x) =>
    groupPathOwner(ctx, p, x),
): GroupRow {
  if (path.toLowerCase() === "private") {
    // /<org>/private/ is the namespace of private projects: a group may not shadow it.
    throw ruleViolated("group path private is reserved for private projects", "path");
  }
  const taken = owner(project, path);
  if (taken !== undefined) {
    throw conflict(`group path ${path} is already used by project ${taken}`, "path");
  }
  const id = nextNamespaceId(ctx);
  ctx.db.run(
    `INSERT INTO git_groups (id, project_id, path, request_access_enabled, enable_ci, created)
     VALUES (?, ?, ?, ?, ?, ?)`,
    id,
    project.id,
    path,
    requestAccessEnabled ? 1 : 0,
    enableCi ? 1 : 0,
    isoNow(ctx.now()),
  );
  return ctx.db.get<GroupRow>("SELECT * FROM git_groups WHERE id = ?", id)!;
}

export const groupHandlers = defineHandlers({
  "git.group.get": (ctx, { caller, params }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    return ok(groupRecord(ctx, s.project, s.group, s.namespace));
  },

  "git.group.create": (ctx, { caller, params, body }) => {
    const project = requireProject(ctx, caller, params.projectSlug);
    if (ctx.db.get("SELECT 1 FROM git_groups WHERE project_id = ?", project.id)) {
      throw conflict(`project ${project.slug} already has a git group (one group per project)`);
    }
    const group = insertGroup(
      ctx,
      project,
      body.path ?? project.slug,
      body.request_access_enabled ?? false,
      body.enable_ci ?? false,
    );
    return ok(
      groupRecord(ctx, project, group, namespaceOf(ctx, project, group)),
      "git group created",
      201,
    );
  },

  "git.group.update": (ctx, { caller, params, body }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    // Absent fields stay as they are: the body has no required field to replace with.
    ctx.db.run(
      `UPDATE git_groups SET request_access_enabled = COALESCE(?, request_access_enabled),
         enable_ci = COALESCE(?, enable_ci) WHERE id = ?`,
      body.request_access_enabled === undefined ? null : Number(body.request_access_enabled),
      body.enable_ci === undefined ? null : Number(body.enable_ci),
      s.group.id,
    );
    const group = ctx.db.get<GroupRow>("SELECT * FROM git_groups WHERE id = ?", s.group.id)!;
    return ok(groupRecord(ctx, s.project, group, s.namespace), "git group updated");
  },

  "git.group.delete": (ctx, { caller, params }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    // Hard delete: subgroups, repositories (deleted ones too), their commits, blockers,
    // storage and repository bundles go with it through ON DELETE CASCADE.
    ctx.db.tx(() => ctx.db.run("DELETE FROM git_groups WHERE id = ?", s.group.id));
  },
});
