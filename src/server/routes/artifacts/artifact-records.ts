/**
 * Artifact repositories and files as stored and as answered: row types, API records, the
 * live repository name `<org>-<project_id>-<name>`, the repository URL, and the simulated
 * parts of a file (size, MIME type) — no bytes are ever stored.
 */
import type { Static } from "@sinclair/typebox";
import { createHash } from "node:crypto";
import type { ArtifactFile, ArtifactRepo } from "../../../api/schemas.js";
import type { ServerContext } from "../../context.js";
import { notFound } from "../../errors.js";
import { json } from "../../store/db.js";
import { orgName, type ProjectRow } from "../../store/lookups.js";

export interface ArtifactRepoRow {
  id: number;
  project_id: number;
  name: string;
  repo_type: string;
  created: string;
}

export type FileStatus = "pending" | "active" | "inactive";

export interface ArtifactFileRow {
  id: number;
  repo_id: number;
  path: string;
  source_path: string;
  status: FileStatus;
  size: number;
  mime_type: string;
  metadata: string;
  checksum: string | null;
  status_note: string;
  download_count: number;
  last_downloaded: string | null;
  created: string;
  last_modified: string;
  last_updated: string;
}

/** The live name: the service prefixes the given name with the organization and project id. */
export function liveRepoName(ctx: ServerContext, project: ProjectRow, name: string): string {
  return `${orgName(ctx, project.org_id)}-${project.id}-${name}`;
}

/** Artifact host next to the git host: git.example.org → artifacts.example.org. */
export function artifactHost(gitHost: string): string {
  return `artifacts.${gitHost.startsWith("git.") ? gitHost.slice(4) : gitHost}`;
}

export function artifactRepoRecord(
  ctx: ServerContext,
  r: ArtifactRepoRow,
): Static<typeof ArtifactRepo> {
  return {
    id: r.id,
    name: r.name,
    repoType: r.repo_type,
    url: `https://${artifactHost(ctx.gitHost)}/artifactory/${r.name}`,
    created: r.created,
  };
}

/** An artifact repository of the project; 404 otherwise (including other projects' ones). */
export function requireArtifactRepo(
  ctx: ServerContext,
  project: ProjectRow,
  id: number,
): ArtifactRepoRow {
  const r = ctx.db.get<ArtifactRepoRow>(
    "SELECT * FROM artifact_repos WHERE id = ? AND project_id = ?",
    id,
    project.id,
  );
  if (!r) throw notFound(`artifact repository ${id} of project ${project.slug}`);
  return r;
}

/** The size a client sees: nothing has arrived while the file is pending. */
export function shownSize(f: Pick<ArtifactFileRow, "status" | "size">): number {
  return f.status === "pending" ? 0 : f.size;
}

export function fileRecord(f: ArtifactFileRow): Static<typeof ArtifactFile> {
  return {
    uri: f.path,
    created: f.created,
    lastModified: f.last_modified,
    lastUpdated: f.last_updated,
    size: String(shownSize(f)),
    mimeType: f.mime_type,
    metadata: json<Record<string, unknown>>(f.metadata, {}),
    checkSum: f.checksum,
    status: f.status,
    status_note: json<string[]>(f.status_note, []),
    downloadCount: f.download_count,
    lastDownloaded: f.last_downloaded,
  };
}

/**
 * A stable size for a file that is never really transferred: derived from its source path,
 * between 1 KiB and about 8 MiB, so the same upload always shows the same size.
 */
export function simulatedSize(sourcePath: string): number {
  const h = createHash("sha1").update(sourcePath).digest();
  return 1024 + (h.readUInt32BE(0) % (8 * 1024 * 1024));
}

const MIME: Record<string, string> = {
  "tar.gz": "application/gzip",
  tgz: "application/gzip",
  gz: "application/gzip",
  tar: "application/x-tar",
  zip: "application/zip",
  jar: "application/java-archive",
  json: "application/json",
  xml: "application/xml",
  pom: "application/xml",
  txt: "text/plain",
  md: "text/markdown",
  deb: "application/vnd.debian.binary-package",
  rpm: "application/x-rpm",
  whl: "application/zip",
  bin: "application/octet-stream",
};

/** MIME type by file extension (application/octet-stream when unknown). */
export function mimeType(path: string): string {
  const name = (path.split("/").pop() ?? "").toLowerCase();
  if (name.endsWith(".tar.gz")) return MIME["tar.gz"];
  const dot = name.lastIndexOf(".");
  return (dot > 0 ? MIME[name.slice(dot + 1)] : undefined) ?? "application/octet-stream";
}
