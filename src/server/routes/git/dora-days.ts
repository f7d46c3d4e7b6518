/**
 * A project's pipelines by day, as the DORA API (dora.ts) reads them: per day the
 * successful and failed pipelines, the median duration of the successful ones and the median
 * time from a failed one to the next success. Built once per project from its pipelines and
 * kept until a pipeline is added, changed or removed (the `pipelines_version` counter the
 * schema's triggers move): a report asks nine DORA questions of each of 500 projects, and
 * each used to read the project's pipelines again and sort them.
 *
 * A failed pipeline's restore is the next success after it in (created, id) order however
 * far after, so the facts of a day do not depend on the range a request asks for.
 */
import type { Db } from "../../store/db.js";
import { PIPELINE_FAILED, PIPELINE_SUCCESS } from "../projects/pipelines.js";

/** One day of a project's pipelines. */
export interface PipelineDay {
  success: number;
  failed: number;
  /** Median duration (s) of the day's successful pipelines; undefined when none. */
  lead: number | undefined;
  /** Median seconds from the day's failed pipelines to the next success; undefined when none. */
  restore: number | undefined;
}

/** A day without pipelines. */
export const EMPTY_DAY: PipelineDay = {
  success: 0,
  failed: 0,
  lead: undefined,
  restore: undefined,
};

/** The median of `xs` (0 for none): the DORA API's, also for a day's values. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

interface Cache {
  version: number;
  projects: Map<number, ReadonlyMap<string, PipelineDay>>;
}

const caches = new WeakMap<Db, Cache>();

interface Row {
  status: string;
  created: string;
}

function build(db: Db, projectId: number): ReadonlyMap<string, PipelineDay> {
  const rows = db.all<Row & { duration: number }>(
    "SELECT status, created, duration FROM pipelines WHERE project_id = ? ORDER BY created, id",
    projectId,
  );
  const facts = new Map<string, { success: number; failed: number; d: number[]; r: number[] }>();
  let nextSuccess: string | undefined;
  for (let i = rows.length - 1; i >= 0; i--) {
    const p = rows[i];
    if (p.status !== PIPELINE_SUCCESS && p.status !== PIPELINE_FAILED) continue;
    const key = p.created.slice(0, 10);
    let day = facts.get(key);
    if (!day) facts.set(key, (day = { success: 0, failed: 0, d: [], r: [] }));
    if (p.status === PIPELINE_SUCCESS) {
      nextSuccess = p.created;
      day.success++;
      day.d.push(p.duration);
    } else {
      day.failed++;
      if (nextSuccess !== undefined)
        day.r.push(Math.round((Date.parse(nextSuccess) - Date.parse(p.created)) / 1000));
    }
  }
  const out = new Map<string, PipelineDay>();
  for (const [key, f] of facts) {
    // The arrays were filled newest first; the medians sort, so their order does not matter.
    out.set(key, {
      success: f.success,
      failed: f.failed,
      lead: f.d.length > 0 ? median(f.d) : undefined,
      restore: f.r.length > 0 ? median(f.r) : undefined,
    });
  }
  return out;
}

/** The days of project `projectId` that have pipelines (a missing day has none). */
export function pipelineDays(db: Db, projectId: number): ReadonlyMap<string, PipelineDay> {
  const { version } = db.get<{ version: number }>("SELECT version FROM pipelines_version")!;
  let cache = caches.get(db);
  if (!cache || cache.version !== version) {
    cache = { version, projects: new Map() };
    caches.set(db, cache);
  }
  let days = cache.projects.get(projectId);
  if (!days) {
    days = build(db, projectId);
    cache.projects.set(projectId, days);
  }
  return days;
}
