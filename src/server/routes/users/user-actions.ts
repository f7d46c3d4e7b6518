/**
 * What one can do with or ask about one user besides editing it: the welcome mail, the
 * transfer to another organization (transfer queue), the user's projects and services, and
 * the status of entitlement jobs (service accounts and project access).
 */
import type { Static } from "@sinclair/typebox";
import { UserServices, type EntitlementQueueItem, type UserService } from "../../../api/schemas.js";
import { defineHandlers, ok, type ServerContext } from "../../context.js";
import { ruleViolated } from "../../errors.js";
import { paged } from "../../paging.js";
import { accepted, JobFailure, type JobEffect } from "../../queue.js";
import { orgsOfParent, requireJob } from "../../store/lookups.js";
import { ACCOUNT_VIEW, accountRecord, PROJECT_ITEM_VIEW, type AccountView } from "./records.js";
import { projectListItem, type ProjectItemView } from "../projects/records.js";
import { requireUserView } from "./users.js";

/** The user's accounts by service (only those that exist). */
export function accountsOf(ctx: ServerContext, userId: number): Map<UserService, AccountView> {
  const rows = ctx.db.all<AccountView>(`${ACCOUNT_VIEW} WHERE sa.user_id = ?`, userId);
  return new Map(rows.map((a) => [a.service, a]));
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** Projects a user has access to directly (any level) or, with `teams`, through a user team. */
function projectsCondition(teams: boolean): string {
  const direct = "SELECT project_id FROM project_access WHERE user_id = ?";
  const viaTeams = `SELECT tp.project_id FROM team_projects tp
    JOIN team_members tm ON tm.team_id = tp.team_id WHERE tm.user_id = ?`;
  return `pr.parent_org_id = ? AND pr.id IN (${direct}${teams ? ` UNION ${viaTeams}` : ""})`;
}

export const userActionHandlers = defineHandlers({
  "users.sendWelcome": (ctx, { caller, params }) => {
    const u = requireUserView(ctx, caller, params.username);
    const services = [...accountsOf(ctx, u.id).keys()].sort(
      (a, b) => UserServices.indexOf(a) - UserServices.indexOf(b),
    );
    const link = `https://${ctx.gitHost}/users/password/new?login=${encodeURIComponent(u.username)}`;
    const body = [
      `Hello ${u.display_name},`,
      "",
      `an account ${u.username} was created for you. Set your password here: ${link}`,
      "",
      services.length > 0
        ? `Your services: ${services.join(", ")}.`
        : "No services are enabled for you yet.",
    ].join("\n");
    ctx.outbox.send(
      "welcome",
      [u.email],
      "Welcome to the project hosting service",
      body,
      caller.parentOrgId,
    );
    return { info: { sentTo: u.email, services } };
  },

  "users.transfer": (ctx, { caller, params, body }) => {
    const u = requireUserView(ctx, caller, params.username);
    const target = orgsOfParent(ctx, caller).find((o) => o.id === body.org_id);
    if (!target) {
      throw ruleViolated(
        `organization ${body.org_id} is not an organization of ${caller.parentOrganization}`,
        "org_id",
      );
    }
    const id = ctx.queue.enqueue(
      "transfer",
      "user.transfer",
      { username: u.username, userId: u.id, org_id: target.id },
      caller.parentOrgId,
    );
    return accepted(id, `transfer of ${u.username} to ${target.name} queued`);
  },

  "users.transferStatus": (ctx, { caller, params }) => {
    const job = requireJob(ctx, caller, "transfer", params.queueid);
    const p = JSON.parse(job.payload) as { username: string; org_id: number };
    return {
      id: job.id,
      action: "transfer",
      username: p.username,
      org_id: p.org_id,
      status: ctx.queue.displayStatus(job) as "open" | "completed" | "failed",
      message: job.message,
    };
  },

  "users.projects": (ctx, { caller, params, query }) => {
    const u = requireUserView(ctx, caller, params.username);
    const teams = query.teamContain === true;
    const cond = projectsCondition(teams);
    const args = teams ? [caller.parentOrgId, u.id, u.id] : [caller.parentOrgId, u.id];
    const total = ctx.db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM projects pr WHERE ${cond}`,
      ...args,
    )!.n;
    return paged(query, ctx.maxPageSize, total, (limit, offset) =>
      ctx.db
        .all<ProjectItemView>(
          `${PROJECT_ITEM_VIEW} WHERE ${cond} ORDER BY pr.slug LIMIT ? OFFSET ?`,
          ...args,
          limit,
          offset,
        )
        .map(projectListItem),
    );
  },

  "users.services": (ctx, { caller, params }) => {
    const u = requireUserView(ctx, caller, params.username);
    const accounts = accountsOf(ctx, u.id);
    const rec = (s: UserService) => {
      const a = accounts.get(s);
      return a ? accountRecord(a) : null;
    };
    return ok({
      git: rec("git"),
      artifactservice: rec("artifactservice"),
      servicedesk: rec("servicedesk"),
      email: rec("email"),
      irc: rec("irc"),
      wiki: rec("wiki"),
    });
  },

  "users.entitlementStatus": (ctx, { caller, params }) => {
    const job = requireJob(ctx, caller, "entitlement", params.queueid);
    // Other sections queue entitlement jobs too (project access): read their payload generically.
    const p = JSON.parse(job.payload) as Record<string, unknown>;
    const item: Static<typeof EntitlementQueueItem> = {
      id: job.id,
      action: job.action,
      username: str(p.username) ?? "",
      service: str(p.service) ?? str(p.level) ?? str(p.projectSlug) ?? "",
      status: ctx.queue.displayStatus(job) as "open" | "completed" | "failed",
      message: job.message,
    };
    return item;
  },
});

export function userActionJobs(ctx: ServerContext): Record<string, JobEffect> {
  return {
    "user.transfer": (payload) => {
      const { username, userId, org_id } = payload as {
        username: string;
        userId: number;
        org_id: number;
      };
      const user = ctx.db.get<{ parent_org_id: number }>(
        "SELECT parent_org_id FROM users WHERE id = ?",
        userId,
      );
      if (!user) throw new JobFailure(`user ${username} no longer exists`);
      const org = ctx.db.get(
        "SELECT 1 FROM organizations WHERE id = ? AND (id = ? OR parent_id = ?)",
        org_id,
        user.parent_org_id,
        user.parent_org_id,
      );
      if (!org) throw new JobFailure(`organization ${org_id} no longer exists`);
      ctx.db.run("UPDATE users SET org_id = ? WHERE id = ?", org_id, userId);
    },
  };
}
