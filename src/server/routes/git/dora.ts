/**
 * The git host's delivery-metrics (DORA) API under /git-api (PRIVATE-TOKEN). A "project"
 * there is a repository (numeric gitRepoID or its URL-encoded path), a "group" the project
 * group or a subgroup (numeric id or path). Values are derived from the seeded pipelines of
 * the owning service project, so they are deterministic:
 * - deployment_frequency: successful pipelines ("deployments");
 * - change_failure_rate: failed / (successful + failed);
 * - lead_time_for_changes: median duration (s) of the successful pipelines;
 * - time_to_restore_service: median seconds from a failed pipeline to the next success.
 * Monthly and all intervals: totals for the frequency, the ratio over the period for the
 * failure rate, and the median of the daily medians (days with data) for the two medians.
 */
import type { Static } from "@sinclair/typebox";
import type { DoraPoint } from "../../../api/schemas.js";
import type { Caller, ServerContext } from "../../context.js";
import { defineHandlers, type QueryOf } from "../../context.js";
import { notFound, ruleViolated } from "../../errors.js";
import { PIPELINE_FAILED, PIPELINE_SUCCESS, type PipelineRow } from "../projects/pipelines.js";
import { resolveGroupPath, resolveRepoPath } from "./resolve.js";

type DoraQuery = QueryOf<"dora.project">;
type Metric = DoraQuery["metric"];

const DAY_MS = 86_400_000;
/** The longest range one request may cover. */
export const DORA_MAX_DAYS = 366;

