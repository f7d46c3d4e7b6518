/**
 * Seeding of mirrors and artifact repositories (with their files) for each seeded project.
 * Rows are what the API would have produced (same defaults, live names, URL rules, and what
 * the API would refuse is a seed error). Written for bulk: every insert is one cached
 * statement inside the seed transaction.
 */
import { ArtifactRepoTypes } from "../../../api/schemas.js";
import type { ServerContext } from "../../context.js";
import type { SeedArtifactRepo, SeedCounts, SeedDocument, SeedMirror } from "../../seed.js";
import { addCount } from "../section.js";
import { isoNow } from "../../store/db.js";
import type { ProjectRow } from "../../store/lookups.js";
import { cleanPath } from "./artifact-paths.js";
import { liveRepoName, mimeType, simulatedSize } from "./artifact-records.js";
import { MIRROR_STATUSES, mirrorUrlProblem } from "./mirror-records.js";

function seedMirrors(
  ctx: ServerContext,
  project: ProjectRow,
  mirrors: SeedMirror[],
  now: string,
  counts: SeedCounts,
): void {
  const seen = new Set<string>();
  for (const m of mirrors) {
    const where = `seed: project ${project.slug}: mirror ${m.repoURLFrom} → ${m.repoURLTo}`;
    const problem = mirrorUrlProblem(m.repoURLFrom, m.repoURLTo);
    if (problem) throw new Error(`${where}: ${problem[1]}`);
    const status = m.status ?? "pending";
    if (!MIRROR_STATUSES.includes(status)) throw new Error(`${where}: unknown status ${status}`);
    const pair = `${m.repoURLFrom}\n${m.repoURLTo}`;
    if (seen.has(pair)) throw new Error(`${where}: seeded twice (the API answers 409)`);
    seen.add(pair);
    ctx.db.run(
      `INSERT INTO mirrors (project_id, repo_url_from, repo_url_to, ref_space_from, ref_space_to,
         frequency, exclude_tags, notification_emails, status, enabled, created, last_run)
       VALUES (@project, @from, @to, @refFrom, @refTo, @frequency, @excludeTags, @emails, @status,
         @enabled, @now, @lastRun)`,
      {
        project: project.id,
        from: m.repoURLFrom,
        to: m.repoURLTo,
        refFrom: m.refSpaceFrom ?? "refs/heads/*",
        refTo: m.refSpaceTo ?? "refs/heads/*",
        frequency: m.frequency ?? "daily",
        excludeTags: m.excludeTags === true ? 1 : 0,
        emails: JSON.stringify(m.notificationEmails ?? []),
        status,
        enabled: m.enabled === false ? 0 : 1,
        now,
        // A mirror seeded as having run shows when it last did.
        lastRun: status === "mirrored" || status === "failed" ? now : null,
      },
    );
  }
  addCount(counts, "mirrors", mirrors.length);
}

function seedArtifactRepos(
  ctx: ServerContext,
  project: ProjectRow,
  repos: SeedArtifactRepo[],
  now: string,
  counts: SeedCounts,
): void {
  for (const a of repos) {
    const name = liveRepoName(ctx, project, a.name);
    const where = `seed: project ${project.slug}: artifact repository ${name}`;
    const repoType = a.repoType ?? "generic";
    if (!(ArtifactRepoTypes as readonly string[]).includes(repoType)) {
      throw new Error(`${where}: unknown repoType ${repoType}`);
    }
    if (ctx.db.get("SELECT 1 FROM artifact_repos WHERE name = ?", name) !== undefined) {
      throw new Error(`${where}: the name is already in use`);
    }
    const repoId = Number(
      ctx.db.run(
        "INSERT INTO artifact_repos (project_id, name, repo_type, created) VALUES (?, ?, ?, ?)",
        project.id,
        name,
        repoType,
        now,
      ).lastInsertRowid,
    );
    addCount(counts, "artifactRepos");
    const paths = new Set<string>();
    for (const f of a.files ?? []) {
      const path = cleanPath(f.path);
      if (path === undefined || paths.has(path)) {
        throw new Error(`${where}: file path ${f.path} is ${path ? "seeded twice" : "not valid"}`);
      }
      paths.add(path);
      ctx.db.run(
        `INSERT INTO artifact_files (repo_id, path, source_path, status, size, mime_type, status_note,
           created, last_modified, last_updated)
         VALUES (@repo, @path, @path, @status, @size, @mime, @notes, @now, @now, @now)`,
        {
          repo: repoId,
          path,
          status: f.status ?? "active",
          size: f.size ?? simulatedSize(path),
          mime: mimeType(path),
          // what an upload that has arrived shows
          notes: JSON.stringify([`upload requested from ${path}`, "file arrived"]),
          now,
        },
      );
    }
    addCount(counts, "artifactFiles", paths.size);
  }
}

/** The artifacts section's part of a seed: `mirrors` and `artifacts` of each project. */
export function seedArtifactsSection(
  ctx: ServerContext,
  doc: SeedDocument,
  counts: SeedCounts,
): void {
  const now = isoNow(ctx.now());
  for (const p of doc.projects ?? []) {
    if (!p.mirrors?.length && !p.artifacts?.length) continue;
    const project = ctx.db.get<ProjectRow>("SELECT * FROM projects WHERE slug = ?", p.slug);
    if (!project) throw new Error(`seed: project ${p.slug} does not exist`);
    seedMirrors(ctx, project, p.mirrors ?? [], now, counts);
    seedArtifactRepos(ctx, project, p.artifacts ?? [], now, counts);
  }
}
