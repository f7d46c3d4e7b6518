/**
 * Mirrors as stored and as answered: the row type, the API record (mirrorID as a string, as
 * the spec types it), the spec's URL rules (source http(s) or ssh, destination ssh) and the
 * lookup of one mirror inside a project.
 */
import type { Static } from "@sinclair/typebox";
import { MirrorFrequencies, MirrorStatuses, type Mirror } from "../../../api/schemas.js";
import type { ServerContext } from "../../context.js";
import { notFound } from "../../errors.js";
import { bool, json } from "../../store/db.js";
import type { ProjectRow } from "../../store/lookups.js";

export type MirrorRecord = Static<typeof Mirror>;
export type MirrorStatus = MirrorRecord["status"];
export type MirrorFrequency = MirrorRecord["frequency"];

export const MIRROR_STATUSES: readonly MirrorStatus[] = MirrorStatuses;
export const MIRROR_FREQUENCIES: readonly MirrorFrequency[] = MirrorFrequencies;

export interface MirrorRow {
  id: number;
  project_id: number;
  repo_url_from: string;
  repo_url_to: string;
  ref_space_from: string;
  ref_space_to: string;
  frequency: MirrorFrequency;
  exclude_tags: number;
  notification_emails: string;
  status: MirrorStatus;
  status_code: number | null;
  enabled: number;
  notes: string;
  created: string;
  last_run: string | null;
}

export function mirrorRecord(r: MirrorRow): MirrorRecord {
  return {
    mirrorID: String(r.id),
    repoURLFrom: r.repo_url_from,
    repoURLTo: r.repo_url_to,
    refSpaceFrom: r.ref_space_from,
    refSpaceTo: r.ref_space_to,
    frequency: r.frequency,
    excludeTags: bool(r.exclude_tags),
    notificationEmails: json<string[]>(r.notification_emails, []),
    status: r.status,
    enabled: bool(r.enabled),
    notes: r.notes,
    statusCode: r.status_code,
    created: r.created,
    lastRun: r.last_run,
  };
}

/** A mirror of the project; 404 otherwise (including mirrors of other projects). */
export function requireMirror(ctx: ServerContext, project: ProjectRow, id: number): MirrorRow {
  const m = ctx.db.get<MirrorRow>(
    "SELECT * FROM mirrors WHERE id = ? AND project_id = ?",
    id,
    project.id,
  );
  if (!m) throw notFound(`mirror ${id} of project ${project.slug}`);
  return m;
}

// scp-like git address: user@host:path (the path must not start with "//", which would be a URL).
const SCP_LIKE = /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:(?!\/\/)\S+$/;

function parsed(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** `ssh://[user@]host[:port]/path` or scp-like `user@host:path`. */
export function isSshUrl(url: string): boolean {
  if (url.startsWith("ssh://")) {
    const u = parsed(url);
    return u !== undefined && u.hostname !== "" && u.pathname.length > 1;
  }
  return SCP_LIKE.test(url);
}

/** `http(s)://host/path` (a repository, so a path is needed). */
export function isHttpUrl(url: string): boolean {
  const u = parsed(url);
  return (
    u !== undefined &&
    (u.protocol === "http:" || u.protocol === "https:") &&
    u.hostname !== "" &&
    u.pathname.length > 1
  );
}

/** Why a mirror's URLs break the spec's rules, as [field, message], or undefined. */
export function mirrorUrlProblem(
  from: string,
  to: string,
): ["repoURLFrom" | "repoURLTo", string] | undefined {
  if (!isHttpUrl(from) && !isSshUrl(from)) {
    return ["repoURLFrom", `repoURLFrom must be an http(s) or ssh URL, got ${from}`];
  }
  if (!isSshUrl(to)) {
    return [
      "repoURLTo",
      `repoURLTo must be an ssh URL (ssh://git@host/path.git or git@host:path.git), got ${to}`,
    ];
  }
  return undefined;
}
