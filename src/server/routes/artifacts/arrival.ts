/**
 * When an uploaded file "arrives". An upload is pending (the file has not been transferred
 * yet) and becomes active once the server's queue delay has passed since it was created.
 * This is computed lazily: every read of a repository's files first settles the uploads
 * that are due, stamping them with the moment they arrived (created + delay), so no timer is
 * needed, nothing is lost on a restart, and with a queue delay of 0 an upload is active on
 * the next read. A file whose status was set by PUT/PATCH is no longer pending and stays as set.
 */
import type { ServerContext } from "../../context.js";
import { isoNow } from "../../store/db.js";

/** Mark the due pending uploads of a repository as arrived (active). */
export function settleArrivals(ctx: ServerContext, repoId: number): void {
  const delay = ctx.queueDelayMs;
  const arrivedAt = `strftime('%Y-%m-%dT%H:%M:%fZ', julianday(created) + @delay / 86400000.0)`;
  ctx.db.run(
    `UPDATE artifact_files
        SET status = 'active', last_modified = ${arrivedAt}, last_updated = ${arrivedAt},
            status_note = json_insert(status_note, '$[#]', 'file arrived')
      WHERE repo_id = @repo AND status = 'pending' AND created <= @cutoff`,
    { repo: repoId, delay, cutoff: isoNow(ctx.now() - delay) },
  );
}
