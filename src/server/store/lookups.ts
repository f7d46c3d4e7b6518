/**
 * Lookups every section shares, always scoped to the caller's parent organization: an
 * object of another parent organization is "not found", never "forbidden".
 */
import type { Caller, ServerContext } from "../context.js";
import { notFound, ruleViolated } from "../errors.js";
import type { JobRow } from "../queue.js";

export interface OrgRow {
  id: number;
  name: string;
  parent_id: number | null;
  allow_personal_projects: number;
  max_personal_projects: number;
  allow_external_contribution: number;
  created: string;
}

export interface UserRow {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
  display_name: string;
  email: string;
  external_email: string;
  parent_org_id: number;
  org_id: number;
  role: string;
  status: string;
  created: string;
  last_accessed: string | null;
  picture: string;
}

export interface ProjectRow {
  id: number;
  slug: string;
  name: string;
  description: string;
  visibility: "public" | "private";
  status: "active" | "inactive" | "archived";
  restriction_level: string;
  external_contribution: number;
  eccn: string;
  parent_org_id: number;
  org_id: number;
  created: string;
  archived_at: string | null;
}

export interface GroupRow {
  id: number;
  project_id: number;
  path: string;
  request_access_enabled: number;
  enable_ci: number;
  created: string;
}

/** The organizations of the caller's parent organization (itself and its customers). */
export function orgsOfParent(ctx: ServerContext, caller: Caller): OrgRow[] {
  return ctx.db.all<OrgRow>(
    "SELECT * FROM organizations WHERE id = ? OR parent_id = ? ORDER BY id",
    caller.parentOrgId,
    caller.parentOrgId,
  );
}

/** An organization by name within the caller's parent organization, or undefined. */
export function findOrg(ctx: ServerContext, caller: Caller, name: string): OrgRow | undefined {
  return ctx.db.get<OrgRow>(
    "SELECT * FROM organizations WHERE name = ? AND (id = ? OR parent_id = ?)",
    name,
    caller.parentOrgId,
    caller.parentOrgId,
  );
}

/** Like findOrg, but an unknown organization is a 422 naming `field`. */
export function requireOrg(
  ctx: ServerContext,
  caller: Caller,
  name: string,
  field = "organization",
): OrgRow {
  const o = findOrg(ctx, caller, name);
  if (!o) {
    throw ruleViolated(
      `organization ${name} does not exist; new organizations come through the organization endpoint or a support ticket`,
      field,
    );
  }
  return o;
}

export function orgName(ctx: ServerContext, id: number): string {
  return (
    ctx.db.get<{ name: string }>("SELECT name FROM organizations WHERE id = ?", id)?.name ?? ""
  );
}

export function findUser(
  ctx: ServerContext,
  caller: Caller,
  username: string,
): UserRow | undefined {
  return ctx.db.get<UserRow>(
    "SELECT * FROM users WHERE username = ? AND parent_org_id = ?",
    username,
    caller.parentOrgId,
  );
}

/** A user of the caller's parent organization; 404 otherwise. */
export function requireUser(ctx: ServerContext, caller: Caller, username: string): UserRow {
  const u = findUser(ctx, caller, username);
  if (!u) throw notFound(`user ${username}`);
  return u;
}

export function findProject(
  ctx: ServerContext,
  caller: Caller,
  slug: string,
): ProjectRow | undefined {
  return ctx.db.get<ProjectRow>(
    "SELECT * FROM projects WHERE slug = ? AND parent_org_id = ?",
    slug,
    caller.parentOrgId,
  );
}

/** A project of the caller's parent organization; 404 otherwise. */
export function requireProject(ctx: ServerContext, caller: Caller, slug: string): ProjectRow {
  const p = findProject(ctx, caller, slug);
  if (!p) throw notFound(`project ${slug}`);
  return p;
}

/** The project's git group; 404 when the group was not created yet. */
export function requireGroup(ctx: ServerContext, project: ProjectRow): GroupRow {
  const g = ctx.db.get<GroupRow>("SELECT * FROM git_groups WHERE project_id = ?", project.id);
  if (!g) throw notFound(`git group of project ${project.slug}`);
  return g;
}

/** A queued job of the given queue, owned by the caller's parent organization; 404 otherwise. */
export function requireJob(
  ctx: ServerContext,
  caller: Caller,
  queue: JobRow["queue"],
  id: string,
): JobRow {
  const j = ctx.queue.get(id);
  if (!j || j.queue !== queue || j.parent_org_id !== caller.parentOrgId)
    throw notFound(`queue item ${id}`);
  return j;
}
