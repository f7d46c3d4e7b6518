/**
 * Archiving an external, publicly accessible git tree as .tar.gz: the request is recorded
 * (answered "pending", as the file is produced later on the real service) and the
 * `notification` address gets the "archive is ready" mail through the outbox.
 */
import type { Static } from "@sinclair/typebox";
import type { ExternalArchive } from "../../../api/schemas.js";
import { defineHandlers, ok } from "../../context.js";
import { ruleViolated } from "../../errors.js";
import { isoNow } from "../../store/db.js";
import { requireProject } from "../../store/lookups.js";
import { parseHostRepoUrl } from "../../urls.js";
import { resolveRepoPath } from "./resolve.js";

/** Public trees are fetched anonymously: http(s) or git://, never ssh. */
const PUBLIC_URL = /^(https?|git):\/\/[^/\s]+\/\S+$/;

/** The file name the archive gets: always .tar.gz, whatever the request ends with. */
export function tarGzName(name: string): string {
  return `${name.replace(/\.(tar\.gz|tgz|tar)$/i, "")}.tar.gz`;
}

export const archiveHandlers = defineHandlers({
  "git.archiveExternal": (ctx, { caller, params, body }) => {
    const project = requireProject(ctx, caller, params.projectSlug);
    const url = body.repoGitURL.trim();
    if (!PUBLIC_URL.test(url)) {
      throw ruleViolated(
        `${body.repoGitURL} is not a publicly accessible git URL (https:// or git://)`,
        "repoGitURL",
      );
    }
    const onHost = parseHostRepoUrl(ctx.gitHost, url);
    const hosted =
      onHost === undefined ? undefined : resolveRepoPath(ctx, caller.parentOrgId, onHost);
    if (hosted?.project.visibility === "private") {
      throw ruleViolated(
        `${body.repoGitURL} belongs to a private project; only public trees can be archived`,
        "repoGitURL",
      );
    }
    const created = isoNow(ctx.now());
    const filename = tarGzName(body.archiveFilename);
    const id = Number(
      ctx.db.run(
        `INSERT INTO external_archives (project_id, repo_git_url, ref_space, format, filename,
           prefix, notification, metadata, status, created)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
        project.id,
        url,
        body.refSpace,
        body.format,
        filename,
        body.prefix,
        body.notification,
        JSON.stringify(body.metadata ?? {}),
        created,
      ).lastInsertRowid,
    );
    const record: Static<typeof ExternalArchive> = {
      id,
      repoGitURL: url,
      refSpace: body.refSpace,
      format: body.format,
      archiveFilename: filename,
      prefix: body.prefix,
      notification: body.notification,
      status: "pending",
      created,
    };
    // Nothing is really fetched: the file is "ready" at once, which is what the mail says.
    ctx.outbox.send(
      "archive",
      [body.notification],
      `Archive ${filename} is ready`,
      `The archive ${filename} of ${url} at ${body.refSpace} (prefix "${body.prefix}") requested for project ${project.slug} is ready.`,
      caller.parentOrgId,
    );
    ctx.db.run("UPDATE external_archives SET status = 'ready' WHERE id = ?", id);
    return ok(record, "archive requested", 201);
  },
});
