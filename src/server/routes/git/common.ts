/**
 * Lookups the git section shares: the project + git group scope of a request, subgroups by
 * path, repositories by id, slugs, and the one id space groups and subgroups share (as on
 * the git host, where `groupID` may name either — the subgroup endpoints must be able to
 * recognise the main group's id).
 */
import type { Caller, ServerContext } from "../../context.js";
import { notFound, ruleViolated } from "../../errors.js";
import {
  orgName,
  requireGroup,
  requireProject,
  type GroupRow,
  type ProjectRow,
} from "../../store/lookups.js";
import { groupNamespace } from "../../urls.js";

export interface SubgroupRow {
  id: number;
  group_id: number;
  parent_id: number | null;
  name: string;
  path: string;
  request_access_enabled: number;
  created: string;
}

export interface RepoRow {
  id: number;
  group_id: number;
  subgroup_id: number | null;
  name: string;
  slug: string;
  status: "active" | "archived" | "deleted";
  issue_tracking: "enabled" | "private" | "disabled";
  merge_requests: "enabled" | "private" | "disabled";
  requires_dco: number;
  enable_lfs: number;
  enable_forking: number;
  source_repo_id: number;
  created: string;
  last_push: string | null;
  last_pull: string | null;
  size_bytes: number;
  deleted_at: string | null;
}

/** A project with its git group and the group's namespace (`<org>/[private/]<path>`). */
export interface GitScope {
  readonly project: ProjectRow;
  readonly group: GroupRow;
  readonly namespace: string;
}

export function namespaceOf(ctx: ServerContext, project: ProjectRow, group: GroupRow): string {
  return groupNamespace(orgName(ctx, project.org_id), project.visibility, group.path);
}

/** The caller's project and its git group: 404 for an unknown project or a missing group. */
export function requireScope(ctx: ServerContext, caller: Caller, slug: string): GitScope {
  const project = requireProject(ctx, caller, slug);
  const group = requireGroup(ctx, project);
  return { project, group, namespace: namespaceOf(ctx, project, group) };
}

/** A subgroup path as the API accepts it ("/a/b/" → "a/b"); "" is the project group. */
export function normalisePath(path: string | null | undefined): string {
  return (path ?? "").replace(/^\/+|\/+$/g, "");
}

export function findSubgroup(
  ctx: ServerContext,
  groupId: number,
  path: string,
): SubgroupRow | undefined {
  return ctx.db.get<SubgroupRow>(
    "SELECT * FROM subgroups WHERE group_id = ? AND path = ?",
    groupId,
    path,
  );
}

/**
 * The subgroup a repository goes to (`repoPathNew`): null for the project group; an
 * unknown path is a 422 on `field`, since the subgroup must be created first.
 */
export function requirePlacement(
  ctx: ServerContext,
  scope: GitScope,
  repoPathNew: string | null | undefined,
  field = "repoPathNew",
): SubgroupRow | null {
  const path = normalisePath(repoPathNew);
  if (path === "") return null;
  const s = findSubgroup(ctx, scope.group.id, path);
  if (!s) {
    throw ruleViolated(
      `subgroup ${path} does not exist in project ${scope.project.slug}; create it first`,
      field,
    );
  }
  return s;
}

/** A repository of the scope's group, deleted ones included (they stay readable). */
export function requireRepo(ctx: ServerContext, scope: GitScope, repoId: number): RepoRow {
  const r = ctx.db.get<RepoRow>(
    "SELECT * FROM repositories WHERE id = ? AND group_id = ?",
    repoId,
    scope.group.id,
  );
  if (!r) throw notFound(`repository ${repoId} of project ${scope.project.slug}`);
  return r;
}

/** A repository that is not deleted: a deleted one cannot be changed any more (404). */
export function requireLiveRepo(ctx: ServerContext, scope: GitScope, repoId: number): RepoRow {
  const r = requireRepo(ctx, scope, repoId);
  if (r.status === "deleted")
    throw notFound(`repository ${repoId} of project ${scope.project.slug} (it was deleted)`);
  return r;
}

/** The default repository slug of a name: the git host lower-cases paths it derives. */
export function slugOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[-._]+|[-._]+$/g, "");
}

/**
 * Which live repository already takes `name` or `slug` in one place (project group or
 * subgroup), ignoring `exceptId`; paths on the git host are case-insensitive.
 */
export function clashingRepo(
  ctx: ServerContext,
  groupId: number,
  subgroupId: number | null,
  name: string,
  slug: string,
  exceptId = 0,
): { field: "name" | "repoSlug"; row: RepoRow } | undefined {
  const row = ctx.db.get<RepoRow>(
    `SELECT * FROM repositories WHERE group_id = ? AND IFNULL(subgroup_id, 0) = ?
       AND status != 'deleted' AND id != ? AND (lower(name) = lower(?) OR lower(slug) = lower(?))
     LIMIT 1`,
    groupId,
    subgroupId ?? 0,
    exceptId,
    name,
    slug,
  );
  if (!row) return undefined;
  return { field: row.name.toLowerCase() === name.toLowerCase() ? "name" : "repoSlug", row };
}

/**
 * The next id of the shared group/subgroup id space. SQLite's rowid would number the two
 * tables independently, so a subgroup could carry the main group's id; and max(id) + 1 of
 * the two gave a deleted group's or subgroup's id to the next one made, maybe another
 * organization's. The sequence table (AUTOINCREMENT) never goes back; only its last row is
 * kept.
 */
export function nextNamespaceId(ctx: ServerContext): number {
  const id = Number(ctx.db.run("INSERT INTO git_namespace_ids DEFAULT VALUES").lastInsertRowid);
  ctx.db.run("DELETE FROM git_namespace_ids WHERE id < ?", id);
  return id;
}
