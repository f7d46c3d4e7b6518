/**
 * Project access: the members of a level (users and organization teams), adding and removing
 * users. Adds at developers/maintainers/reporters go through the entitlement queue (the git
 * host is called); admins/controllers/editors are immediate; removal is immediate.
 */
import type { Static } from "@sinclair/typebox";
import type { AccessEntry, AccessLevel } from "../../../api/schemas.js";
import { defineHandlers, statusOnly, withStatus, type ServerContext } from "../../context.js";
import { badRequest, conflict, notFound, ruleViolated } from "../../errors.js";
import { accepted, JobFailure, type JobEffect } from "../../queue.js";
import { requireProject, requireUser, type ProjectRow } from "../../store/lookups.js";

/** Levels whose adds change the git host, so they are queued (spec, access rule 1). */
const QUEUED_LEVELS: ReadonlySet<AccessLevel> = new Set(["developers", "maintainers", "reporters"]);

/** The entitlement `service` of a project level: what the entitlement status shows. */
export const accessService = (slug: string, level: string) => `project:${slug}:${level}`;

const isMember = (ctx: ServerContext, projectId: number, level: string, userId: number) =>
  ctx.db.get(
    "SELECT 1 FROM project_access WHERE project_id = ? AND level = ? AND user_id = ?",
    projectId,
    level,
    userId,
  ) !== undefined;

/**
 * The id of an open job doing the same thing (same action and key), so a second identical
 * request is a 409 instead of a second job that would fail when it runs.
 */
export function pendingJob(ctx: ServerContext, action: string, key: string): string | undefined {
  return ctx.db.get<{ id: string }>(
    `SELECT id FROM jobs WHERE status = 'open' AND action = ? AND json_extract(payload, '$.key') = ?`,
    action,
    key,
  )?.id;
}

/** Editors edit wiki pages, so they need an active wiki account first (spec, access rule 2). */
function requireWikiAccount(ctx: ServerContext, userId: number, username: string): void {
  const wiki = ctx.db.get<{ status: string }>(
    "SELECT status FROM service_accounts WHERE user_id = ? AND service = 'wiki'",
    userId,
  );
  if (wiki?.status !== "active") {
    throw ruleViolated(
      `editors need wiki access: user ${username} has no active wiki account`,
      "username",
    );
  }
}

function listLevel(
  ctx: ServerContext,
  p: ProjectRow,
  level: AccessLevel,
  type: "users" | "teams" | undefined,
): Static<typeof AccessEntry>[] {
  const out: Static<typeof AccessEntry>[] = [];
  if (type !== "teams") {
    for (const u of ctx.db.all<{ username: string; display_name: string }>(
      `SELECT u.username, u.display_name FROM project_access a JOIN users u ON u.id = a.user_id
       WHERE a.project_id = ? AND a.level = ? ORDER BY u.username`,
      p.id,
      level,
    ))
      out.push({ type: "user", name: u.username, displayName: u.display_name });
  }
  if (type !== "users") {
    for (const t of ctx.db.all<{ path: string; name: string }>(
      `SELECT t.path, t.name FROM project_org_teams a JOIN org_teams t ON t.id = a.org_team_id
       WHERE a.project_id = ? AND a.level = ? ORDER BY t.path`,
      p.id,
      level,
    ))
      out.push({ type: "team", name: t.path, displayName: t.name });
  }
  return out;
}

/** `type` takes the spec's sample values users and teams (the singular forms are accepted). */
function typeFilter(level: AccessLevel, type: string | undefined): "users" | "teams" | undefined {
  if (type === undefined || type === "") return undefined;
  if (level === "controllers") {
    throw badRequest("the type filter is not available for controllers", "type");
  }
  if (type === "users" || type === "user") return "users";
  if (type === "teams" || type === "team") return "teams";
  throw badRequest("must be users or teams", "type");
}

export const accessHandlers = defineHandlers({
  "access.list": (ctx, { caller, params, query }) => {
    const p = requireProject(ctx, caller, params.projectSlug);
    return listLevel(ctx, p, params.level, typeFilter(params.level, query.type));
  },

  "access.addUser": (ctx, { caller, params }) => {
    const { level, username } = params;
    const p = requireProject(ctx, caller, params.projectSlug);
    const u = requireUser(ctx, caller, username);
    if (isMember(ctx, p.id, level, u.id)) {
      throw conflict(`user ${username} is already in ${level} of project ${p.slug}`, "username");
    }
    if (level === "editors") requireWikiAccount(ctx, u.id, username);
    if (!QUEUED_LEVELS.has(level)) {
      ctx.db.run(
        "INSERT INTO project_access (project_id, level, user_id) VALUES (?, ?, ?)",
        p.id,
        level,
        u.id,
      );
      return withStatus(200, statusOnly(`user ${username} added to ${level} of project ${p.slug}`));
    }
    const service = accessService(p.slug, level);
    const key = `${service}:user:${username}`;
    const open = pendingJob(ctx, "access.add", key);
    if (open) {
      throw conflict(
        `adding user ${username} to ${level} of project ${p.slug} is already queued (${open})`,
        "username",
      );
    }
    const id = ctx.queue.enqueue(
      "entitlement",
      "access.add",
      { key, service, username, userId: u.id, projectId: p.id, slug: p.slug, level },
      caller.parentOrgId,
    );
    return accepted(id, `adding user ${username} to ${level} of project ${p.slug} queued`);
  },

  "access.removeUser": (ctx, { caller, params }) => {
    const { level, username } = params;
    const p = requireProject(ctx, caller, params.projectSlug);
    const u = requireUser(ctx, caller, username);
    const r = ctx.db.run(
      "DELETE FROM project_access WHERE project_id = ? AND level = ? AND user_id = ?",
      p.id,
      level,
      u.id,
    );
    if (r.changes === 0) throw notFound(`user ${username} in ${level} of project ${p.slug}`);
    return statusOnly(`user ${username} removed from ${level} of project ${p.slug}`);
  },
});

/**
 * The effect of a queued user add. It re-checks what may have changed since the request was
 * accepted (the project or user gone, the same add made meanwhile) and fails with a message.
 */
export function accessJobs(ctx: ServerContext): Record<string, JobEffect> {
  return {
    "access.add": (payload) => {
      const p = payload as {
        projectId: number;
        slug: string;
        level: string;
        userId: number;
        username: string;
      };
      if (!ctx.db.get("SELECT 1 FROM projects WHERE id = ?", p.projectId))
        throw new JobFailure(`project ${p.slug} no longer exists`);
      if (!ctx.db.get("SELECT 1 FROM users WHERE id = ?", p.userId))
        throw new JobFailure(`user ${p.username} no longer exists`);
      if (isMember(ctx, p.projectId, p.level, p.userId))
        throw new JobFailure(`user ${p.username} is already in ${p.level} of project ${p.slug}`);
      ctx.db.run(
        "INSERT INTO project_access (project_id, level, user_id) VALUES (?, ?, ?)",
        p.projectId,
        p.level,
        p.userId,
      );
    },
  };
}
