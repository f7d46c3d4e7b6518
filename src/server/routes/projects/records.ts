/**
 * Project rows → API records: the slim list item and the full detail (roles, licenses, git
 * links). Other sections (users' and teams' project lists) use `projectListItem` too, so a
 * project looks the same wherever it appears.
 */
import type { Static } from "@sinclair/typebox";
import type { Project, ProjectListItem, Roles } from "../../../api/schemas.js";
import {
  AccessLevels,
  TeamLevels,
  type AccessLevel,
  type TeamLevel,
} from "../../../api/schemas.js";
import type { ServerContext } from "../../context.js";
import { groupNamespace } from "../../urls.js";
import { orgName, type GroupRow, type ProjectRow } from "../../store/lookups.js";
import { bool } from "../../store/db.js";

/** A project row joined with its organization's name (what list queries select). */
export type ProjectWithOrg = ProjectRow & { org_name: string };

/** The columns of a project the slim list item shows (users' and teams' lists select only these). */
export type ProjectItemView = Pick<
  ProjectWithOrg,
  "id" | "slug" | "name" | "description" | "visibility" | "status" | "org_name"
>;

export function projectListItem(p: ProjectItemView): Static<typeof ProjectListItem> {
  return {
    id: p.id,
    projectSlug: p.slug,
    name: p.name,
    description: p.description,
    visibility: p.visibility,
    status: p.status,
    organization: p.org_name,
  };
}

/** The names of each level (every level present, empty when none), in the rows' order. */
function byLevel<L extends string>(
  levels: readonly L[],
  rows: readonly { level: L; name: string }[],
): Record<L, string[]> {
  const out = Object.fromEntries(levels.map((l) => [l, [] as string[]])) as Record<L, string[]>;
  for (const r of rows) out[r.level].push(r.name);
  return out;
}

/** The six levels as sorted usernames, and the organization teams (sorted paths) per level. */
export function projectRoles(ctx: ServerContext, projectId: number): Static<typeof Roles> {
  const users = byLevel(
    AccessLevels,
    ctx.db.all<{ level: AccessLevel; name: string }>(
      `SELECT a.level, u.username AS name FROM project_access a JOIN users u ON u.id = a.user_id
       WHERE a.project_id = ? ORDER BY u.username`,
      projectId,
    ),
  );
  const teams = byLevel(
    TeamLevels,
    ctx.db.all<{ level: TeamLevel; name: string }>(
      `SELECT a.level, t.path AS name FROM project_org_teams a JOIN org_teams t ON t.id = a.org_team_id
       WHERE a.project_id = ? ORDER BY t.path`,
      projectId,
    ),
  );
  return { ...users, organizationTeams: teams };
}

/** SPDX ids of the project's licenses, sorted. */
export function projectLicenseNames(ctx: ServerContext, projectId: number): string[] {
  return ctx.db
    .all<{ name: string }>(
      `SELECT l.name FROM project_licenses pl JOIN licenses l ON l.id = pl.license_id
       WHERE pl.project_id = ? ORDER BY l.name`,
      projectId,
    )
    .map((r) => r.name);
}

/**
 * Web and ssh address of the project's git group namespace
 * (`<organization>/[private/]<group path>`), or null while the group does not exist.
 */
export function projectLinks(ctx: ServerContext, p: ProjectRow, organization: string) {
  const group = ctx.db.get<GroupRow>("SELECT * FROM git_groups WHERE project_id = ?", p.id);
  if (!group) return { gitGroup: null, sshGroup: null };
  const ns = groupNamespace(organization, p.visibility, group.path);
  return { gitGroup: `https://${ctx.gitHost}/${ns}`, sshGroup: `ssh://git@${ctx.gitHost}/${ns}` };
}

/** The full project record: every field, roles, licenses and git links. */
export function projectDetail(ctx: ServerContext, p: ProjectRow): Static<typeof Project> {
  const organization = orgName(ctx, p.org_id);
  return {
    id: p.id,
    projectSlug: p.slug,
    name: p.name,
    description: p.description,
    visibility: p.visibility,
    status: p.status,
    restrictionLevel: p.restriction_level,
    externalContribution: bool(p.external_contribution),
    eccn: p.eccn,
    parentOrganization: orgName(ctx, p.parent_org_id),
    organization,
    roles: projectRoles(ctx, p.id),
    licenses: projectLicenseNames(ctx, p.id),
    links: projectLinks(ctx, p, organization),
    created: p.created,
  };
}

/** Re-read a project row by id (after an update) — it exists, the caller just wrote it. */
export function projectById(ctx: ServerContext, id: number): ProjectRow {
  return ctx.db.get<ProjectRow>("SELECT * FROM projects WHERE id = ?", id)!;
}
