/**
 * Projects: slim list, create, detail, replace and partial update. The slug and the
 * visibility never change through the API (the update body has neither).
 */
import type { Static } from "@sinclair/typebox";
import type { UpdateProjectBody } from "../../../api/schemas.js";
import { defineHandlers, ok, type Caller, type ServerContext } from "../../context.js";
import { paged } from "../../paging.js";
import { isoNow } from "../../store/db.js";
import { requireOrg, requireProject, type OrgRow } from "../../store/lookups.js";
import { projectById, projectDetail, projectListItem, type ProjectWithOrg } from "./records.js";
import { checkExternalContribution, checkNewSlug, deriveSlug } from "./rules.js";

/** `%`, `_` and `\` are LIKE wildcards/escape; a keyword matches them literally. */
const likePattern = (keyword: string) => `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * PUT and PATCH share this: the spec's update body has every field optional, so a PUT that
 * leaves a field out keeps it (it does not reset it to its default).
 */
function update(
  ctx: ServerContext,
  caller: Caller,
  slug: string,
  body: Static<typeof UpdateProjectBody>,
) {
  const p = requireProject(ctx, caller, slug);
  if (body.externalContribution === true) {
    checkExternalContribution(
      ctx.db.get<OrgRow>("SELECT * FROM organizations WHERE id = ?", p.org_id)!,
      true,
    );
  }
  ctx.db.run(
    `UPDATE projects SET name = ?, description = ?, restriction_level = ?, external_contribution = ?
     WHERE id = ?`,
    body.name ?? p.name,
    body.description ?? p.description,
    body.restrictionLevel ?? p.restriction_level,
    body.externalContribution === undefined
      ? p.external_contribution
      : Number(body.externalContribution),
    p.id,
  );
  return ok(projectDetail(ctx, projectById(ctx, p.id)), `project ${p.slug} updated`);
}

export const projectHandlers = defineHandlers({
  "projects.list": (ctx, { caller, query }) => {
    const where = ["p.parent_org_id = ?"];
    const args: unknown[] = [caller.parentOrgId];
    if (query.organization !== undefined) {
      where.push("o.name = ?");
      args.push(query.organization);
    }
    if (query.status !== undefined) {
      where.push("p.status = ?");
      args.push(query.status);
    }
    if (query.query) {
      where.push(`(p.name LIKE ? ESCAPE '\\' OR p.description LIKE ? ESCAPE '\\')`);
      args.push(likePattern(query.query), likePattern(query.query));
    }
    const from = `FROM projects p JOIN organizations o ON o.id = p.org_id WHERE ${where.join(" AND ")}`;
    const total = ctx.db.get<{ n: number }>(`SELECT COUNT(*) AS n ${from}`, ...args)!.n;
    return paged(query, ctx.maxPageSize, total, (limit, offset) =>
      ctx.db
        .all<ProjectWithOrg>(
          `SELECT p.*, o.name AS org_name ${from} ORDER BY p.slug LIMIT ? OFFSET ?`,
          ...args,
          limit,
          offset,
        )
        .map(projectListItem),
    );
  },

  "projects.create": (ctx, { caller, body }) => {
    const slug = body.projectSlug ?? deriveSlug(body.name);
    checkNewSlug(ctx, slug, body.name);
    const org = requireOrg(ctx, caller, body.organization ?? caller.parentOrganization);
    checkExternalContribution(org, body.externalContribution);
    const id = Number(
      ctx.db.run(
        `INSERT INTO projects (slug, name, description, visibility, status, restriction_level,
           external_contribution, eccn, parent_org_id, org_id, created)
         VALUES (?, ?, ?, ?, 'active', '', ?, ?, ?, ?, ?)`,
        slug,
        body.name,
        body.description,
        body.visibility ?? "public",
        body.externalContribution === true ? 1 : 0,
        body.eccn ?? "",
        caller.parentOrgId,
        org.id,
        isoNow(ctx.now()),
      ).lastInsertRowid,
    );
    return ok(projectDetail(ctx, projectById(ctx, id)), `project ${slug} created`, 201);
  },

  "projects.get": (ctx, { caller, params }) =>
    ok(projectDetail(ctx, requireProject(ctx, caller, params.projectSlug))),

  "projects.replace": (ctx, { caller, params, body }) =>
    update(ctx, caller, params.projectSlug, body),

  "projects.patch": (ctx, { caller, params, body }) =>
    update(ctx, caller, params.projectSlug, body),
});