interface Day {
  success: number;
  failed: number;
  durations: number[];
  restores: number[];
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const ratio = (failed: number, total: number) =>
  total === 0 ? 0 : Math.round((failed / total) * 10_000) / 10_000;

/** Path parameters may still carry %2F when the router leaves encoded slashes alone. */
function decodeId(raw: string): string {
  try {
    return raw.includes("%") ? decodeURIComponent(raw) : raw;
  } catch {
    return raw;
  }
}

/** The service project owning a git-host "project" (a repository). */
function projectOfRepo(ctx: ServerContext, caller: Caller, raw: string): number {
  const id = decodeId(raw);
  if (/^\d+$/.test(id)) {
    const row = ctx.db.get<{ project_id: number }>(
      `SELECT g.project_id FROM repositories r JOIN git_groups g ON g.id = r.group_id
       JOIN projects p ON p.id = g.project_id
       WHERE r.id = ? AND r.status != 'deleted' AND p.parent_org_id = ?`,
      Number(id),
      caller.parentOrgId,
    );
    if (row) return row.project_id;
  } else {
    const r = resolveRepoPath(ctx, caller.parentOrgId, id);
    if (r) return r.project.id;
  }
  throw notFound(`project ${id}`);
}

/** The service project owning a git-host group (the project group or a subgroup). */
function projectOfGroup(ctx: ServerContext, caller: Caller, raw: string): number {
  const id = decodeId(raw);
  if (/^\d+$/.test(id)) {
    const row = ctx.db.get<{ project_id: number }>(
      `SELECT g.project_id FROM git_groups g JOIN projects p ON p.id = g.project_id
       WHERE p.parent_org_id = ? AND (g.id = ? OR g.id = (SELECT group_id FROM subgroups WHERE id = ?))`,
      caller.parentOrgId,
      Number(id),
      Number(id),
    );
    if (row) return row.project_id;
  } else {
    const g = resolveGroupPath(ctx, caller.parentOrgId, id);
    const sub = g?.rest.join("/") ?? "";
    if (
      g &&
      (sub === "" ||
        ctx.db.get("SELECT 1 FROM subgroups WHERE group_id = ? AND path = ?", g.group.id, sub))
    )
      return g.project.id;
  }
  throw notFound(`group ${id}`);
}

function dateRange(ctx: ServerContext, q: DoraQuery): string[] {
  const today = new Date(ctx.now()).toISOString().slice(0, 10);
  const end = q.end_date ?? today;
  let start = q.start_date;
  if (start === undefined) {
    const d = new Date(`${end}T00:00:00Z`);
    d.setUTCMonth(d.getUTCMonth() - 3);
    start = d.toISOString().slice(0, 10);
  }
  const from = Date.parse(`${start}T00:00:00Z`);
  const to = Date.parse(`${end}T00:00:00Z`);
  if (from > to) throw ruleViolated(`start_date ${start} is after end_date ${end}`, "start_date");
  if ((to - from) / DAY_MS + 1 > DORA_MAX_DAYS)
    throw ruleViolated(`the range may cover at most ${DORA_MAX_DAYS} days`, "start_date");
  const days: string[] = [];
  for (let t = from; t <= to; t += DAY_MS) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/** Per-day pipeline facts of a project between two dates (inclusive). */
function collect(ctx: ServerContext, projectId: number, days: string[]): Map<string, Day> {
  const byDay = new Map<string, Day>(
    days.map((d) => [d, { success: 0, failed: 0, durations: [], restores: [] }]),
  );
  // From the first day on, to the end of time: a restore may come after the range.
  const rows = ctx.db.all<PipelineRow>(
    "SELECT * FROM pipelines WHERE project_id = ? AND created >= ? ORDER BY created, id",
    projectId,
    days[0],
  );
  let nextSuccess: string | undefined;
  for (let i = rows.length - 1; i >= 0; i--) {
    const p = rows[i];
    const day = byDay.get(p.created.slice(0, 10));
    if (p.status === PIPELINE_SUCCESS) {
      nextSuccess = p.created;
      if (day) {
        day.success++;
        day.durations.push(p.duration);
      }
    } else if (p.status === PIPELINE_FAILED && day) {
      day.failed++;
      if (nextSuccess !== undefined)
        day.restores.push(Math.round((Date.parse(nextSuccess) - Date.parse(p.created)) / 1000));
    }
  }
  return byDay;
}

function value(metric: Metric, ds: readonly Day[]): number {
  const sum = (f: (d: Day) => number) => ds.reduce((n, d) => n + f(d), 0);
  switch (metric) {
    case "deployment_frequency":
      return sum((d) => d.success);
    case "change_failure_rate":
      return ratio(
        sum((d) => d.failed),
        sum((d) => d.success + d.failed),
      );
    case "lead_time_for_changes":
      return ds.length === 1
        ? median(ds[0].durations)
        : median(ds.filter((d) => d.durations.length > 0).map((d) => median(d.durations)));
    case "time_to_restore_service":
      return ds.length === 1
        ? median(ds[0].restores)
        : median(ds.filter((d) => d.restores.length > 0).map((d) => median(d.restores)));
  }
}

/** The answer for one project's pipelines: one point per day, per month, or one in all. */
export function doraSeries(
  ctx: ServerContext,
  projectId: number,
  q: DoraQuery,
): Static<typeof DoraPoint>[] {
  const days = dateRange(ctx, q);
  const tiers = q.environment_tiers;
  // Simulated deployments all go to production.
  const byDay =
    tiers && !tiers.includes("production")
      ? new Map(days.map((d) => [d, { success: 0, failed: 0, durations: [], restores: [] }]))
      : collect(ctx, projectId, days);
  const interval = q.interval ?? "daily";
  if (interval === "daily")
    return days.map((d) => ({ date: d, value: value(q.metric, [byDay.get(d)!]) }));
  if (interval === "all") return [{ date: days[0], value: value(q.metric, [...byDay.values()]) }];
  const months = new Map<string, Day[]>();
  for (const d of days) {
    const m = `${d.slice(0, 7)}-01`;
    const list = months.get(m) ?? [];
    list.push(byDay.get(d)!);
    months.set(m, list);
  }
  return [...months].map(([date, ds]) => ({ date, value: value(q.metric, ds) }));
}

export const doraHandlers = defineHandlers({
  "dora.project": (ctx, { caller, params, query }) =>
    doraSeries(ctx, projectOfRepo(ctx, caller, params.id), query),
  "dora.group": (ctx, { caller, params, query }) =>
    doraSeries(ctx, projectOfGroup(ctx, caller, params.id), query),
});
