/**
 * Licenses of a project. Only licenses of the catalogue (GET /v1/licenses) can be assigned:
 * a new license comes by support ticket, never through the API.
 */
import type { Static } from "@sinclair/typebox";
import type { License } from "../../../api/schemas.js";
import { defineHandlers, ok, statusOnly, type ServerContext } from "../../context.js";
import { conflict, notFound, ruleViolated } from "../../errors.js";
import { requireProject } from "../../store/lookups.js";

type LicenseRecord = Static<typeof License>;

function licensesOf(ctx: ServerContext, projectId: number): LicenseRecord[] {
  return ctx.db.all<LicenseRecord>(
    `SELECT l.name, l.title, l.url FROM project_licenses pl JOIN licenses l ON l.id = pl.license_id
     WHERE pl.project_id = ? ORDER BY l.name`,
    projectId,
  );
}

function catalogueId(ctx: ServerContext, name: string): number | undefined {
  return ctx.db.get<{ id: number }>("SELECT id FROM licenses WHERE name = ?", name)?.id;
}

export const licenseHandlers = defineHandlers({
  "projects.licenses.list": (ctx, { caller, params }) =>
    licensesOf(ctx, requireProject(ctx, caller, params.projectSlug).id),

  "projects.licenses.add": (ctx, { caller, params }) => {
    const p = requireProject(ctx, caller, params.projectSlug);
    const id = catalogueId(ctx, params.name);
    if (id === undefined) {
      throw ruleViolated(
        `license ${params.name} does not exist; new licenses come by support ticket`,
        "name",
      );
    }
    const r = ctx.db.run(
      "INSERT OR IGNORE INTO project_licenses (project_id, license_id) VALUES (?, ?)",
      p.id,
      id,
    );
    if (r.changes === 0) {
      throw conflict(`license ${params.name} is already assigned to project ${p.slug}`, "name");
    }
    return ok(licensesOf(ctx, p.id), `license ${params.name} added to project ${p.slug}`, 201);
  },

  "projects.licenses.remove": (ctx, { caller, params }) => {
    const p = requireProject(ctx, caller, params.projectSlug);
    const id = catalogueId(ctx, params.name);
    const r =
      id === undefined
        ? { changes: 0 }
        : ctx.db.run(
            "DELETE FROM project_licenses WHERE project_id = ? AND license_id = ?",
            p.id,
            id,
          );
    if (r.changes === 0) throw notFound(`license ${params.name} of project ${p.slug}`);
    return statusOnly(`license ${params.name} removed from project ${p.slug}`);
  },
});

/** License ids by SPDX name (seeding resolves a project's licenses with it). */
export function licenseIds(ctx: ServerContext): Map<string, number> {
  return new Map(
    ctx.db
      .all<{ id: number; name: string }>("SELECT id, name FROM licenses")
      .map((l) => [l.name, l.id]),
  );
}
