/**
 * Organization teams: teams of the parent organization or of one of its customers. Only the
 * name can change (the path stays, because projects refer to a team by it). Jobs of the
 * organization-team queue are queued by the projects section; this file answers their status.
 */
import { defineHandlers, ok, type Caller, type ServerContext } from "../../context.js";
import { notFound } from "../../errors.js";
import { paged } from "../../paging.js";
import { requireJob } from "../../store/lookups.js";
import { ORG_TEAM_VIEW, orgTeamRecord, type OrgTeamView } from "./records.js";

const IN_PARENT = "(o.id = ? OR o.parent_id = ?)";

/** 404 when the query names a parent organization other than the caller's. */
function checkParent(caller: Caller, parentOrganization: string | undefined): void {
  if (
    parentOrganization !== undefined &&
    parentOrganization.toLowerCase() !== caller.parentOrganization.toLowerCase()
  ) {
    throw notFound(`parent organization ${parentOrganization}`);
  }
}

function requireOrgTeam(ctx: ServerContext, caller: Caller, id: number): OrgTeamView {
  const t = ctx.db.get<OrgTeamView>(
    `${ORG_TEAM_VIEW} WHERE ot.id = ? AND ${IN_PARENT}`,
    id,
    caller.parentOrgId,
    caller.parentOrgId,
  );
  if (!t) throw notFound(`organization team ${id}`);
  return t;
}

export const orgTeamHandlers = defineHandlers({
  "orgTeams.list": (ctx, { caller, query }) => {
    checkParent(caller, query.parentOrganization);
    let cond = IN_PARENT;
    const args: unknown[] = [caller.parentOrgId, caller.parentOrgId];
    if (query.organization !== undefined) {
      cond += " AND o.name = ?";
      args.push(query.organization);
    }
    const total = ctx.db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM org_teams ot JOIN organizations o ON o.id = ot.org_id WHERE ${cond}`,
      ...args,
    )!.n;
    return paged(query, ctx.maxPageSize, total, (limit, offset) =>
      ctx.db
        .all<OrgTeamView>(
          `${ORG_TEAM_VIEW} WHERE ${cond} ORDER BY ot.id LIMIT ? OFFSET ?`,
          ...args,
          limit,
          offset,
        )
        .map(orgTeamRecord),
    );
  },

  "orgTeams.get": (ctx, { caller, params, query }) => {
    checkParent(caller, query.parentOrganization);
    return ok(orgTeamRecord(requireOrgTeam(ctx, caller, params.teamid)));
  },

  "orgTeams.update": (ctx, { caller, params, query, body }) => {
    checkParent(caller, query.parentOrganization);
    const t = requireOrgTeam(ctx, caller, params.teamid);
    ctx.db.run("UPDATE org_teams SET name = ? WHERE id = ?", body.name, t.id);
    return ok(orgTeamRecord(requireOrgTeam(ctx, caller, t.id)), "organization team updated");
  },

  "orgTeams.queueStatus": (ctx, { caller, params }) => {
    const job = requireJob(ctx, caller, "orgTeam", params.queueid);
    return {
      status: ctx.queue.displayStatus(job) as "open" | "completed" | "error",
      message: job.message,
    };
  },
});
