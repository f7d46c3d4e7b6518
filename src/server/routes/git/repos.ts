/**
 * Repositories: list (deleted ones only on request), create with the spec's defaults,
 * read, replace (PUT: absent settings take the defaults), patch, soft delete and garbage
 * collection. A repository lives in the project group or in an existing subgroup; its
 * name and slug are unique among the live repositories of that place.
 */
import type { Static } from "@sinclair/typebox";
import type { UpdateRepoBody } from "../../../api/schemas.js";
import { defineHandlers, ok, statusOnly, type ServerContext } from "../../context.js";
import { badRequest, conflict } from "../../errors.js";
import { paged } from "../../paging.js";
import { isoNow } from "../../store/db.js";
import {
  clashingRepo,
  requireLiveRepo,
  requirePlacement,
  requireRepo,
  requireScope,
  slugOf,
  type GitScope,
  type RepoRow,
} from "./common.js";
import { REPO_SELECT, repoById, repoRecord, type RepoJoined } from "./records.js";

/** The spec's defaults of a new repository (and of PUT for absent settings). */
export const REPO_DEFAULTS = {
  issueTracking: "disabled",
  mergeRequests: "disabled",
  requiresDCO: false,
  enableLFS: false,
  enableForking: true,
} as const;

const STATUS_FILTERS: Record<string, string> = {
  active: "r.status = 'active'",
  archived: "r.status = 'archived'",
  deleted: "r.status = 'deleted'",
};

/** Refuse a name or slug another live repository of the same place already has. */
export function assertNoClash(
  ctx: ServerContext,
  scope: GitScope,
  subgroupId: number | null,
  name: string,
  slug: string,
  exceptId = 0,
): void {
  const c = clashingRepo(ctx, scope.group.id, subgroupId, name, slug, exceptId);
  if (c) {
    throw conflict(
      `repository ${c.field === "name" ? name : slug} already exists in ${
        subgroupId === null ? `project ${scope.project.slug}` : "that subgroup"
      } (id ${c.row.id})`,
      c.field,
    );
  }
}

type Settings = {
  name: string;
  status: "active" | "archived";
  issueTracking: string;
  mergeRequests: string;
  requiresDCO: boolean;
  enableLFS: boolean;
  enableForking: boolean;
};

/** The settings that take the spec's defaults when absent (on create, and on PUT). */
type DefaultedSettings = Omit<Settings, "name" | "status">;

/** The settings given, with the spec's defaults for the absent ones. */
export function withRepoDefaults(given: {
  [K in keyof DefaultedSettings]?: DefaultedSettings[K] | undefined;
}): DefaultedSettings {
  return {
    issueTracking: given.issueTracking ?? REPO_DEFAULTS.issueTracking,
    mergeRequests: given.mergeRequests ?? REPO_DEFAULTS.mergeRequests,
    requiresDCO: given.requiresDCO ?? REPO_DEFAULTS.requiresDCO,
    enableLFS: given.enableLFS ?? REPO_DEFAULTS.enableLFS,
    enableForking: given.enableForking ?? REPO_DEFAULTS.enableForking,
  };
}

/**
 * The values of the columns issue_tracking, merge_requests, requires_dco, enable_lfs and
 * enable_forking, in that order, for the settings given (defaults for the absent ones).
 */
export function settingColumns(
  given: Parameters<typeof withRepoDefaults>[0],
): [string, string, number, number, number] {
  const s = withRepoDefaults(given);
  return [
    s.issueTracking,
    s.mergeRequests,
    Number(s.requiresDCO),
    Number(s.enableLFS),
    Number(s.enableForking),
  ];
}

function update(ctx: ServerContext, scope: GitScope, repo: RepoRow, next: Settings) {
  if (next.name !== repo.name) assertNoClash(ctx, scope, repo.subgroup_id, next.name, "", repo.id);
  // The slug is the repository's path on the git host: a rename keeps it (and the clone URLs).
  ctx.db.run(
    `UPDATE repositories SET name = ?, status = ?, issue_tracking = ?, merge_requests = ?,
       requires_dco = ?, enable_lfs = ?, enable_forking = ? WHERE id = ?`,
    next.name,
    next.status,
    ...settingColumns(next),
    repo.id,
  );
  return ok(repoById(ctx, scope, repo.id), "repository updated");
}

