/**
 * Subgroup: a path under a project's git group (`project/<slug>/subgroup/<path>`). Identity
 * only: the manifest lists paths and the loader adds every parent (`tools/ci` brings
 * `tools`), so each level is its own object, created after its parent with
 * `subGroups: <path>`. Undeclared live subgroups are deleted only with `prune.subgroups`
 * (a delete takes deeper subgroups and their repositories with it; a 404 then means done).
 *
 * Reads: 1 call per declared project with `git` whose group exists (all=true).
 */
import { mapBounded } from "../engine/bounded.js";
import { createOrFind } from "../api/create-or-find.js";
import { orAbsent } from "../engine/read-context.js";
import { readSubgroups } from "../engine/readers.js";
import { groupKey, subgroupKey } from "../manifest/keys.js";
import { defineKind } from "./kind.js";
import { gitProjects, slugOfKey } from "./git-shared.js";
import { field, goneOk } from "./project-shared.js";

export interface SubgroupFields {
  path: string;
  [k: string]: unknown;
}

/** `a/b/c` → `a/b`; undefined for a top-level subgroup. */
export function parentPath(path: string): string | undefined {
  const i = path.lastIndexOf("/");
  return i < 0 ? undefined : path.slice(0, i);
}

export const subgroupKind = defineKind<SubgroupFields>({
  kind: "Subgroup",
  ownership: {
    mode: "prune",
    setting: "subgroups",
    parentKey: (key) => groupKey(slugOfKey(key)),
  },
  immutable: {},
  destructiveDelete: true,
  desired: (state) =>
    gitProjects(state).flatMap((p) =>
      p.git.subgroups.map((path) => {
        const key = subgroupKey(p.slug, path);
        const parent = parentPath(path);
        return {
          key,
          fields: { path },
          source: state.sources.get(key) ?? p.git.group.source,
          dependsOn: [groupKey(p.slug), ...(parent ? [subgroupKey(p.slug, parent)] : [])],
          protect: p.protect,
        };
      }),
    ),
  read: async (ctx, state) =>
    (
      await mapBounded(gitProjects(state), async (p) =>
        (await readSubgroups(ctx, p.slug)).map((s) => ({
          key: subgroupKey(p.slug, s.path),
          fields: { path: s.path },
          ids: { id: s.id },
        })),
      )
    ).flat(),
  create: async (api, entry) => {
    const projectSlug = slugOfKey(entry.key);
    const path = field(entry.after, "path");
    // A path that exists already answers 409: the re-read finds it and that is done.
    await createOrFind(
      async () =>
        (
          await api.call("git.subgroups.create", {
            params: { projectSlug },
            body: { subGroups: path },
          })
        ).data,
      async () => {
        const found = await api.listAll("git.subgroups.list", {
          params: { projectSlug },
          query: { path, strict: 1 },
        });
        return found.some((s) => s.path === path) ? found : undefined;
      },
    );
  },
  delete: async (api, entry, live) => {
    const projectSlug = slugOfKey(entry.key);
    const path = field(live.fields, "path");
    await goneOk(
      () =>
        api.call("git.subgroups.delete", { params: { projectSlug, groupID: Number(live.ids.id) } }),
      {
        what: entry.key,
        absent: async () => {
          const found = await orAbsent(
            api.listAll("git.subgroups.list", {
              params: { projectSlug },
              query: { path, strict: 1 },
            }),
          );
          return !found?.some((s) => s.path === path);
        },
      },
    );
  },
});
