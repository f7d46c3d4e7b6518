/**
 * User teams: unique by name within a parent organization. Their service flags only
 * categorize them (they grant nothing) and can be enabled but not disabled. Reads name the
 * parent organization in the query; another parent organization's team is simply not found.
 * Adding a member twice is idempotent (200, nothing changes), so a retried POST is harmless.
 */
import { defineHandlers, ok, statusOnly, type Caller, type ServerContext } from "../../context.js";
import { badRequest, conflict, notFound, ruleViolated } from "../../errors.js";
import { paged } from "../../paging.js";
import { isoNow } from "../../store/db.js";
import { requireUser } from "../../store/lookups.js";
import {
  PROJECT_ITEM_VIEW,
  TEAM_VIEW,
  teamRecord,
  teamServices,
  USER_VIEW,
  userRecord,
  type TeamView,
  type UserView,
} from "./records.js";
import { projectListItem, type ProjectItemView } from "../projects/records.js";

const SERVICE_FLAGS = ["gitservice", "artifactservice", "wiki"] as const;

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The caller's team `name`; 404 when it does not exist or `parentOrganization` is not the caller's. */
function requireTeam(
  ctx: ServerContext,
  caller: Caller,
  name: string,
  parentOrganization: string | undefined,
): TeamView {
  if (parentOrganization !== undefined && !sameName(parentOrganization, caller.parentOrganization))
    throw notFound(`team ${name} in parent organization ${parentOrganization}`);
  const t = ctx.db.get<TeamView>(
    `${TEAM_VIEW} WHERE t.parent_org_id = ? AND t.name = ?`,
    caller.parentOrgId,
    name,
  );
  if (!t) throw notFound(`team ${name}`);
  return t;
}

function isMember(ctx: ServerContext, teamId: number, userId: number): boolean {
  return (
    ctx.db.get("SELECT 1 FROM team_members WHERE team_id = ? AND user_id = ?", teamId, userId) !==
    undefined
  );
}

export const teamHandlers = defineHandlers({
  "teams.list": (ctx, { caller, query }) => {
    let cond = "t.parent_org_id = ?";
    if (query.serviceType !== undefined) {
      const flag = SERVICE_FLAGS.find((f) => f === query.serviceType);
      if (!flag) {
        throw badRequest(`serviceType must be one of ${SERVICE_FLAGS.join(", ")}`, "serviceType");
      }
      cond += ` AND t.${flag} = 1`;
    }
    const total = ctx.db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM teams t WHERE ${cond}`,
      caller.parentOrgId,
    )!.n;
    return paged(query, ctx.maxPageSize, total, (limit, offset) =>
      ctx.db
        .all<TeamView>(
          `${TEAM_VIEW} WHERE ${cond} ORDER BY t.name LIMIT ? OFFSET ?`,
          caller.parentOrgId,
          limit,
          offset,
        )
        .map(teamRecord),
    );
  },

  "teams.create": (ctx, { caller, body }) => {
    if (
      body.parentOrganization !== undefined &&
      !sameName(body.parentOrganization, caller.parentOrganization)
    ) {
      throw ruleViolated(
        `parentOrganization must be the token's parent organization ${caller.parentOrganization}`,
        "parentOrganization",
      );
    }
    if (
      ctx.db.get(
        "SELECT 1 FROM teams WHERE parent_org_id = ? AND name = ?",
        caller.parentOrgId,
        body.name,
      )
    ) {
      throw conflict(`team ${body.name} already exists`, "name");
    }
    const members = [...new Set(body.userNames)].map((n) => {
      const u = ctx.db.get<{ id: number }>(
        "SELECT id FROM users WHERE username = ? AND parent_org_id = ?",
        n,
        caller.parentOrgId,
      );
      if (!u) throw ruleViolated(`user ${n} does not exist`, "userNames");
      return u.id;
    });
    const id = Number(
      ctx.db.run(
        `INSERT INTO teams (parent_org_id, name, gitservice, artifactservice, wiki, created)
         VALUES (?, ?, ?, ?, ?, ?)`,
        caller.parentOrgId,
        body.name,
        body.gitservice ? 1 : 0,
        body.artifactservice ? 1 : 0,
        body.wiki ? 1 : 0,
        isoNow(ctx.now()),
      ).lastInsertRowid,
    );
    for (const m of members)
      ctx.db.run("INSERT INTO team_members (team_id, user_id) VALUES (?, ?)", id, m);
    return ok(teamRecord(requireTeam(ctx, caller, body.name, undefined)), "team created", 201);
  },

  "teams.get": (ctx, { caller, params, query }) => {
    const t = teamRecord(requireTeam(ctx, caller, params.teamname, query.parentOrganization));
    return { services: t.services, userNames: t.userNames, projects: t.projects };
  },

  "teams.delete": (ctx, { caller, params, query }) => {
    const t = requireTeam(ctx, caller, params.teamname, query.parentOrganization);
    ctx.db.run("DELETE FROM teams WHERE id = ?", t.id);
  },

  "teams.services": (ctx, { caller, params, query }) =>
    teamServices(requireTeam(ctx, caller, params.teamname, query.parentOrganization)),

  "teams.enableService": (ctx, { caller, params, body }) => {
    const t = requireTeam(ctx, caller, params.teamname, body.parentOrganization);
    const flag = SERVICE_FLAGS.find((f) => f === body.service)!;
    ctx.db.run(`UPDATE teams SET ${flag} = 1 WHERE id = ?`, t.id);
    return ok(
      teamServices(requireTeam(ctx, caller, t.name, undefined)),
      `${flag} enabled on team ${t.name}`,
    );
  },

  "teams.users": (ctx, { caller, params, query }) => {
    const t = requireTeam(ctx, caller, params.teamname, query.parentOrganization);
    return ctx.db
      .all<UserView>(
        `${USER_VIEW} JOIN team_members tm ON tm.user_id = u.id WHERE tm.team_id = ? ORDER BY u.username`,
        t.id,
      )
      .map(userRecord);
  },

  "teams.addUser": (ctx, { caller, params, query }) => {
    const t = requireTeam(ctx, caller, params.teamname, query.parentOrganization);
    const u = requireUser(ctx, caller, params.username);
    if (isMember(ctx, t.id, u.id)) {
      return statusOnly(`user ${u.username} is already a member of team ${t.name}`);
    }
    ctx.db.run("INSERT INTO team_members (team_id, user_id) VALUES (?, ?)", t.id, u.id);
    return statusOnly(`user ${u.username} added to team ${t.name}`);
  },

  "teams.removeUser": (ctx, { caller, params, query }) => {
    const t = requireTeam(ctx, caller, params.teamname, query.parentOrganization);
    const u = requireUser(ctx, caller, params.username);
    if (!isMember(ctx, t.id, u.id)) {
      throw notFound(`user ${u.username} in team ${t.name}`);
    }
    ctx.db.run("DELETE FROM team_members WHERE team_id = ? AND user_id = ?", t.id, u.id);
    return statusOnly(`user ${u.username} removed from team ${t.name}`);
  },

  "teams.projects": (ctx, { caller, params, query }) => {
    const t = requireTeam(ctx, caller, params.teamname, query.parentOrganization);
    return ctx.db
      .all<ProjectItemView>(
        `${PROJECT_ITEM_VIEW} JOIN team_projects tp ON tp.project_id = pr.id
         WHERE tp.team_id = ? ORDER BY pr.slug`,
        t.id,
      )
      .map(projectListItem);
  },
});
