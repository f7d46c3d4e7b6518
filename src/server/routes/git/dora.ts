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
import { EMPTY_DAY, median, pipelineDays, type PipelineDay } from "./dora-days.js";
import { resolveGroupPath, resolveRepoPath } from "./resolve.js";

type DoraQuery = QueryOf<"dora.project">;
type Metric = DoraQuery["metric"];

const DAY_MS = 86_400_000;
/** The longest range one request may cover. */
export const DORA_MAX_DAYS = 366;

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

function value(metric: Metric, ds: readonly PipelineDay[]): number {
  const sum = (f: (d: PipelineDay) => number) => ds.reduce((n, d) => n + f(d), 0);
  const medians = (f: (d: PipelineDay) => number | undefined) =>
    median(ds.map(f).filter((v): v is number => v !== undefined));
  switch (metric) {
    case "deployment_frequency":
      return sum((d) => d.success);
    case "change_failure_rate":
      return ratio(
        sum((d) => d.failed),
        sum((d) => d.success + d.failed),
      );
    case "lead_time_for_changes":
      return medians((d) => d.lead);
    case "time_to_restore_service":
      return medians((d) => d.restore);
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
  const byDay: ReadonlyMap<string, PipelineDay> =
    tiers && !tiers.includes("production") ? new Map() : pipelineDays(ctx.db, projectId);
  const dayOf = (d: string) => byDay.get(d) ?? EMPTY_DAY;
  const interval = q.interval ?? "daily";
  if (interval === "daily")
    return days.map((d) => ({ date: d, value: value(q.metric, [dayOf(d)]) }));
  if (interval === "all") return [{ date: days[0], value: value(q.metric, days.map(dayOf)) }];
  const months = new Map<string, PipelineDay[]>();
  for (const d of days) {
    const m = `${d.slice(0, 7)}-01`;
    const list = months.get(m) ?? [];
    list.push(dayOf(d));
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
