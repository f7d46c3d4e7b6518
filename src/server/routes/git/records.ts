/**
 * Git rows → API records: group, subgroup, repository (with its commit blocker and
 * persistent storage), commit and bundle. One SELECT (`REPO_SELECT`) feeds both
 * the repository list and the detail, so they cannot drift apart.
 */
import type { Static } from "@sinclair/typebox";
import type { Bundle, Commit, GitGroup, Repository, Subgroup } from "../../../api/schemas.js";
import type { ServerContext } from "../../context.js";
import { bool, json } from "../../store/db.js";
import type { GroupRow, ProjectRow } from "../../store/lookups.js";
import { httpsRepoUrl, sshRepoUrl } from "../../urls.js";
import type { GitScope, RepoRow, SubgroupRow } from "./common.js";

export function groupRecord(
  ctx: ServerContext,
  project: ProjectRow,
  group: GroupRow,
  namespace: string,
): Static<typeof GitGroup> {
  return {
    id: group.id,
    name: project.name,
    path: group.path,
    fullPath: namespace,
    request_access_enabled: bool(group.request_access_enabled),
    enable_ci: bool(group.enable_ci),
    webUrl: `https://${ctx.gitHost}/${namespace}`,
    created: group.created,
  };
}

export function subgroupRecord(s: SubgroupRow, namespace: string): Static<typeof Subgroup> {
  return {
    id: s.id,
    name: s.name,
    path: s.path,
    fullPath: `${namespace}/${s.path}`,
    parentId: s.parent_id,
    request_access_enabled: bool(s.request_access_enabled),
    created: s.created,
  };
}

/** A repository row joined with its subgroup path, commit blocker and persistent storage. */
export type RepoJoined = RepoRow & {
  subgroup_path: string | null;
  cb_repo: number | null;
  cb_author: string | null;
  cb_committer: string | null;
  cb_since: string | null;
  ps_id: number | null;
  ps_status: string | null;
};

/** Append WHERE/ORDER/LIMIT to this. */
export const REPO_SELECT = `SELECT r.*, s.path AS subgroup_path,
    cb.repo_id AS cb_repo, cb.author AS cb_author, cb.committer AS cb_committer, cb.since AS cb_since,
    ps.id AS ps_id, ps.status AS ps_status
  FROM repositories r
  LEFT JOIN subgroups s ON s.id = r.subgroup_id
  LEFT JOIN commit_blockers cb ON cb.repo_id = r.id
  LEFT JOIN persistent_storage ps ON ps.repo_id = r.id`;

export function repoRecord(
  ctx: ServerContext,
  namespace: string,
  r: RepoJoined,
): Static<typeof Repository> {
  const sub = r.subgroup_path ?? "";
  return {
    name: r.name,
    repoSlug: r.slug,
    gitRepoID: r.id,
    status: r.status,
    issueTracking: r.issue_tracking,
    mergeRequests: r.merge_requests,
    requiresDCO: bool(r.requires_dco),
    enableLFS: bool(r.enable_lfs),
    enableForking: bool(r.enable_forking),
    sshURI: sshRepoUrl(ctx.gitHost, namespace, sub, r.slug),
    httpURI: httpsRepoUrl(ctx.gitHost, namespace, sub, r.slug),
    subgroups: sub,
    created: r.created,
    gitSourceRepoID: r.source_repo_id,
    lastPush: r.last_push,
    lastPull: r.last_pull,
    repoSizeBytes: r.size_bytes,
    commitBlocker:
      r.cb_repo === null
        ? null
        : {
            author: json<string[]>(r.cb_author, []),
            committer: json<string[]>(r.cb_committer, []),
            since: r.cb_since,
          },
    persistentStorage:
      r.ps_id === null ? null : { filesystemId: r.ps_id, status: r.ps_status ?? "" },
  };
}

/** The record of one repository of the scope (it exists: the caller just read or wrote it). */
export function repoById(
  ctx: ServerContext,
  scope: GitScope,
  id: number,
): Static<typeof Repository> {
  const r = ctx.db.get<RepoJoined>(`${REPO_SELECT} WHERE r.id = ?`, id)!;
  return repoRecord(ctx, scope.namespace, r);
}

export interface CommitRow {
  repo_id: number;
  sha: string;
  refs: string;
  title: string;
  message: string;
  author_name: string;
  author_email: string;
  committer_name: string;
  committer_email: string;
  created: string;
  parent_ids: string;
}

export function commitRecord(c: CommitRow): Static<typeof Commit> {
  return {
    id: c.sha,
    shortId: c.sha.slice(0, 8),
    title: c.title,
    message: c.message,
    authorName: c.author_name,
    authorEmail: c.author_email,
    committerName: c.committer_name,
    committerEmail: c.committer_email,
    createdAt: c.created,
    parentIds: json<string[]>(c.parent_ids, []),
  };
}

export interface BundleRow {
  id: number;
  project_id: number;
  repo_id: number | null;
  frequency: string;
  created: string;
}

export function bundleRecord(b: BundleRow, projectSlug: string): Static<typeof Bundle> {
  return {
    id: b.id,
    projectSlug,
    repoId: b.repo_id,
    frequency: b.frequency,
    created: b.created,
  };
}
