/**
 * ArtifactRepo: an artifact repository of a project, keyed by its DECLARED name
 * (`project/<slug>/artifact/<name>`). The service names it `<org>-<projectId>-<name>`; reading
 * maps that back by stripping the `<org>-<id>-` prefix of the project (organization and id from
 * the shared project list), and a live repository without that prefix keeps its full name.
 * The type cannot change (blocked). Undeclared live repositories are deleted only with
 * `prune.artifactRepositories`.
 *
 * Reads: 1 call per declared project that exists live (all=true; the project list is shared).
 */
import { mapBounded } from "../engine/bounded.js";
import type { ApiClient } from "../api/client.js";
import { createOrFind } from "../api/create-or-find.js";
import type { ArtifactRepoTypes } from "../api/schemas.js";
import { readArtifactRepos, readProjectsBySlug } from "../engine/readers.js";
import { artifactRepoKey, groupKey, projectKey } from "../manifest/keys.js";
import { defineKind, type LiveObject } from "./kind.js";
import { slugOfKey } from "./git-shared.js";
import { fetchProject, field, goneOk, readsAbsent } from "./project-shared.js";

export interface ArtifactRepoFields {
  /** The declared (short) name: identity, part of the key. */
  name: string;
  type: string;
  [k: string]: unknown;
}

/** The prefix the service puts before a declared name. */
export const livePrefix = (organization: string, projectId: number) =>
  `${organization}-${projectId}-`;

/** The declared name of a live repository: without the project's prefix, else in full. */
export function declaredName(liveName: string, prefix: string): string {
  return liveName.startsWith(prefix) && liveName.length > prefix.length
    ? liveName.slice(prefix.length)
    : liveName;
}

/** The live record of a declared name, read fresh (the re-read of a create). */
async function findByName(api: ApiClient, projectSlug: string, name: string) {
  const project = await fetchProject(api, projectSlug);
  if (!project) return undefined;
  const liveName = `${livePrefix(project.organization, project.id)}${name}`;
  const all = await api.listAll("artifacts.repos.list", { params: { projectSlug } });
  return all.find((r) => r.name === liveName);
}

export const artifactRepoKind = defineKind<ArtifactRepoFields>({
  kind: "ArtifactRepo",
  ownership: {
    mode: "prune",
    setting: "artifactRepositories",
    parentKey: (key) => projectKey(slugOfKey(key)),
    // Deleted before the git group (whose delete takes the project's repositories with it).
    containers: (key) => [groupKey(slugOfKey(key))],
  },
  immutable: {
    type: {
      action: "blocked",
      reason:
        "the type of an artifact repository cannot be changed (create a new repository with the other type)",
    },
  },
  destructiveDelete: true,
  desired: (state) =>
    state.projects.flatMap((p) =>
      p.artifacts.repositories.map((a) => ({
        key: a.key,
        fields: { name: a.name, type: a.type },
        source: a.source,
        dependsOn: [p.key],
        protect: p.protect,
      })),
    ),
  read: async (ctx, state) => {
    const bySlug = await readProjectsBySlug(ctx);
    const found = await mapBounded(state.projects, async (p) => {
      const item = bySlug.get(p.slug);
      if (!item) return [];
      const prefix = livePrefix(item.organization, item.id);
      return (await readArtifactRepos(ctx, p.slug)).map((r): LiveObject<ArtifactRepoFields> => {
        const name = declaredName(r.name, prefix);
        return {
          key: artifactRepoKey(p.slug, name),
          fields: { name, type: r.repoType },
          ids: { id: r.id },
        };
      });
    });
    return found.flat();
  },
  create: async (api, entry) => {
    const projectSlug = slugOfKey(entry.key);
    const name = field(entry.after, "name");
    const repoType = field(entry.after, "type") as (typeof ArtifactRepoTypes)[number];
    await createOrFind(
      async () =>
        (
          await api.call("artifacts.repos.create", {
            params: { projectSlug },
            body: { name, repoType },
          })
        ).data,
      () => findByName(api, projectSlug, name),
    );
  },
  delete: async (api, entry, live) => {
    const params = { projectSlug: slugOfKey(entry.key), artifactRepoID: Number(live.ids.id) };
    await goneOk(() => api.call("artifacts.repos.delete", { params }), {
      what: entry.key,
      absent: () => readsAbsent(() => api.call("artifacts.repos.get", { params })),
    });
  },
});
