/**
 * GitGroup: a project's main git group (`project/<slug>/group`), managed only when the project
 * declares `git`. The path is chosen at creation and cannot change through the API (blocked);
 * request-access and CI flags are updated with PUT. A live group of a declared project whose
 * manifest has no `git` section is pruned only with `prune.groups` (deleting it deletes its
 * subgroups and repositories). Created after its project.
 *
 * Reads: 1 call per declared project that exists live (the group; the project list is shared).
 */
import { mapBounded } from "../engine/bounded.js";
import { createOrFind } from "../api/create-or-find.js";
import { orAbsent } from "../engine/read-context.js";
import { readGroup } from "../engine/readers.js";
import { groupKey, projectKey } from "../manifest/keys.js";
import { defineKind, type LiveObject } from "./kind.js";
import { gitProjects, slugOfKey } from "./git-shared.js";
import { goneOk, readsAbsent } from "./project-shared.js";

export interface GroupFields {
  path: string;
  requestAccessEnabled: boolean;
  enableCi: boolean;
  [k: string]: unknown;
}

export const gitGroupKind = defineKind<GroupFields>({
  kind: "GitGroup",
  ownership: { mode: "prune", setting: "groups", parentKey: (key) => projectKey(slugOfKey(key)) },
  immutable: {
    path: {
      action: "blocked",
      reason:
        "the group path cannot be changed through the API (it is chosen when the group is created)",
    },
  },
  destructiveDelete: true,
  desired: (state) =>
    gitProjects(state).map((p) => ({
      key: p.git.group.key,
      fields: {
        path: p.git.group.path,
        requestAccessEnabled: p.git.group.requestAccessEnabled,
        enableCi: p.git.group.enableCi,
      },
      source: p.git.group.source,
      dependsOn: [p.key],
      protect: p.protect,
    })),
  // Only projects that declare `git` manage their group (and what is under it).
  read: async (ctx, state) => {
    const found = await mapBounded(
      state.projects.filter((p) => p.git),
      async (p) => {
        const g = await readGroup(ctx, p.slug);
        if (!g) return undefined;
        const live: LiveObject<GroupFields> = {
          key: groupKey(p.slug),
          fields: {
            path: g.path,
            requestAccessEnabled: g.request_access_enabled,
            enableCi: g.enable_ci,
          },
          ids: { id: g.id },
        };
        return live;
      },
    );
    return found.filter((g) => g !== undefined);
  },
  create: async (api, entry) => {
    const projectSlug = slugOfKey(entry.key);
    const a = entry.after as GroupFields;
    await createOrFind(
      async () =>
        (
          await api.call("git.group.create", {
            params: { projectSlug },
            body: {
              path: a.path,
              request_access_enabled: a.requestAccessEnabled,
              enable_ci: a.enableCi,
            },
          })
        ).data,
      async () => (await orAbsent(api.call("git.group.get", { params: { projectSlug } })))?.data,
    );
  },
  update: async (api, entry, live) => {
    // Both flags are sent, so a service whose PUT replaces the group keeps the unchanged one.
    const want = { ...live.fields, ...entry.after };
    await api.call("git.group.update", {
      params: { projectSlug: slugOfKey(entry.key) },
      body: { request_access_enabled: want.requestAccessEnabled, enable_ci: want.enableCi },
    });
  },
  delete: async (api, entry) => {
    const params = { projectSlug: slugOfKey(entry.key) };
    await goneOk(() => api.call("git.group.delete", { params }), {
      what: entry.key,
      absent: () => readsAbsent(() => api.call("git.group.get", { params })),
    });
  },
});
