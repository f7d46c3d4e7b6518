/**
 * Repository: a git repository of a project (`project/<slug>/repo/[<subgroup>/]<name>`), with
 * its settings, status (active ↔ archived), fork source, commit blocker, persistent storage
 * and bundle. Whether it is a fork is fixed at creation (blocked); so is a bundle's frequency
 * (bundles cannot be updated or deleted through the API: blocked), though a missing bundle is
 * created. Undeclared live repositories are deleted only with `prune.repositories`. Created
 * after the group, its subgroup and — when the fork source is declared in these manifests,
 * in any project — the source repository.
 *
 * Reads: 1 call per declared project with `git` whose group exists (all=true; the records
 * carry the commit blocker and persistent storage), + 1 bundles call per such project that
 * declares a bundle. Fork sources are resolved only among those reads (no extra call).
 */
import { mapBounded } from "../engine/bounded.js";
import { diffObject } from "../engine/diff.js";
import { readBundles, readRepositories, type LiveRepository } from "../engine/readers.js";
import { groupKey, repositoryKey, subgroupKey } from "../manifest/keys.js";
import type { RepositoryState } from "../manifest/types.js";
import { defineKind, type ImmutableRule, type LiveObject, type ResourceKind } from "./kind.js";
import { gitProjects, slugOfKey } from "./git-shared.js";
import { createRepository, deleteRepository, updateRepository } from "./repository-apply.js";
import {
  desiredFields,
  liveFork,
  recordFields,
  type ForkSource,
  type RepoFields,
} from "./repository-fields.js";

const BUNDLE_RULE: ImmutableRule = {
  action: "blocked",
  reason:
    "bundle: a bundle's frequency cannot be changed (bundles cannot be updated or deleted through the API)",
};

const immutable = {
  fork: {
    action: "blocked",
    reason:
      "fork: a repository cannot become a fork after creation (nor stop being one, nor change its source); delete and re-create it",
  },
  bundle: BUNDLE_RULE,
} as const satisfies Partial<Record<keyof RepoFields & string, ImmutableRule>>;

/**
 * The subgroups a repository key lives in, deepest first (`project/p/repo/a/b/r` → the
 * subgroups `a/b` and `a`): deleting one of them deletes the repository with it.
 */
export function repositoryContainers(key: string): string[] {
  const parts = key.split("/").slice(3, -1);
  const slug = slugOfKey(key);
  return parts.map((_, i) => subgroupKey(slug, parts.slice(0, parts.length - i).join("/")));
}

/** The kind without the bundle rule: a repository without a bundle gets one by an update. */
let withoutBundleRule: ResourceKind | undefined;

export const repositoryKind: ResourceKind = defineKind<RepoFields>({
  kind: "Repository",
  ownership: {
    mode: "prune",
    setting: "repositories",
    parentKey: (key) => groupKey(slugOfKey(key)),
    containers: repositoryContainers,
  },
  immutable,
  destructiveDelete: true,
  desired: (state) =>
    gitProjects(state).flatMap((p) =>
      p.git.repositories.map((r) => ({
        key: r.key,
        fields: desiredFields(r),
        source: r.source,
        dependsOn: [
          groupKey(p.slug),
          ...(r.subgroup ? [subgroupKey(p.slug, r.subgroup)] : []),
          ...(r.forkFromKey ? [r.forkFromKey] : []),
        ],
        protect: p.protect,
      })),
    ),
  read: async (ctx, state) => {
    const projects = gitProjects(state);
    const read = await mapBounded(projects, async (p) => {
      const [repos, bundles] = await Promise.all([
        readRepositories(ctx, p.slug),
        p.git.repositories.some((r) => r.bundle)
          ? readBundles(ctx, p.slug)
          : Promise.resolve(undefined),
      ]);
      return { p, repos, bundles };
    });
    const byId = new Map<number, ForkSource>();
    for (const { p, repos } of read)
      for (const r of repos)
        byId.set(r.gitRepoID, { key: repositoryKey(p.slug, r.subgroups, r.name), record: r });
    return read.flatMap(({ p, repos, bundles }) => {
      const declared = new Map<string, RepositoryState>(p.git.repositories.map((r) => [r.key, r]));
      return repos.map((r: LiveRepository): LiveObject<RepoFields> => {
        const key = repositoryKey(p.slug, r.subgroups, r.name);
        const decl = declared.get(key);
        const fork = liveFork(r, decl, byId.get(r.gitSourceRepoID));
        // Like the desired side: the bundle is a field only where the manifest declares one.
        const bundle =
          bundles && decl?.bundle
            ? (bundles.find((b) => b.repoId === r.gitRepoID)?.frequency ?? null)
            : undefined;
        return { key, fields: recordFields(r, fork, bundle), ids: { gitRepoID: r.gitRepoID } };
      });
    });
  },
  check: (d, l, ctx) => {
    // A missing bundle is created (an update); only a different frequency is blocked.
    if (!l || d.fields.bundle === undefined || l.fields.bundle !== null) return undefined;
    withoutBundleRule ??= {
      kind: repositoryKind.kind,
      ownership: repositoryKind.ownership,
      immutable: { fork: immutable.fork },
      destructiveDelete: true,
      desired: (state) => repositoryKind.desired(state),
      read: (rc, state) => repositoryKind.read(rc, state),
    };
    return diffObject(withoutBundleRule, d, l, ctx);
  },
  create: (api, entry) => createRepository(api, entry),
  update: (api, entry, live) => updateRepository(api, entry, live),
  delete: (api, entry, live) => deleteRepository(api, entry, live),
});
