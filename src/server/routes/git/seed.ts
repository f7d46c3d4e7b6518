/**
 * Seeding of the git section, after the projects section: per project its git group,
 * subgroups (every level), repositories in order (subgroup, status, settings, fork source,
 * commit blocker, persistent storage, size, commits) and bundles, and the link of pipelines
 * marked `bundle: true` to the project's bundle. Namespace paths, fork sources and subgroups
 * are cached per seed, so a large seed costs a few statements per row.
 */
import type { ServerContext } from "../../context.js";
import { isoNow } from "../../store/db.js";
import type { GroupRow, ProjectRow } from "../../store/lookups.js";
import type { SeedCounts, SeedDocument, SeedProject, SeedRepository } from "../../seed.js";
import { addCount, seedContext } from "../section.js";
import { writeBlocker } from "./blockers.js";
import { insertBundle } from "./bundles.js";
import { normalisePath, slugOf } from "./common.js";
import { insertGroup } from "./groups.js";
import { settingColumns } from "./repos.js";
import { insertStorage } from "./storage.js";
import { ensureSubgroupPath } from "./subgroups.js";

const repoKey = (project: string, subgroup: string, name: string) =>
  `${project}\u0000${normalisePath(subgroup)}\u0000${name}`;

/** The state one seed call carries from project to project. */
class GitSeed {
  /** Repositories seeded so far (fork sources), by project, subgroup path and name. */
  readonly repos = new Map<string, number>();
  /** Group paths in use, by namespace key, loaded on first use (one query, not one per group). */
  private paths?: Map<string, string>;

  constructor(
    private readonly ctx: ServerContext,
    private readonly counts: SeedCounts,
  ) {}

  project(slug: string): ProjectRow {
    const p = this.ctx.db.get<ProjectRow>("SELECT * FROM projects WHERE slug = ?", slug);
    if (!p) throw new Error(`project ${slug} does not exist`);
    return p;
  }

  group(p: ProjectRow, git: NonNullable<SeedProject["git"]>): GroupRow {
    const existing = this.ctx.db.get<GroupRow>(
      "SELECT * FROM git_groups WHERE project_id = ?",
      p.id,
    );
    if (existing) return existing;
    const paths = (this.paths ??= new Map(
      this.ctx.db
        .all<{ key: string; slug: string }>(
          `SELECT p.org_id || '/' || p.visibility || '/' || lower(g.path) AS key, p.slug
           FROM git_groups g JOIN projects p ON p.id = g.project_id`,
        )
        .map((r) => [r.key, r.slug]),
    ));
    const key = (x: ProjectRow, path: string) =>
      `${x.org_id}/${x.visibility}/${path.toLowerCase()}`;
    const path = git.path ?? p.slug;
    const group = insertGroup(
      this.ctx,
      p,
      path,
      git.requestAccessEnabled ?? false,
      git.enableCi ?? false,
      (x, candidate) => paths.get(key(x, candidate)),
    );
    paths.set(key(p, path), p.slug);
    addCount(this.counts, "gitGroups");
    return group;
  }

  /** Subgroup id of a path (created with every missing level); null for "". */
  subgroup(group: GroupRow, cache: Map<string, number>, raw: string | undefined): number | null {
    const path = normalisePath(raw);
    if (path === "") return null;
    const known = cache.get(path);
    if (known !== undefined) return known;
    const { levels, created } = ensureSubgroupPath(this.ctx, group.id, path);
    addCount(this.counts, "subgroups", created.length);
    for (const l of levels) cache.set(l.path, l.id);
    return levels[levels.length - 1].id;
  }

  /** Id of a fork source: seeded earlier in this call, or already in the database. */
  source(of: NonNullable<SeedRepository["forkOf"]>): number {
    const hit = this.repos.get(repoKey(of.project, of.subgroup ?? "", of.name));
    if (hit !== undefined) return hit;
    const row = this.ctx.db.get<{ id: number }>(
      `SELECT r.id FROM repositories r JOIN git_groups g ON g.id = r.group_id
       JOIN projects p ON p.id = g.project_id LEFT JOIN subgroups s ON s.id = r.subgroup_id
       WHERE p.slug = ? AND IFNULL(s.path, '') = ? AND r.name = ? AND r.status != 'deleted'`,
      of.project,
      normalisePath(of.subgroup),
      of.name,
    );
    if (!row) {
      throw new Error(
        `fork source ${of.project}/${of.subgroup ? `${of.subgroup}/` : ""}${of.name} was not seeded before`,
      );
    }
    return row.id;
  }

