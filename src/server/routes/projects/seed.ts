/**
 * Seeding of the projects section: project rows with their access lists, organization teams,
 * licenses, wiki and pipelines, and the user-team ↔ project associations. Git groups,
 * mirrors and artifact repositories of a seeded project belong to later sections. Lookups
 * (users, organization teams, licenses) are loaded once per parent organization so a large
 * seed costs one insert per row.
 */
import { createHash } from "node:crypto";
import { AccessLevels, TeamLevels } from "../../../api/schemas.js";
import type { ServerContext } from "../../context.js";
import { isoNow } from "../../store/db.js";
import {
  seedParentOrgId,
  type SeedCounts,
  type SeedDocument,
  type SeedProject,
} from "../../seed.js";
import { addCount, seedContext } from "../section.js";
import { licenseIds } from "./licenses.js";
import { ParentScope } from "./seed-scope.js";
import { checkExternalContribution, checkNewSlug } from "./rules.js";
import { PIPELINE_FAILED, PIPELINE_SUCCESS } from "./pipelines.js";
import { spaceKey } from "./wiki.js";

/** Pipeline statuses that have ended, so they get a finish time. */
const FINISHED = new Set([PIPELINE_SUCCESS, PIPELINE_FAILED, "canceled", "skipped"]);

export function seedProjects(ctx: ServerContext, doc: SeedDocument, counts: SeedCounts): void {
  const scopes = new Map<string, ParentScope>();
  const scope = (name: string | undefined) => {
    const key = name ?? "";
    let s = scopes.get(key);
    if (!s) {
      s = new ParentScope(ctx, seedParentOrgId(ctx, doc, name));
      scopes.set(key, s);
    }
    return s;
  };
  const licenses = licenseIds(ctx);
  const now = ctx.now();
  const created = isoNow(now);

  for (const p of doc.projects ?? []) {
    seedContext(`seed: project ${p.slug}`, () => {
      const s = scope(p.parentOrganization);
      const id = insertProject(ctx, s, p, created);
      s.projects.set(p.slug, id);
      addCount(counts, "projects");
      for (const level of AccessLevels) {
        for (const username of p.access?.[level] ?? []) {
          ctx.db.run(
            "INSERT OR IGNORE INTO project_access (project_id, level, user_id) VALUES (?, ?, ?)",
            id,
            level,
            s.user(username),
          );
          addCount(counts, "projectAccess");
        }
      }
      for (const level of TeamLevels) {
        for (const path of p.orgTeams?.[level] ?? []) {
          ctx.db.run(
            "INSERT OR IGNORE INTO project_org_teams (project_id, level, org_team_id) VALUES (?, ?, ?)",
            id,
            level,
            s.orgTeam(path),
          );
          addCount(counts, "projectOrgTeams");
        }
      }
      for (const name of p.licenses ?? []) {
        const lid = licenses.get(name);
        if (lid === undefined) throw new Error(`license ${name} is not in the catalogue`);
        ctx.db.run(
          "INSERT OR IGNORE INTO project_licenses (project_id, license_id) VALUES (?, ?)",
          id,
          lid,
        );
        addCount(counts, "projectLicenses");
      }
      if (p.wiki) {
        ctx.db.run(
          "INSERT INTO wikis (project_id, space_key, created) VALUES (?, ?, ?)",
          id,
          spaceKey(p.slug),
          created,
        );
        addCount(counts, "wikis");
      }
      seedPipelines(ctx, id, p, now, counts);
    });
  }

  for (const t of doc.teams ?? []) {
    if (!t.projects?.length) continue;
    seedContext(`seed: team ${t.name}`, () => {
      const s = scope(t.parentOrganization);
      const team = ctx.db.get<{ id: number }>(
        "SELECT id FROM teams WHERE parent_org_id = ? AND name = ?",
        s.id,
        t.name,
      );
      if (!team) throw new Error("the team does not exist");
      for (const slug of t.projects ?? []) {
        ctx.db.run(
          "INSERT OR IGNORE INTO team_projects (team_id, project_id) VALUES (?, ?)",
          team.id,
          s.project(slug),
        );
        addCount(counts, "teamProjects");
      }
    });
  }
}

/** The project row, with the API's defaults and rules (slug, organization, external contribution). */
function insertProject(
  ctx: ServerContext,
  s: ParentScope,
  p: SeedProject,
  created: string,
): number {
  checkNewSlug(ctx, p.slug, p.name);
  const org = s.org(p.organization);
  checkExternalContribution(org, p.externalContribution);
  const status = p.status ?? "active";
  return Number(
    ctx.db.run(
      `INSERT INTO projects (slug, name, description, visibility, status, restriction_level,
         external_contribution, eccn, parent_org_id, org_id, created, archived_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      p.slug,
      p.name,
      p.description ?? "",
      p.visibility ?? "public",
      status,
      p.restrictionLevel ?? "",
      p.externalContribution === true ? 1 : 0,
      p.eccn ?? "",
      s.id,
      org.id,
      created,
      status === "archived" ? created : null,
    ).lastInsertRowid,
  );
}

/**
 * Pipelines in the order given, oldest first: without `created` the i-th of n is n−i hours
 * old. A missing sha is derived from the slug and position, so a seed is reproducible.
 */
function seedPipelines(
  ctx: ServerContext,
  projectId: number,
  p: SeedProject,
  now: number,
  counts: SeedCounts,
): void {
  const list = p.pipelines ?? [];
  list.forEach((pl, i) => {
    const created = pl.created ?? isoNow(now - (list.length - i) * 3_600_000);
    const duration = pl.duration ?? 0;
    const finished = FINISHED.has(pl.status) ? isoNow(Date.parse(created) + duration * 1000) : null;
    const sha = pl.sha ?? createHash("sha1").update(`${p.slug}:${i}`).digest("hex");
    const pid = Number(
      ctx.db.run(
        `INSERT INTO pipelines (project_id, bundle_id, status, ref, sha, created, finished, duration)
         VALUES (?, NULL, ?, ?, ?, ?, ?, ?)`,
        projectId,
        pl.status,
        pl.ref,
        sha,
        created,
        finished,
        duration,
      ).lastInsertRowid,
    );
    addCount(counts, "pipelines");
    for (const j of pl.jobs ?? []) {
      ctx.db.run(
        `INSERT INTO pipeline_jobs (pipeline_id, name, stage, status, duration, created)
         VALUES (?, ?, ?, ?, ?, ?)`,
        pid,
        j.name,
        j.stage,
        j.status,
        j.duration ?? 0,
        created,
      );
      addCount(counts, "pipelineJobs");
    }
  });
}
