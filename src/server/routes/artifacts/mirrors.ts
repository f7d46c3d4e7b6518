/**
 * Handlers of a project's git mirrors: list (filters, order, paging), create, read, update,
 * delete, and enabling or disabling selected or all mirrors with a note. None is queued: the
 * spec gives these operations no queue id.
 */
import { defineHandlers, ok, type ServerContext } from "../../context.js";
import { badRequest, conflict, notFound, ruleViolated } from "../../errors.js";
import { paged } from "../../paging.js";
import { isoNow } from "../../store/db.js";
import { requireProject, type ProjectRow } from "../../store/lookups.js";
import {
  MIRROR_FREQUENCIES,
  MIRROR_STATUSES,
  mirrorRecord,
  mirrorUrlProblem,
  requireMirror,
  type MirrorRow,
} from "./mirror-records.js";

/**
 * A comma-separated filter value as a JSON list for `json_each` (one SQL text whatever the
 * number of values, so the statement cache stays small); null when no filter is given.
 */
function listFilter(
  field: string,
  value: string | undefined,
  allowed: readonly string[],
): string | null {
  if (value === undefined) return null;
  const items = value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (items.length === 0) return null;
  const unknown = items.filter((s) => !allowed.includes(s));
  if (unknown.length > 0) {
    throw badRequest(
      `${field} must be a comma-separated list of ${allowed.join(", ")}; unknown: ${unknown.join(", ")}`,
      field,
    );
  }
  return JSON.stringify(items);
}

const LIST_WHERE = `project_id = @project
  AND (@status IS NULL OR status IN (SELECT value FROM json_each(@status)))
  AND (@frequency IS NULL OR frequency IN (SELECT value FROM json_each(@frequency)))
  AND (@statusCode IS NULL OR status_code = @statusCode)`;

/** Set `enabled` and the note on the given mirrors (all of the project when `ids` is null). */
function setEnabled(
  ctx: ServerContext,
  project: ProjectRow,
  ids: number[] | null,
  enabled: boolean,
  notes: string,
): MirrorRow[] {
  const idList = ids === null ? null : JSON.stringify([...new Set(ids)]);
  if (idList !== null) {
    const rows = ctx.db.all<Pick<MirrorRow, "id">>(
      "SELECT id FROM mirrors WHERE project_id = ? AND id IN (SELECT value FROM json_each(?))",
      project.id,
      idList,
    );
    const found = new Set(rows.map((r) => r.id));
    const unknown = [...new Set(ids)].filter((id) => !found.has(id));
    if (unknown.length > 0) {
      throw ruleViolated(
        `mirror${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} ${unknown.length > 1 ? "do" : "does"} not belong to project ${project.slug}; nothing was changed`,
        "mirrorIds",
      );
    }
  }
  const scope =
    "project_id = @project AND (@ids IS NULL OR id IN (SELECT value FROM json_each(@ids)))";
  const where = { project: project.id, ids: idList };
  ctx.db.run(`UPDATE mirrors SET enabled = @enabled, notes = @notes WHERE ${scope}`, {
    ...where,
    enabled: enabled ? 1 : 0,
    notes,
  });
  return ctx.db.all<MirrorRow>(`SELECT * FROM mirrors WHERE ${scope} ORDER BY id`, where);
}

function bulkAnswer(rows: MirrorRow[], enabled: boolean) {
  return ok(
    rows.map(mirrorRecord),
    `${rows.length} mirror${rows.length === 1 ? "" : "s"} ${enabled ? "enabled" : "disabled"}`,
  );
}

