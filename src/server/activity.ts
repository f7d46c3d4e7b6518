/**
 * Synthetic activity for a seeded organization (`activity:` of a seed document), so that
 * reports have something worth looking at: each user with no last login gets one spread
 * over the past year (about one in ten never logs in), and each project with no pipelines
 * gets pipelines over the last `days` days — a rate of its own (some projects run none),
 * failures in runs that the next success restores, durations of minutes to an hour. The
 * DORA API (routes/git/dora.ts) derives its series from these pipelines.
 *
 * Deterministic: every value comes from a PRNG seeded by `seed` and the object's name, and
 * times are relative to the server's clock. Applied to what exists when the seed runs
 * (after the document's own objects), within its parent organization only.
 */
import { createHash } from "node:crypto";
import type { ServerContext } from "./context.js";
import { PIPELINE_FAILED, PIPELINE_SUCCESS } from "./routes/projects/pipelines.js";
import { prng } from "./faults.js";

/** `activity:` of a seed document. */
export interface SeedActivity {
  /** Seed of the generator: the same seed, names and clock give the same activity. */
  seed: number;
  /** Days of pipelines before now (default 90). */
  days?: number;
}

const DAY_MS = 86_400_000;

/** The seeded generator the fault injection uses too (one mulberry32). */
export { prng };

/** A generator for one named object under a seed. */
export function prngFor(seed: number, name: string): () => number {
  const h = createHash("sha1").update(`${seed}:${name}`).digest();
  return prng(h.readUInt32LE(0));
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** A last login for `username`, or null (never). */
export function lastLoginOf(seed: number, username: string, nowMs: number): string | null {
  const r = prngFor(seed, `login:${username}`);
  const x = r();
  if (x < 0.1) return null;
  // Most users log in within the month; a tail of dormant ones up to a year back.
  const days = x < 0.65 ? r() * 30 : x < 0.85 ? 30 + r() * 60 : 90 + r() * 275;
  return iso(nowMs - days * DAY_MS - r() * 3_600_000);
}

/** One synthetic pipeline. */
export interface SyntheticPipeline {
  status: string;
  created: string;
  duration: number;
}

/** The pipelines of `slug` over `days` days before `nowMs`, oldest first. */
export function pipelinesOf(
  seed: number,
  slug: string,
  nowMs: number,
  days: number,
): SyntheticPipeline[] {
  const r = prngFor(seed, `pipelines:${slug}`);
  // About one project in eight runs no pipeline at all ("no data" in reports).
  if (r() < 0.125) return [];
  const perDay = 0.3 + r() * 5;
  const failRate = 0.03 + r() * 0.25;
  const typical = 120 + r() * 1500;
  const out: SyntheticPipeline[] = [];
  const start = nowMs - days * DAY_MS;
  let failing = false;
  for (let t = start; t < nowMs;) {
    // Exponential gaps: a Poisson process of perDay runs a day.
    t += (-Math.log(1 - r()) / perDay) * DAY_MS;
    if (t >= nowMs) break;
    // Failures come in short runs: a failed pipeline is more likely after a failed one.
    failing = r() < (failing ? 0.35 : failRate);
    const duration = Math.round(typical * (0.5 + r() * r() * 3));
    out.push({ status: failing ? PIPELINE_FAILED : PIPELINE_SUCCESS, created: iso(t), duration });
  }
  return out;
}

/** Fill in the activity of the parent organization `parentOrgId`; counts what it added. */
export function seedActivity(
  ctx: ServerContext,
  a: SeedActivity,
  parentOrgId: number,
  counts: Record<string, number>,
): void {
  const now = ctx.now();
  const users = ctx.db.all<{ id: number; username: string }>(
    "SELECT id, username FROM users WHERE parent_org_id = ? AND last_accessed IS NULL",
    parentOrgId,
  );
  for (const u of users) {
    const at = lastLoginOf(a.seed, u.username, now);
    if (at === null) continue;
    ctx.db.run("UPDATE users SET last_accessed = ? WHERE id = ?", at, u.id);
    counts.lastLogins = (counts.lastLogins ?? 0) + 1;
  }
  const projects = ctx.db.all<{ id: number; slug: string }>(
    `SELECT id, slug FROM projects p WHERE parent_org_id = ?
       AND NOT EXISTS (SELECT 1 FROM pipelines WHERE project_id = p.id)`,
    parentOrgId,
  );
  for (const p of projects) {
    for (const [i, pl] of pipelinesOf(a.seed, p.slug, now, a.days ?? 90).entries()) {
      ctx.db.run(
        `INSERT INTO pipelines (project_id, bundle_id, status, ref, sha, created, finished, duration)
         VALUES (?, NULL, ?, 'main', ?, ?, ?, ?)`,
        p.id,
        pl.status,
        createHash("sha1").update(`${p.slug}:activity:${i}`).digest("hex"),
        pl.created,
        iso(Date.parse(pl.created) + pl.duration * 1000),
        pl.duration,
      );
      counts.pipelines = (counts.pipelines ?? 0) + 1;
    }
  }
}