function current(repo: RepoRow): Settings {
  return {
    name: repo.name,
    status: repo.status === "archived" ? "archived" : "active",
    issueTracking: repo.issue_tracking,
    mergeRequests: repo.merge_requests,
    requiresDCO: repo.requires_dco === 1,
    enableLFS: repo.enable_lfs === 1,
    enableForking: repo.enable_forking === 1,
  };
}

/** Only the fields of the body that are present (exactOptionalPropertyTypes-safe). */
function given(body: Static<typeof UpdateRepoBody>): Partial<Settings> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

export const repoHandlers = defineHandlers({
  "git.repos.list": (ctx, { caller, params, query }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    let filter = "r.status != 'deleted'";
    if (query.status !== undefined) {
      const f = STATUS_FILTERS[query.status];
      if (!f) throw badRequest("status must be active, archived or deleted", "status");
      filter = f;
    }
    const where = `r.group_id = ? AND ${filter}`;
    const total = ctx.db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM repositories r WHERE ${where}`,
      s.group.id,
    )!.n;
    return paged(query, ctx.maxPageSize, total, (limit, offset) =>
      ctx.db
        .all<RepoJoined>(
          `${REPO_SELECT} WHERE ${where} ORDER BY r.id LIMIT ? OFFSET ?`,
          s.group.id,
          limit,
          offset,
        )
        .map((r) => repoRecord(ctx, s.namespace, r)),
    );
  },

  "git.repos.create": (ctx, { caller, params, body }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    const sub = requirePlacement(ctx, s, body.repoPathNew);
    const slug = body.repoSlug ?? slugOf(body.name);
    assertNoClash(ctx, s, sub?.id ?? null, body.name, slug);
    const id = Number(
      ctx.db.run(
        `INSERT INTO repositories (group_id, subgroup_id, name, slug, status, issue_tracking,
           merge_requests, requires_dco, enable_lfs, enable_forking, source_repo_id, created)
         VALUES (?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, 0, ?)`,
        s.group.id,
        sub?.id ?? null,
        body.name,
        slug,
        ...settingColumns(body),
        isoNow(ctx.now()),
      ).lastInsertRowid,
    );
    return ok(repoById(ctx, s, id), "repository created", 201);
  },

  "git.repos.get": (ctx, { caller, params }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    return ok(repoById(ctx, s, requireRepo(ctx, s, params.repoID).id));
  },

  "git.repos.replace": (ctx, { caller, params, body }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    const repo = requireLiveRepo(ctx, s, params.repoID);
    // Name and status have no default: absent means unchanged. Settings reset to defaults.
    const now = current(repo);
    return update(ctx, s, repo, {
      name: body.name ?? now.name,
      status: body.status ?? now.status,
      ...withRepoDefaults(body),
    });
  },

  "git.repos.patch": (ctx, { caller, params, body }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    const repo = requireLiveRepo(ctx, s, params.repoID);
    return update(ctx, s, repo, { ...current(repo), ...given(body) });
  },

  "git.repos.delete": (ctx, { caller, params }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    const repo = requireLiveRepo(ctx, s, params.repoID);
    // Soft delete: the row stays (GET and ?status=deleted show it); its name is free again.
    ctx.db.run(
      "UPDATE repositories SET status = 'deleted', deleted_at = ? WHERE id = ?",
      isoNow(ctx.now()),
      repo.id,
    );
  },

  "git.repos.cleanup": (ctx, { caller, params }) => {
    const s = requireScope(ctx, caller, params.projectSlug);
    const repo = requireLiveRepo(ctx, s, params.repoID);
    return statusOnly(`garbage collection of repository ${repo.id} finished`);
  },
});
