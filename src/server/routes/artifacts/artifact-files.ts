/**
 * Handlers of the files of an artifact repository: list (files and implied folders), upload
 * (pending until the file arrives; status mail to notification_email), read, replace (PUT),
 * partial update (PATCH) and delete, by a path that may contain slashes.
 */
import { defineHandlers, ok, type Caller, type ServerContext } from "../../context.js";
import { conflict, HttpError, notFound } from "../../errors.js";
import { pagedArray } from "../../paging.js";
import { isoNow } from "../../store/db.js";
import { requireProject } from "../../store/lookups.js";
import { cleanPath, destinationPath, listing, parentFolders } from "./artifact-paths.js";
import {
  fileRecord,
  mimeType,
  requireArtifactRepo,
  simulatedSize,
  type ArtifactFileRow,
  type ArtifactRepoRow,
  type FileStatus,
} from "./artifact-records.js";
import { settleArrivals } from "./arrival.js";

type Metadata = Record<string, unknown>;

function findFile(ctx: ServerContext, repoId: number, path: string) {
  return ctx.db.get<ArtifactFileRow>(
    "SELECT * FROM artifact_files WHERE repo_id = ? AND path = ?",
    repoId,
    path,
  );
}

/** True when files lie under `path/` (the path is an implied folder). */
function isFolder(ctx: ServerContext, repoId: number, path: string): boolean {
  const prefix = `${path}/`;
  return (
    ctx.db.get(
      "SELECT 1 FROM artifact_files WHERE repo_id = ? AND substr(path, 1, ?) = ? LIMIT 1",
      repoId,
      prefix.length,
      prefix,
    ) !== undefined
  );
}

/** An upload may not land on a file, on a folder, or below a file. */
function assertFreePath(ctx: ServerContext, repo: ArtifactRepoRow, path: string): void {
  const field = "destinationFilePath";
  if (findFile(ctx, repo.id, path)) {
    throw conflict(
      `${path} already exists in artifact repository ${repo.name}; change it with PUT or PATCH, or delete it first`,
      field,
    );
  }
  if (isFolder(ctx, repo.id, path)) {
    throw conflict(`${path} is a folder in artifact repository ${repo.name}`, field);
  }
  const fileAbove = ctx.db.get<{ path: string }>(
    "SELECT path FROM artifact_files WHERE repo_id = ? AND path IN (SELECT value FROM json_each(?))",
    repo.id,
    JSON.stringify(parentFolders(path)),
  );
  if (fileAbove) {
    throw conflict(
      `${fileAbove.path} is a file in artifact repository ${repo.name}, so it cannot hold ${path}`,
      field,
    );
  }
}

/** The repository of the request, with its due uploads settled (see arrival.ts). */
function openRepo(
  ctx: ServerContext,
  req: { caller: Caller; params: { projectSlug: string; artifactRepoID: number } },
): ArtifactRepoRow {
  const project = requireProject(ctx, req.caller, req.params.projectSlug);
  const repo = requireArtifactRepo(ctx, project, req.params.artifactRepoID);
  settleArrivals(ctx, repo.id);
  return repo;
}

function requireFile(ctx: ServerContext, repo: ArtifactRepoRow, raw: string): ArtifactFileRow {
  const path = cleanPath(raw);
  const f = path === undefined ? undefined : findFile(ctx, repo.id, path);
  if (!f) {
    if (path !== undefined && isFolder(ctx, repo.id, path)) {
      throw new HttpError(
        "NOT_FOUND",
        `${path} is a folder in artifact repository ${repo.name}, not a file`,
      );
    }
    throw notFound(`file ${raw} in artifact repository ${repo.name}`);
  }
  return f;
}

/** RFC 7386 JSON merge patch: given keys replace, `null` removes, objects merge deeply. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  const isObj = (v: unknown): v is Metadata =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  if (!isObj(patch)) return patch;
  const out: Metadata = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** Store a file's new status and metadata; a status change is noted in status_note. */