  repo(p: ProjectRow, group: GroupRow, subgroupId: number | null, r: SeedRepository): number {
    const { ctx } = this;
    const slug = slugOf(r.name);
    const status = r.status ?? "active";
    const live =
      status === "deleted"
        ? undefined
        : ctx.db.get<{ id: number }>(
            `SELECT id FROM repositories WHERE group_id = ? AND IFNULL(subgroup_id, 0) = ?
               AND slug = ? AND status != 'deleted'`,
            group.id,
            subgroupId ?? 0,
            slug,
          );
    // Seeding the same document twice keeps the repository that is already there.
    if (live) return live.id;
    const commits = r.commits ?? [];
    const now = ctx.now();
    const created = commits.map(
      (c, i) => c.created ?? isoNow(now - (commits.length - i) * 3_600_000),
    );
    const lastPush = created.length ? created.reduce((a, b) => (a > b ? a : b)) : null;
    const id = Number(
      ctx.db.run(
        `INSERT INTO repositories (group_id, subgroup_id, name, slug, status, issue_tracking,
           merge_requests, requires_dco, enable_lfs, enable_forking, source_repo_id, created,
           last_push, size_bytes, deleted_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        group.id,
        subgroupId,
        r.name,
        slug,
        status,
        ...settingColumns(r),
        r.forkOf ? this.source(r.forkOf) : 0,
        isoNow(now),
        lastPush,
        r.sizeBytes ?? 0,
        status === "deleted" ? isoNow(now) : null,
      ).lastInsertRowid,
    );
    addCount(this.counts, "repositories");
    if (r.commitBlocker) {
      writeBlocker(ctx, id, {
        author: r.commitBlocker.author ?? [],
        committer: r.commitBlocker.committer ?? [],
        since: r.commitBlocker.since ?? null,
      });
      addCount(this.counts, "commitBlockers");
    }
    if (r.persistentStorage) {
      insertStorage(ctx, id);
      addCount(this.counts, "persistentStorage");
    }
    let parent: string | undefined;
    commits.forEach((c, i) => {
      const sha = c.sha.toLowerCase();
      const committer = c.committerEmail ?? c.authorEmail;
      ctx.db.run(
        `INSERT INTO commits (repo_id, sha, refs, title, message, author_name, author_email,
           committer_name, committer_email, created, parent_ids)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        id,
        sha,
        JSON.stringify(c.refs ?? []),
        c.title,
        c.title,
        c.authorEmail.split("@")[0],
        c.authorEmail,
        committer.split("@")[0],
        committer,
        created[i],
        JSON.stringify(parent === undefined ? [] : [parent]),
      );
      parent = sha;
    });
    addCount(this.counts, "commits", commits.length);
    if (status !== "deleted")
      this.repos.set(repoKey(p.slug, normalisePath(r.subgroup), r.name), id);
    return id;
  }

  /** Bundles of the project; `repository` names a repository as "[subgroup/]name". */
  bundles(p: ProjectRow, git: NonNullable<SeedProject["git"]>): void {
    for (const b of git.bundles ?? []) {
      let repoId: number | null = null;
      if (b.repository !== undefined) {
        const i = b.repository.lastIndexOf("/");
        const sub = i < 0 ? "" : b.repository.slice(0, i);
        const name = b.repository.slice(i + 1);
        const hit = this.repos.get(repoKey(p.slug, sub, name));
        if (hit === undefined) throw new Error(`bundle repository ${b.repository} is not seeded`);
        repoId = hit;
      }
      insertBundle(this.ctx, p, repoId, b.frequency);
      addCount(this.counts, "bundles");
    }
  }

  /**
   * Pipelines marked `bundle: true` belong to the project bundle (or the first bundle). The
   * projects section inserted the project's pipelines in document order, so the last n
   * pipelines of the project are the document's n.
   */
  bundlePipelines(p: ProjectRow, sp: SeedProject): void {
    const list = sp.pipelines ?? [];
    if (!list.some((pl) => pl.bundle)) return;
    const bundle = this.ctx.db.get<{ id: number }>(
      "SELECT id FROM bundles WHERE project_id = ? ORDER BY repo_id IS NOT NULL, id LIMIT 1",
      p.id,
    );
    if (!bundle) throw new Error("pipelines are marked bundle: true but the project has no bundle");
    const ids = this.ctx.db
      .all<{ id: number }>(
        "SELECT id FROM pipelines WHERE project_id = ? ORDER BY id DESC LIMIT ?",
        p.id,
        list.length,
      )
      .map((r) => r.id)
      .reverse();
    list.forEach((pl, i) => {
      if (pl.bundle && ids[i] !== undefined) {
        this.ctx.db.run("UPDATE pipelines SET bundle_id = ? WHERE id = ?", bundle.id, ids[i]);
        addCount(this.counts, "bundlePipelines");
      }
    });
  }
}

export function seedGit(ctx: ServerContext, doc: SeedDocument, counts: SeedCounts): void {
  const s = new GitSeed(ctx, counts);
  for (const sp of doc.projects ?? []) {
    const git = sp.git;
    if (!git && !sp.pipelines?.some((pl) => pl.bundle)) continue;
    seedContext(`seed: git of project ${sp.slug}`, () => {
      const p = s.project(sp.slug);
      if (git) {
        const group = s.group(p, git);
        const subgroups = new Map<string, number>();
        for (const path of git.subgroups ?? []) s.subgroup(group, subgroups, path);
        for (const r of git.repositories ?? []) {
          seedContext(`repository ${r.name}`, () =>
            s.repo(p, group, s.subgroup(group, subgroups, r.subgroup), r),
          );
        }
        s.bundles(p, git);
      }
      s.bundlePipelines(p, sp);
    });
  }
}
