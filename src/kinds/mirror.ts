/**
 * Mirror: a project's pull mirror, identified by its destination
 * (`project/<slug>/mirror/<to>`). The update API changes only frequency, excludeTags and
 * status; `enabled` flips through enable/disable-selected with `notes` naming the manifest
 * line. Source, ref spaces and notification addresses are set at creation only (blocked).
 * Undeclared live mirrors are deleted only with `prune.mirrors`. Created after the project and,
 * when the destination is a repository declared here, after that repository.
 *
 * Reads: 1 paged call per declared project that exists live (the list has no `all`).
 */
import { mapBounded } from "../engine/bounded.js";
import type { ApiClient } from "../api/client.js";
import { createOrFind } from "../api/create-or-find.js";
import type { PlanEntry } from "../engine/plan.js";
import { readMirrors, type LiveMirror } from "../engine/readers.js";
import { mirrorKey, groupKey, projectKey } from "../manifest/keys.js";
import type { MirrorState } from "../manifest/types.js";
import { defineKind, type ImmutableRule, type LiveObject } from "./kind.js";
import { mirrorNotes, slugOfKey } from "./git-shared.js";
import { goneOk, readsAbsent } from "./project-shared.js";

export interface MirrorFields {
  /** Identity (part of the key). */
  to: string;
  from: string;
  refSpaceFrom: string;
  refSpaceTo: string;
  frequency: MirrorState["frequency"];
  excludeTags: boolean;
  enabled: boolean;
  /** Sorted, unique. */
  notificationEmails: string[];
  [k: string]: unknown;
}

const recreate = (what: string): ImmutableRule => ({
  action: "blocked",
  reason: `${what} can only change by deleting and re-creating the mirror (the update API changes frequency, excludeTags and status only)`,
});

const sortedSet = (xs: readonly string[]) => [...new Set(xs)].sort();

/** A mirror's fields, normalised the same way on both sides (declared and live). */
function normalised(m: Omit<MirrorState, "key" | "toKey" | "source">): MirrorFields {
  return {
    to: m.to,
    from: m.from,
    refSpaceFrom: m.refSpaceFrom,
    refSpaceTo: m.refSpaceTo,
    frequency: m.frequency,
    excludeTags: m.excludeTags,
    enabled: m.enabled,
    notificationEmails: sortedSet(m.notificationEmails),
  };
}

/** A live mirror's fields (the API names its ends repoURLTo and repoURLFrom). */
export function mirrorFields(m: LiveMirror): MirrorFields {
  return normalised({ ...m, to: m.repoURLTo, from: m.repoURLFrom });
}

/**
 * Live mirrors of one project as objects. Two mirrors with the same destination (from
 * different sources) would share a key: the one whose source is declared keeps it, the
 * others get `#<mirrorID>` appended and show as undeclared.
 */
export function liveMirrors(
  slug: string,
  mirrors: readonly LiveMirror[],
  declared: readonly MirrorState[],
): LiveObject<MirrorFields>[] {
  const out = new Map<string, LiveObject<MirrorFields>>();
  const wantedFrom = new Map(declared.map((m) => [m.key, m.from]));
  const ordered = [...mirrors].sort((a, b) => {
    const ka = mirrorKey(slug, a.repoURLTo);
    const kb = mirrorKey(slug, b.repoURLTo);
    return (
      Number(wantedFrom.get(kb) === b.repoURLFrom) - Number(wantedFrom.get(ka) === a.repoURLFrom)
    );
  });
  for (const m of ordered) {
    const plain = mirrorKey(slug, m.repoURLTo);
    const key = out.has(plain) ? `${plain}#${m.mirrorID}` : plain;
    out.set(key, { key, fields: mirrorFields(m), ids: { mirrorID: m.mirrorID } });
  }
  return [...out.values()];
}

export const mirrorKind = defineKind<MirrorFields>({
  kind: "Mirror",
  ownership: {
    mode: "prune",
    setting: "mirrors",
    parentKey: (key) => projectKey(slugOfKey(key)),
    // Deleted before the git group (whose delete takes the project's repositories with it).
    containers: (key) => [groupKey(slugOfKey(key))],
  },
  immutable: {
    from: recreate("the source (from)"),
    refSpaceFrom: recreate("refSpaceFrom"),
    refSpaceTo: recreate("refSpaceTo"),
    notificationEmails: recreate("notificationEmails"),
  },
  destructiveDelete: true,
  desired: (state) =>
    state.projects.flatMap((p) =>
      (p.git?.mirrors ?? []).map((m) => ({
        key: m.key,
        fields: normalised(m),
        source: m.source,
        dependsOn: [p.key, ...(m.toKey ? [m.toKey] : [])],
        protect: p.protect,
      })),
    ),
  read: async (ctx, state) =>
    (
      await mapBounded(
        // Only projects that declare `git` manage their mirrors.
        state.projects.filter((p) => p.git),
        async (p) => liveMirrors(p.slug, await readMirrors(ctx, p.slug), p.git?.mirrors ?? []),
      )
    ).flat(),
  create: async (api, entry) => {
    const projectSlug = slugOfKey(entry.key);
    const m = entry.after as MirrorFields;
    const params = { projectSlug };
    const body = {
      repoURLFrom: m.from,
      repoURLTo: m.to,
      refSpaceFrom: m.refSpaceFrom,
      refSpaceTo: m.refSpaceTo,
      frequency: m.frequency,
      excludeTags: m.excludeTags,
      ...(m.notificationEmails.length > 0 ? { notificationEmails: m.notificationEmails } : {}),
    };
    // The same source and destination twice is a 409: the re-read finds the first one.
    const { value } = await createOrFind(
      async () => (await api.call("mirrors.create", { params, body })).data,
      async () =>
        (await api.listAll("mirrors.list", { params })).find(
          (x) => x.repoURLFrom === m.from && x.repoURLTo === m.to,
        ),
    );
    if (value.enabled !== m.enabled)
      await setEnabled(api, entry, projectSlug, value.mirrorID, m.enabled);
  },
  update: async (api, entry, live) => {
    const projectSlug = slugOfKey(entry.key);
    const after = (entry.after ?? {}) as Partial<MirrorFields>;
    const body = {
      ...(after.frequency !== undefined ? { frequency: after.frequency } : {}),
      ...(after.excludeTags !== undefined ? { excludeTags: after.excludeTags } : {}),
    };
    const mirrorID = String(live.ids.mirrorID);
    if (Object.keys(body).length > 0) {
      await api.call("mirrors.update", {
        params: { projectSlug, mirrorID: Number(mirrorID) },
        body,
      });
    }
    if (after.enabled !== undefined)
      await setEnabled(api, entry, projectSlug, mirrorID, after.enabled);
  },
  delete: async (api, entry, live) => {
    const params = { projectSlug: slugOfKey(entry.key), mirrorID: Number(live.ids.mirrorID) };
    await goneOk(() => api.call("mirrors.delete", { params }), {
      what: entry.key,
      absent: () => readsAbsent(() => api.call("mirrors.get", { params })),
    });
  },
});

async function setEnabled(
  api: ApiClient,
  entry: PlanEntry,
  projectSlug: string,
  mirrorID: string,
  enabled: boolean,
): Promise<void> {
  const args = {
    params: { projectSlug },
    body: { mirrorIds: [Number(mirrorID)], notes: mirrorNotes(entry) },
  };
  await api.call(enabled ? "mirrors.enableSelected" : "mirrors.disableSelected", args);
}
