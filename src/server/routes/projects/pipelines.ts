/**
 * CI pipelines of a project and their jobs (read-only: pipelines come from seeding), and the
 * two CI metrics. Date filters bound `created` (strict dates, dates.ts); a date without a
 * time covers its whole day.
 */
import type { Static } from "@sinclair/typebox";
import type { Pipeline, PipelineJob } from "../../../api/schemas.js";
import { defineHandlers, type Caller, type ServerContext } from "../../context.js";
import { endOfDay, requireDate } from "../../dates.js";
import { pageWindow } from "../../paging.js";
import { badRequest, notFound } from "../../errors.js";
import { requireProject } from "../../store/lookups.js";

/** The status a pipeline has when it succeeded, and when it failed (the git host's words). */
export const PIPELINE_SUCCESS = "success";
export const PIPELINE_FAILED = "failed";

/** A pipelines row (also read by the git section: bundles' pipelines, DORA metrics). */
export interface PipelineRow {
  id: number;
  project_id: number;
  bundle_id: number | null;
  status: string;
  ref: string;
  sha: string;
  created: string;
  finished: string | null;
  duration: number;
}

interface JobRow {
  id: number;
  pipeline_id: number;
  name: string;
  stage: string;
  status: string;
  duration: number;
  created: string;
}

export function pipelineRecord(r: PipelineRow): Static<typeof Pipeline> {
  return {
    id: r.id,
    status: r.status,
    ref: r.ref,
    sha: r.sha,
    createdAt: r.created,
    finishedAt: r.finished,
    duration: r.duration,
    bundleId: r.bundle_id,
  };
}

/** A query bound as an ISO timestamp comparable with stored ones; 400 naming the field if not a date. */
function bound(value: string | undefined, field: string, end: boolean): string | undefined {
  if (value === undefined) return undefined;
  const date = requireDate(value, field);
  return new Date(end ? endOfDay(date) : date.ms).toISOString();
}

interface Range {
  startDate?: string;
  endDate?: string;
}

/** SQL condition and arguments for `created` within the range. */
function rangeSql(column: string, q: Range): { sql: string; args: string[] } {
  const from = bound(q.startDate, "startDate", false);
  const to = bound(q.endDate, "endDate", true);
  if (from && to && from > to) throw badRequest("must not be after endDate", "startDate");
  const sql: string[] = [];
  const args: string[] = [];
  if (from) {
    sql.push(`${column} >= ?`);
    args.push(from);
  }
  if (to) {
    sql.push(`${column} <= ?`);
    args.push(to);
  }
  return { sql: sql.map((s) => ` AND ${s}`).join(""), args };
}

/** Pipelines of a project in the range, newest first; `limit` -1 = all. */
function pipelines(
  ctx: ServerContext,
  caller: Caller,
  slug: string,
  q: Range,
  limit = -1,
  offset = 0,
): PipelineRow[] {
  const p = requireProject(ctx, caller, slug);
  const r = rangeSql("created", q);
  return ctx.db.all<PipelineRow>(
    `SELECT * FROM pipelines WHERE project_id = ?${r.sql} ORDER BY created DESC, id DESC LIMIT ? OFFSET ?`,
    p.id,
    ...r.args,
    limit,
    offset,
  );
}

export const pipelineHandlers = defineHandlers({
  // The answer is a plain array: without page/limit every pipeline in the range, else one
  // page of `limit` (default 10, clamped to the server's maximum page size).
  "pipelines.list": (ctx, { caller, params, query }) => {
    if (query.page === undefined && query.limit === undefined)
      return pipelines(ctx, caller, params.projectSlug, query).map(pipelineRecord);
    const w = pageWindow(query, ctx.maxPageSize);
    return pipelines(ctx, caller, params.projectSlug, query, w.limit, w.offset).map(pipelineRecord);
  },

  "pipelines.jobs": (ctx, { caller, params, query }) => {
    const p = requireProject(ctx, caller, params.projectSlug);
    const pipeline = ctx.db.get<{ id: number }>(
      "SELECT id FROM pipelines WHERE id = ? AND project_id = ?",
      params.pipelinesid,
      p.id,
    );
    if (!pipeline) throw notFound(`pipeline ${params.pipelinesid} of project ${p.slug}`);
    const r = rangeSql("created", query);
    return ctx.db
      .all<JobRow>(
        `SELECT * FROM pipeline_jobs WHERE pipeline_id = ?${r.sql} ORDER BY id`,
        pipeline.id,
        ...r.args,
      )
      .map((j): Static<typeof PipelineJob> => ({
        id: j.id,
        pipelineId: j.pipeline_id,
        name: j.name,
        stage: j.stage,
        status: j.status,
        duration: j.duration,
        createdAt: j.created,
      }));
  },

  "metrics.pipelines": (ctx, { caller, params, query }) =>
    pipelines(ctx, caller, params.projectSlug, query).map(pipelineRecord),

  // One element: the spec answers an array, and the range is the only grouping it names.
  "metrics.pipelineCounts": (ctx, { caller, params, query }) => {
    const rows = pipelines(ctx, caller, params.projectSlug, query);
    return [
      {
        totalDuration: rows.reduce((n, r) => n + r.duration, 0),
        successful: rows.filter((r) => r.status === PIPELINE_SUCCESS).length,
        failed: rows.filter((r) => r.status === PIPELINE_FAILED).length,
        total: rows.length,
      },
    ];
  },
});