function updateFile(
  ctx: ServerContext,
  f: ArtifactFileRow,
  status: FileStatus,
  metadata: Metadata,
): ArtifactFileRow {
  const now = isoNow(ctx.now());
  const note = status === f.status ? null : `status set to ${status}`;
  ctx.db.run(
    `UPDATE artifact_files SET status = @status, metadata = @metadata, last_updated = @now,
       status_note = CASE WHEN @note IS NULL THEN status_note ELSE json_insert(status_note, '$[#]', @note) END
     WHERE id = @id`,
    { status, metadata: JSON.stringify(metadata), now, note, id: f.id },
  );
  return ctx.db.get<ArtifactFileRow>("SELECT * FROM artifact_files WHERE id = ?", f.id)!;
}

export const artifactFileHandlers = defineHandlers({
  "artifacts.files.list": (ctx, req) => {
    const repo = openRepo(ctx, req);
    const files = ctx.db.all<Pick<ArtifactFileRow, "path" | "status" | "size">>(
      "SELECT path, status, size FROM artifact_files WHERE repo_id = ?",
      repo.id,
    );
    return pagedArray(req.query, ctx.maxPageSize, listing(files));
  },

  "artifacts.files.upload": (ctx, req) => {
    const { body } = req;
    const repo = openRepo(ctx, req);
    const path = destinationPath(body.destinationFilePath, body.sourceFilePath);
    assertFreePath(ctx, repo, path);
    const now = isoNow(ctx.now());
    const id = Number(
      ctx.db.run(
        `INSERT INTO artifact_files (repo_id, path, source_path, status, size, mime_type, metadata,
           checksum, status_note, created, last_modified, last_updated)
         VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?)`,
        repo.id,
        path,
        body.sourceFilePath,
        simulatedSize(body.sourceFilePath),
        mimeType(path),
        JSON.stringify(body.metadata ?? {}),
        body.checkSum?.toLowerCase() ?? null,
        JSON.stringify([`upload requested from ${body.sourceFilePath}`]),
        now,
        now,
        now,
      ).lastInsertRowid,
    );
    const recipients = (body.notification_email ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
    if (recipients.length > 0) {
      ctx.outbox.send(
        "upload",
        recipients,
        `Upload of ${path} to ${repo.name}: pending`,
        `The upload of ${body.sourceFilePath} to ${repo.name}/${path} was accepted. ` +
          "Its status is pending: the file has not arrived yet.",
        req.caller.parentOrgId,
      );
    }
    const row = ctx.db.get<ArtifactFileRow>("SELECT * FROM artifact_files WHERE id = ?", id)!;
    return ok(fileRecord(row), "upload accepted; the file is pending until it arrives", 201);
  },

  "artifacts.files.get": (ctx, req) => {
    const repo = openRepo(ctx, req);
    return ok(fileRecord(requireFile(ctx, repo, req.params.filePath)));
  },

  "artifacts.files.replace": (ctx, req) => {
    const repo = openRepo(ctx, req);
    const f = requireFile(ctx, repo, req.params.filePath);
    // PUT replaces: metadata that is not given is cleared.
    const row = updateFile(ctx, f, req.body.status, req.body.metadata ?? {});
    return ok(fileRecord(row), "file updated");
  },

  "artifacts.files.patch": (ctx, req) => {
    const repo = openRepo(ctx, req);
    const f = requireFile(ctx, repo, req.params.filePath);
    const old = JSON.parse(f.metadata) as Metadata;
    const metadata =
      req.body.metadata === undefined ? old : (mergePatch(old, req.body.metadata) as Metadata);
    const row = updateFile(ctx, f, req.body.status ?? f.status, metadata);
    return ok(fileRecord(row), "file updated");
  },

  "artifacts.files.delete": (ctx, req) => {
    const project = requireProject(ctx, req.caller, req.params.projectSlug);
    const repo = requireArtifactRepo(ctx, project, req.params.artifactRepoID);
    const path = cleanPath(req.params.filePath);
    if (path !== undefined && findFile(ctx, repo.id, path)) {
      ctx.db.run("DELETE FROM artifact_files WHERE repo_id = ? AND path = ?", repo.id, path);
      return;
    }
    // Deleting an implied folder deletes the files under it, as a folder delete would.
    if (path !== undefined && isFolder(ctx, repo.id, path)) {
      const prefix = `${path}/`;
      ctx.db.run(
        "DELETE FROM artifact_files WHERE repo_id = ? AND substr(path, 1, ?) = ?",
        repo.id,
        prefix.length,
        prefix,
      );
      return;
    }
    throw notFound(`file ${req.params.filePath} in artifact repository ${repo.name}`);
  },
});
