/**
 * Namespace paths → objects, within one parent organization: `<org>/[private/]<group>` and
 * what lies below it (subgroups, repositories). Forks resolve their clone URL with it, and
 * the delivery-metrics API its URL-encoded ids.
 */
import type { ServerContext } from "../../context.js";
import type { GroupRow, ProjectRow } from "../../store/lookups.js";
import { namespaceOf, type RepoRow, type SubgroupRow } from "./common.js";

export interface ResolvedGroup {
  project: ProjectRow;
  group: GroupRow;
  namespace: string;
  /** Path segments below the group (subgroups, then maybe a repository slug). */
  rest: string[];
}

/** The project group a path starts with, or undefined. */
export function resolveGroupPath(
  ctx: ServerContext,
  parentOrgId: number,
  path: string,
): ResolvedGroup | undefined {
  const segs = path.split("/").filter((s) => s !== "");
  if (segs.length < 2) return undefined;
  const org = ctx.db.get<{ id: number }>(
    "SELECT id FROM organizations WHERE name = ? AND (id = ? OR parent_id = ?)",
    segs[0],
    parentOrgId,
    parentOrgId,
  );
  if (!org) return undefined;
  const isPrivate = segs[1] === "private" && segs.length >= 3;
  const groupPath = segs[isPrivate ? 2 : 1];
  const group = ctx.db.get<GroupRow>(
    `SELECT g.* FROM git_groups g JOIN projects p ON p.id = g.project_id
     WHERE p.org_id = ? AND p.parent_org_id = ? AND p.visibility = ? AND lower(g.path) = lower(?)`,
    org.id,
    parentOrgId,
    isPrivate ? "private" : "public",
    groupPath,
  );
  if (!group) return undefined;
  const project = ctx.db.get<ProjectRow>("SELECT * FROM projects WHERE id = ?", group.project_id)!;
  return {
    project,
    group,
    namespace: namespaceOf(ctx, project, group),
    rest: segs.slice(isPrivate ? 3 : 2),
  };
}

/** A live repository named by its path (`<namespace>/[<subgroups>/]<slug>[.git]`). */
export function resolveRepoPath(
  ctx: ServerContext,
  parentOrgId: number,
  path: string,
): (ResolvedGroup & { repo: RepoRow }) | undefined {
  const g = resolveGroupPath(ctx, parentOrgId, path.replace(/\.git$/, ""));
  if (!g || g.rest.length === 0) return undefined;
  const slug = g.rest[g.rest.length - 1];
  const subPath = g.rest.slice(0, -1).join("/");
  let subgroupId = 0;
  if (subPath !== "") {
    const s = ctx.db.get<SubgroupRow>(
      "SELECT * FROM subgroups WHERE group_id = ? AND path = ?",
      g.group.id,
      subPath,
    );
    if (!s) return undefined;
    subgroupId = s.id;
  }
  const repo = ctx.db.get<RepoRow>(
    `SELECT * FROM repositories WHERE group_id = ? AND IFNULL(subgroup_id, 0) = ?
       AND lower(slug) = lower(?) AND status != 'deleted'`,
    g.group.id,
    subgroupId,
    slug,
  );
  return repo ? { ...g, repo } : undefined;
}
