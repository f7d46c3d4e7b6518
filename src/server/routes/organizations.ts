/**
 * Organizations (list, create, rename through the rename queue) and the license catalogue.
 * Organization names are unique across the service; customers live under the caller's
 * parent organization and inherit its settings.
 */
import type { Static } from "@sinclair/typebox";
import type { Organization } from "../../api/schemas.js";
import { defineHandlers, ok, type ServerContext } from "../context.js";
import { conflict, notFound } from "../errors.js";
import { JobFailure } from "../queue.js";
import { bool, isoNow } from "../store/db.js";
import { orgsOfParent, requireJob, type OrgRow } from "../store/lookups.js";
import { seedOrgId } from "../seed.js";
import type { Section } from "./section.js";

function orgRecord(ctx: ServerContext, o: OrgRow): Static<typeof Organization> {
  return {
    id: o.id,
    name: o.name,
    parentOrganization:
      o.parent_id === null
        ? null
        : (ctx.db.get<{ name: string }>("SELECT name FROM organizations WHERE id = ?", o.parent_id)
            ?.name ?? null),
    allowPersonalProjects: bool(o.allow_personal_projects),
    maxPersonalProjects: o.max_personal_projects,
    allowExternalContribution: bool(o.allow_external_contribution),
    created: o.created,
  };
}

function nameTaken(ctx: ServerContext, name: string): boolean {
  return ctx.db.get("SELECT 1 FROM organizations WHERE name = ?", name) !== undefined;
}

export const section: Section = {
  name: "organizations",
  handlers: defineHandlers({
    "organizations.ui": (ctx, { caller }) => ({
      organizations: orgsOfParent(ctx, caller).map((o) => orgRecord(ctx, o)),
    }),
    "organizations.list": (ctx, { caller }) =>
      orgsOfParent(ctx, caller).map((o) => orgRecord(ctx, o)),
    "organizations.create": (ctx, { caller, body }) => {
      if (nameTaken(ctx, body.organization)) {
        throw conflict(`organization ${body.organization} already exists`, "organization");
      }
      const parent = ctx.db.get<OrgRow>(
        "SELECT * FROM organizations WHERE id = ?",
        caller.parentOrgId,
      )!;
      const id = Number(
        ctx.db.run(
          `INSERT INTO organizations (name, parent_id, allow_personal_projects, max_personal_projects,
             allow_external_contribution, created) VALUES (?, ?, ?, ?, ?, ?)`,
          body.organization,
          caller.parentOrgId,
          parent.allow_personal_projects,
          parent.max_personal_projects,
          parent.allow_external_contribution,
          isoNow(ctx.now()),
        ).lastInsertRowid,
      );
      const row = ctx.db.get<OrgRow>("SELECT * FROM organizations WHERE id = ?", id)!;
      return ok(orgRecord(ctx, row), "organization created", 201);
    },
    "organizations.rename": (ctx, { caller, params, body }) => {
      const org = orgsOfParent(ctx, caller).find((o) => o.id === params.orgid);
      if (!org) throw notFound(`organization ${params.orgid}`);
      if (nameTaken(ctx, body.new_name)) {
        throw conflict(`organization ${body.new_name} already exists`, "new_name");
      }
      const id = ctx.queue.enqueue(
        "rename",
        "organization.rename",
        { orgId: org.id, oldName: org.name, newName: body.new_name },
        caller.parentOrgId,
      );
      return {
        code: 201,
        description: `rename of ${org.name} to ${body.new_name} queued`,
        queuid: id,
      };
    },
    "organizations.renameStatus": (ctx, { caller, params }) => {
      const job = requireJob(ctx, caller, "rename", params.queueid);
      const p = JSON.parse(job.payload) as { oldName: string; newName: string };
      return {
        id: job.id,
        action: "rename",
        old_name: p.oldName,
        new_name: p.newName,
        status: ctx.queue.displayStatus(job) as "open",
        message: job.message,
      };
    },
    "licenses.list": (ctx) =>
      ctx.db.all<{ name: string; title: string; url: string }>(
        "SELECT name, title, url FROM licenses ORDER BY name",
      ),
  }),
  jobs: (ctx) => ({
    "organization.rename": (payload) => {
      const { orgId, newName } = payload as { orgId: number; newName: string };
      if (nameTaken(ctx, newName)) throw new JobFailure(`organization ${newName} already exists`);
      ctx.db.run("UPDATE organizations SET name = ? WHERE id = ?", newName, orgId);
    },
  }),
  seed: (ctx, doc, counts) => {
    const parents = (doc.organizations ?? []).filter((o) => !o.parent);
    const children = (doc.organizations ?? []).filter((o) => o.parent);
    for (const o of [...parents, ...children]) {
      const parentId = o.parent ? seedOrgId(ctx, o.parent) : null;
      const existing = ctx.db.get<{ id: number }>(
        "SELECT id FROM organizations WHERE name = ?",
        o.name,
      );
      const settings = [
        o.allowPersonalProjects === false ? 0 : 1,
        o.maxPersonalProjects ?? 10,
        o.allowExternalContribution === false ? 0 : 1,
      ];
      if (existing) {
        ctx.db.run(
          `UPDATE organizations SET allow_personal_projects = ?, max_personal_projects = ?,
             allow_external_contribution = ? WHERE id = ?`,
          ...settings,
          existing.id,
        );
      } else {
        ctx.db.run(
          `INSERT INTO organizations (name, parent_id, allow_personal_projects, max_personal_projects,
             allow_external_contribution, created) VALUES (?, ?, ?, ?, ?, ?)`,
          o.name,
          parentId,
          ...settings,
          isoNow(ctx.now()),
        );
        counts.organizations = (counts.organizations ?? 0) + 1;
      }
    }
  },
};
