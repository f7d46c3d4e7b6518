/**
 * Subgroups under the project group: recursive creation (`a/b/c` creates every missing
 * level), the filtered and paged list, the request-access flag, and the delete that takes
 * deeper subgroups and their repositories with it. The main group shares the id space and
 * is never deleted or changed through these endpoints.
 */
import { defineHandlers, ok, type ServerContext } from "../../context.js";
import { conflict, notFound, ruleViolated } from "../../errors.js";
import { paged } from "../../paging.js";
import { isoNow } from "../../store/db.js";
import {
  findSubgroup,
  nextNamespaceId,
  normalisePath,
  requireScope,
  type GitScope,
  type SubgroupRow,
} from "./common.js";
import { subgroupRecord } from "./records.js";

/**
 * Make sure every level of `path` exists under the group; returns every level (top first)
 * and the ones this call created.
 */
export function ensureSubgroupPath(
  ctx: ServerContext,
  groupId: number,
  path: string,
  requestAccessEnabled = false,
): { levels: SubgroupRow[]; created: SubgroupRow[] } {
  const levels: SubgroupRow[] = [];
  const created: SubgroupRow[] = [];
  let parent: SubgroupRow | null = null;
  const now = isoNow(ctx.now());
  for (const name of path.split("/")) {
    const p: string = parent ? `${parent.path}/${name}` : name;
    let s = findSubgroup(ctx, groupId, p);
    if (!s) {
      const id = nextNamespaceId(ctx);
      ctx.db.run(
        `INSERT INTO subgroups (id, group_id, parent_id, name, path, request_access_enabled, created)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        id,
        groupId,
        parent?.id ?? null,
        name,
        p,
        requestAccessEnabled ? 1 : 0,
        now,
      );
      s = ctx.db.get<SubgroupRow>("SELECT * FROM subgroups WHERE id = ?", id)!;
      created.push(s);
    }
    levels.push(s);
    parent = s;
  }
  return { levels, created };
}

/** A subgroup of the scope by id; the main group's id is refused with a pointer. */
function requireSubgroup(ctx: ServerContext, s: GitScope, id: number, verb: string): SubgroupRow {
  if (id === s.group.id) {
    throw ruleViolated(
      `${id} is the main group of project ${s.project.slug}; it cannot be ${verb} through the subgroup endpoint (use /git/groups)`,
      "groupID",
    );
  }
  const row = ctx.db.get<SubgroupRow>(
    "SELECT * FROM subgroups WHERE id = ? AND group_id = ?",
    id,
    s.group.id,
  );
  if (!row) throw notFound(`subgroup ${id} of project ${s.project.slug}`);
  return row;
}

export const subgroupHandlers = defineHandlers({
  "git.subgroups.list": (ctx, { caller, params, query }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    const path = normalisePath(query.path);
    // strict=1: only that subgroup; otherwise that subgroup and everything under it.
    const where =
      path === ""
        ? { sql: "group_id = ?", args: [s.group.id] }
        : query.strict === 1
          ? { sql: "group_id = ? AND path = ?", args: [s.group.id, path] }
          : {
              sql: "group_id = ? AND (path = ? OR substr(path, 1, ?) = ?)",
              args: [s.group.id, path, path.length + 1, `${path}/`],
            };
    const total = ctx.db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM subgroups WHERE ${where.sql}`,
      ...where.args,
    )!.n;
    return paged(query, ctx.maxPageSize, total, (limit, offset) =>
      ctx.db
        .all<SubgroupRow>(
          `SELECT * FROM subgroups WHERE ${where.sql} ORDER BY path LIMIT ? OFFSET ?`,
          ...where.args,
          limit,
          offset,
        )
        .map((row) => subgroupRecord(row, s.namespace)),
    );
  },

  "git.subgroups.create": (ctx, { caller, params, body }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    const path = normalisePath(body.subGroups);
    const { levels, created } = ctx.db.tx(() => ensureSubgroupPath(ctx, s.group.id, path));
    if (created.length === 0) {
      throw conflict(`subgroup ${path} already exists in project ${s.project.slug}`, "subGroups");
    }
    return ok(
      levels.map((row) => subgroupRecord(row, s.namespace)),
      `created ${created.map((c) => c.path).join(", ")}`,
      201,
    );
  },

  "git.subgroups.update": (ctx, { caller, params, body }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    const row = requireSubgroup(ctx, s, params.groupID, "changed");
    ctx.db.run(
      "UPDATE subgroups SET request_access_enabled = ? WHERE id = ?",
      body.request_access_enabled ? 1 : 0,
      row.id,
    );
    const updated = ctx.db.get<SubgroupRow>("SELECT * FROM subgroups WHERE id = ?", row.id)!;
    return ok(subgroupRecord(updated, s.namespace), "subgroup updated");
  },

  "git.subgroups.delete": (ctx, { caller, params }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    const row = requireSubgroup(ctx, s, params.groupID, "deleted");
    // Deeper subgroups (parent_id) and the repositories in all of them cascade.
    ctx.db.tx(() => ctx.db.run("DELETE FROM subgroups WHERE id = ?", row.id));
  },
});