export const mirrorHandlers = defineHandlers({
  "mirrors.list": (ctx, { caller, params, query }) => {
    const project = requireProject(ctx, caller, params.projectSlug);
    const where = {
      project: project.id,
      status: listFilter("status", query.status, MIRROR_STATUSES),
      frequency: listFilter("frequency", query.frequency, MIRROR_FREQUENCIES),
      statusCode: query.statusCode ?? null,
    };
    const total = ctx.db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM mirrors WHERE ${LIST_WHERE}`,
      where,
    )!.n;
    const dir = query.order === "desc" ? "DESC" : "ASC";
    return paged(query, ctx.maxPageSize, total, (limit, offset) =>
      ctx.db
        .all<MirrorRow>(
          `SELECT * FROM mirrors WHERE ${LIST_WHERE} ORDER BY created ${dir}, id ${dir} LIMIT @limit OFFSET @offset`,
          { ...where, limit, offset },
        )
        .map(mirrorRecord),
    );
  },

  "mirrors.create": (ctx, { caller, params, body }) => {
    const project = requireProject(ctx, caller, params.projectSlug);
    const problem = mirrorUrlProblem(body.repoURLFrom, body.repoURLTo);
    if (problem) throw ruleViolated(problem[1], problem[0]);
    const twin = ctx.db.get<{ id: number }>(
      "SELECT id FROM mirrors WHERE project_id = ? AND repo_url_from = ? AND repo_url_to = ?",
      project.id,
      body.repoURLFrom,
      body.repoURLTo,
    );
    if (twin) {
      throw conflict(
        `project ${project.slug} already has mirror ${twin.id} from ${body.repoURLFrom} to ${body.repoURLTo}`,
        "repoURLTo",
      );
    }
    const id = Number(
      ctx.db.run(
        `INSERT INTO mirrors (project_id, repo_url_from, repo_url_to, ref_space_from, ref_space_to,
           frequency, exclude_tags, notification_emails, status, enabled, created)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', 1, ?)`,
        project.id,
        body.repoURLFrom,
        body.repoURLTo,
        body.refSpaceFrom,
        body.refSpaceTo,
        body.frequency,
        body.excludeTags === true ? 1 : 0,
        JSON.stringify(body.notificationEmails ?? []),
        isoNow(ctx.now()),
      ).lastInsertRowid,
    );
    return ok(mirrorRecord(requireMirror(ctx, project, id)), "mirror created", 201);
  },

  "mirrors.get": (ctx, { caller, params, query }) => {
    const project = requireProject(ctx, caller, params.projectSlug);
    const m = requireMirror(ctx, project, params.mirrorID);
    if (query.status !== undefined && m.status !== query.status) {
      // The status query is a condition of the read: a mirror in another status is not found.
      throw notFound(`mirror ${m.id} of project ${project.slug} with status ${query.status}`);
    }
    return ok(mirrorRecord(m));
  },

  "mirrors.update": (ctx, { caller, params, body }) => {
    const project = requireProject(ctx, caller, params.projectSlug);
    const m = requireMirror(ctx, project, params.mirrorID);
    ctx.db.run(
      "UPDATE mirrors SET frequency = ?, status = ?, exclude_tags = ? WHERE id = ?",
      body.frequency ?? m.frequency,
      body.status ?? m.status,
      body.excludeTags === undefined ? m.exclude_tags : body.excludeTags ? 1 : 0,
      m.id,
    );
    return ok(mirrorRecord(requireMirror(ctx, project, m.id)), "mirror updated");
  },

  "mirrors.delete": (ctx, { caller, params }) => {
    const project = requireProject(ctx, caller, params.projectSlug);
    const m = requireMirror(ctx, project, params.mirrorID);
    ctx.db.run("DELETE FROM mirrors WHERE id = ?", m.id);
  },

  "mirrors.enableSelected": (ctx, { caller, params, body }) =>
    bulkAnswer(
      setEnabled(
        ctx,
        requireProject(ctx, caller, params.projectSlug),
        body.mirrorIds,
        true,
        body.notes,
      ),
      true,
    ),
  "mirrors.disableSelected": (ctx, { caller, params, body }) =>
    bulkAnswer(
      setEnabled(
        ctx,
        requireProject(ctx, caller, params.projectSlug),
        body.mirrorIds,
        false,
        body.notes,
      ),
      false,
    ),
  "mirrors.enableAll": (ctx, { caller, params, body }) =>
    bulkAnswer(
      setEnabled(ctx, requireProject(ctx, caller, params.projectSlug), null, true, body.notes),
      true,
    ),
  "mirrors.disableAll": (ctx, { caller, params, body }) =>
    bulkAnswer(
      setEnabled(ctx, requireProject(ctx, caller, params.projectSlug), null, false, body.notes),
      false,
    ),
});
