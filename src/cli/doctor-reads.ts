/**
 * Every read operation plan, apply and export rely on (src/engine/readers.ts, src/kinds/*,
 * src/export/read.ts), called once each with a real parameter taken from an earlier list
 * (the first user, the first team, projects and their repositories, mirrors, artifact
 * repositories — doctor-project-reads.ts). Only GETs; the queue status reads apply polls
 * need a job id that only a write makes, so they are listed as not probed.
 */
import type { OperationId } from "../api/routes.js";
import type { Answer, Prober, Refusal } from "./doctor-probe.js";
import { probeProjectReads, type GitGroupFound } from "./doctor-project-reads.js";
import { field, Reads } from "./doctor-read-row.js";
import type { CheckStatus, ReadCheck } from "./doctor-report.js";

/** Queue status reads: apply polls them, but they need the id of a job a write queued. */
export const QUEUE_STATUS_READS: OperationId[] = [
  "users.entitlementStatus",
  "users.transferStatus",
  "orgTeams.queueStatus",
  "organizations.renameStatus",
];

/** The read rows, and the git group they found (for the delivery-metrics check). */
export interface ReadsFound {
  rows: ReadCheck[];
  gitGroup: GitGroupFound;
}

/** Probe every read operation; `orgList` is the organization list's answer, already in hand. */
export async function probeReads(
  p: Prober,
  orgList: Answer | Refusal,
  parent: string | undefined,
): Promise<ReadsFound> {
  const r = new Reads(p);
  await r.record("organizations.list", orgList, {});
  await r.row("licenses.list");

  const users = await r.row("users.list");
  const username = field(users?.[0], "username");
  if (typeof username === "string") {
    await r.row("users.get", { username });
    await r.row("users.services", { username });
  } else for (const op of ["users.get", "users.services"] as const) r.skip(op, "no user to read");

  const teams = await r.row("teams.list");
  const teamname = field(teams?.[0], "name");
  if (typeof teamname === "string" && parent)
    await r.row("teams.get", { teamname }, { parentOrganization: parent });
  else r.skip("teams.get", parent ? "no team to read" : "the parent organization is unknown");
  await r.row("orgTeams.list");

  const projects = await r.row("projects.list");
  const slugs = (projects ?? [])
    .map((x) => field(x, "projectSlug"))
    .filter((s): s is string => typeof s === "string");
  const gitGroup = await probeProjectReads(r, slugs);
  return { rows: r.rows, gitGroup };
}

/** Status words of a set of rows, for the summary. */
export function countByStatus(rows: { status: CheckStatus }[]): Record<CheckStatus, number> {
  const out: Record<CheckStatus, number> = { ok: 0, warn: 0, fail: 0, info: 0, skip: 0 };
  for (const r of rows) out[r.status]++;
  return out;
}
