/**
 * Since when each access is held, as far as the reviews know. The API gives no date of a
 * grant (a project's roles, a team's members and a project's organization teams are lists of
 * names: docs/api.md), so the day is the first review that saw the access: this report's
 * for access no earlier review had, else — carried by `--since previous.json` — the earlier
 * review's `since` for the row (or its day, for a report made before rows had one). Each
 * monthly review given the previous one keeps the first day for good. Pure.
 */
import { rowKey, type PreviousReview } from "./since.js";
import type { AccessRow, SinceBasis } from "./types.js";

/** What the first-seen days need of an earlier review. */
export type SeenBefore = Pick<PreviousReview, "generatedAt" | "rows">;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const BASIS: SinceBasis = "first-seen";

/** First-seen day per row key in an earlier review (never after that review's day). */
function daysSeen(previous: SeenBefore): Map<string, string> {
  const reviewDay = previous.generatedAt.slice(0, 10);
  const out = new Map<string, string>();
  for (const r of previous.rows) {
    const since = typeof r.since === "string" && DAY.test(r.since) && r.since < reviewDay ? r.since : reviewDay; // prettier-ignore
    const key = rowKey(r);
    const had = out.get(key);
    if (had === undefined || since < had) out.set(key, since);
  }
  return out;
}

/** Set `since` and `sinceBasis` on every row: carried from `previous`, else `today`. */
export function setSince(rows: AccessRow[], today: string, previous?: SeenBefore): void {
  const seen = previous ? daysSeen(previous) : new Map<string, string>();
  for (const r of rows) {
    const was = seen.get(rowKey(r));
    r.since = was !== undefined && was < today ? was : today;
    r.sinceBasis = BASIS;
  }
}

/** The earliest `since` of each principal's rows (the users table's "access since"). */
export function earliestSince(rows: readonly AccessRow[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of rows) {
    if (r.principalKind !== "user" || r.since === undefined) continue;
    const had = out.get(r.principal);
    if (had === undefined || r.since < had) out.set(r.principal, r.since);
  }
  return out;
}
