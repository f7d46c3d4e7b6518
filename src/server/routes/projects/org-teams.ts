/**
 * Organization teams on projects: assigning a team (by its `path`) at maintainers,
 * developers or reporters, and removing it. Both go through the organization-team queue and
 * answer an array with one accepted job; the change is visible once the job completes.
 */
import type { TeamLevel } from "../../../api/schemas.js";
import { defineHandlers, type Caller, type ServerContext } from "../../context.js";
import { conflict, notFound } from "../../errors.js";
import { accepted, JobFailure, type JobEffect } from "../../queue.js";
import { requireProject, type ProjectRow } from "../../store/lookups.js";
import { accessService, pendingJob } from "./access.js";

interface OrgTeamRow {
  id: number;
  org_id: number;
  name: string;
  path: string;
  created: string;
}

type TeamAction = "access.orgTeam.add" | "access.orgTeam.remove";

interface TeamPayload {
  key: string;
  projectId: number;
  slug: string;
  level: TeamLevel;
  orgTeamId: number;
  path: string;
}

/**
 * An organization team (by path; it may contain a slash, sent as %2F) of an organization of
 * the caller's parent organization; 404 otherwise.
 */
function requireOrgTeam(ctx: ServerContext, caller: Caller, path: string): OrgTeamRow {
  const t = ctx.db.get<OrgTeamRow>(
    `SELECT t.* FROM org_teams t JOIN organizations o ON o.id = t.org_id
     WHERE t.path = ? AND (o.id = ? OR o.parent_id = ?)`,
    path,
    caller.parentOrgId,
    caller.parentOrgId,
  );
  if (!t) throw notFound(`organization team ${path}`);
  return t;
}

const teamAssigned = (ctx: ServerContext, projectId: number, level: string, teamId: number) =>
  ctx.db.get(
    "SELECT 1 FROM project_org_teams WHERE project_id = ? AND level = ? AND org_team_id = ?",
    projectId,
    level,
    teamId,
  ) !== undefined;

function describe(action: TeamAction, p: ProjectRow, level: TeamLevel, t: OrgTeamRow): string {
  return action === "access.orgTeam.add"
    ? `assigning organization team ${t.path} to ${level} of project ${p.slug}`
    : `removing organization team ${t.path} from ${level} of project ${p.slug}`;
}

function queueTeamJob(
  ctx: ServerContext,
  caller: Caller,
  action: TeamAction,
  p: ProjectRow,
  level: TeamLevel,
  t: OrgTeamRow,
) {
  const what = describe(action, p, level, t);
  const key = `${accessService(p.slug, level)}:team:${t.path}`;
  const open = pendingJob(ctx, action, key);
  if (open) throw conflict(`${what} is already queued (${open})`);
  const payload: TeamPayload = {
    key,
    projectId: p.id,
    slug: p.slug,
    level,
    orgTeamId: t.id,
    path: t.path,
  };
  return accepted(
    ctx.queue.enqueue("orgTeam", action, { ...payload }, caller.parentOrgId),
    `${what} queued`,
  );
}

export const orgTeamHandlers = defineHandlers({
  "access.addOrgTeam": (ctx, { caller, params }) => {
    const p = requireProject(ctx, caller, params.projectSlug);
    const t = requireOrgTeam(ctx, caller, params.orgPathId);
    if (teamAssigned(ctx, p.id, params.level, t.id)) {
      throw conflict(
        `organization team ${t.path} is already in ${params.level} of project ${p.slug}`,
      );
    }
    return [queueTeamJob(ctx, caller, "access.orgTeam.add", p, params.level, t)];
  },

  "access.removeOrgTeam": (ctx, { caller, params }) => {
    const p = requireProject(ctx, caller, params.projectSlug);
    const t = requireOrgTeam(ctx, caller, params.orgPathId);
    if (!teamAssigned(ctx, p.id, params.level, t.id)) {
      throw notFound(`organization team ${t.path} in ${params.level} of project ${p.slug}`);
    }
    return [queueTeamJob(ctx, caller, "access.orgTeam.remove", p, params.level, t)];
  },
});

/**
 * The effects. They re-check what may have changed since the request was accepted (project
 * or team gone, the same change made by another job) and fail with a message then.
 */
export function orgTeamJobs(ctx: ServerContext): Record<string, JobEffect> {
  return {
    "access.orgTeam.add": (payload) => {
      const p = payload as unknown as TeamPayload;
      if (!ctx.db.get("SELECT 1 FROM projects WHERE id = ?", p.projectId))
        throw new JobFailure(`project ${p.slug} no longer exists`);
      if (!ctx.db.get("SELECT 1 FROM org_teams WHERE id = ?", p.orgTeamId))
        throw new JobFailure(`organization team ${p.path} no longer exists`);
      if (teamAssigned(ctx, p.projectId, p.level, p.orgTeamId))
        throw new JobFailure(
          `organization team ${p.path} is already in ${p.level} of project ${p.slug}`,
        );
      ctx.db.run(
        "INSERT INTO project_org_teams (project_id, level, org_team_id) VALUES (?, ?, ?)",
        p.projectId,
        p.level,
        p.orgTeamId,
      );
    },
    "access.orgTeam.remove": (payload) => {
      const p = payload as unknown as TeamPayload;
      const r = ctx.db.run(
        "DELETE FROM project_org_teams WHERE project_id = ? AND level = ? AND org_team_id = ?",
        p.projectId,
        p.level,
        p.orgTeamId,
      );
      if (r.changes === 0)
        throw new JobFailure(
          `organization team ${p.path} is not in ${p.level} of project ${p.slug}`,
        );
    },
  };
}
