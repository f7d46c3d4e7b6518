/**
 * Applying a Repository entry. A create makes the repository (plain, or as a fork: the
 * client itself retries the fork-cleanup 500), then brings what the create call cannot set
 * to the declared values: settings a fork copied from its source, the commit blocker (all
 * domains in one request), persistent storage, the bundle, and archiving. An update does the
 * same for the changed fields only. Every POST is re-read by natural key after an ambiguous
 * failure; a removal that finds nothing (404) is already done.
 */
import type { ApiClient } from "../api/client.js";
import { createOrFind } from "../api/create-or-find.js";
import type { PlanEntry } from "../engine/plan.js";
import type { LiveRepository } from "../engine/readers.js";
import type { LiveObject } from "./kind.js";
import { slugOfKey } from "./git-shared.js";
import { goneOk, readsAbsent } from "./project-shared.js";
import {
  normaliseBlocker,
  recordFields,
  SETTINGS,
  type Blocker,
  type RepoFields,
} from "./repository-fields.js";

const equal = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

async function readRepo(
  api: ApiClient,
  projectSlug: string,
  repoID: number,
): Promise<LiveRepository> {
  return (await api.call("git.repos.get", { params: { projectSlug, repoID } })).data;
}

/** The live repository of a place by name, read fresh (the re-read of a create). */
async function findRepo(
  api: ApiClient,
  projectSlug: string,
  subgroup: string,
  name: string,
): Promise<LiveRepository | undefined> {
  const all = await api.listAll("git.repos.list", { params: { projectSlug } });
  return all.find((r) => r.subgroups === subgroup && r.name === name);
}

/** Make the repository (plain or fork) and answer its record. */
async function make(api: ApiClient, projectSlug: string, want: RepoFields) {
  const find = () => findRepo(api, projectSlug, want.subgroup, want.name);
  const params = { projectSlug };
  if (want.fork !== null) {
    const repoPathFrom = want.fork;
    return createOrFind(async () => {
      const body = { repoPathFrom, repoPathNew: want.subgroup || null, name: want.name };
      return (await api.call("git.fork", { params, body })).data;
    }, find);
  }
  const body = {
    name: want.name,
    ...(want.subgroup ? { repoPathNew: want.subgroup } : {}),
    ...Object.fromEntries(SETTINGS.map((s) => [s, want[s]])),
  };
  return createOrFind(
    async () => (await api.call("git.repos.create", { params, body })).data,
    find,
  );
}

function emailCheck(b: Blocker) {
  const since = b.since === null ? {} : { since: b.since };
  return [
    ...b.author.map((domain) => ({ type: "author" as const, domain, ...since })),
    ...b.committer.map((domain) => ({ type: "committer" as const, domain, ...since })),
  ];
}

/**
 * Bring one repository from `before` to the values in `change` (only the keys present are
 * applied). Order: un-archive first and archive last, since an archived repository may refuse
 * changes; the commit blocker is one removal then one enable carrying every domain.
 */
export async function converge(
  api: ApiClient,
  projectSlug: string,
  repoID: number,
  before: RepoFields,
  change: Partial<RepoFields>,
): Promise<void> {
  const params = { projectSlug, repoID };
  const patch: Record<string, unknown> = {};
  for (const s of SETTINGS) if (change[s] !== undefined) patch[s] = change[s];
  if (change.status === "active") patch.status = "active";
  if (Object.keys(patch).length > 0) await api.call("git.repos.patch", { params, body: patch });

  if (change.commitBlocker !== undefined) {
    if (before.commitBlocker !== null) {
      await goneOk(() => api.call("git.repos.removeCommitBlocker", { params }));
    }
    const want = change.commitBlocker;
    if (want !== null) {
      await createOrFind<unknown>(
        () =>
          api.call("git.repos.enableCommitBlocker", {
            params,
            body: { emailCheck: emailCheck(want) },
          }),
        async () => {
          const r = await readRepo(api, projectSlug, repoID);
          return equal(normaliseBlocker(r.commitBlocker), want) ? r : undefined;
        },
      );
    }
  }

  if (change.persistentStorage === true) {
    await createOrFind<unknown>(
      () => api.call("storage.enable", { params }),
      async () => ((await readRepo(api, projectSlug, repoID)).persistentStorage ? {} : undefined),
    );
  } else if (change.persistentStorage === false) {
    await goneOk(() => api.call("storage.disable", { params }));
  }

  if (typeof change.bundle === "string") {
    const frequency = change.bundle;
    await createOrFind<unknown>(
      () => api.call("bundles.createRepo", { params, body: { frequency } }),
      async () => {
        const all = await api.call("bundles.list", { params: { projectSlug } });
        return all.data.find((b) => b.repoId === repoID);
      },
    );
  }

  if (change.status === "archived") {
    await api.call("git.repos.patch", { params, body: { status: "archived" } });
  }
}

/** The changed values of `want` against `have` (what a fresh record still lacks). */
function missing(have: RepoFields, want: RepoFields): Partial<RepoFields> {
  const out: Partial<RepoFields> = {};
  for (const [k, v] of Object.entries(want)) {
    if (k === "fork" || k === "name" || k === "subgroup" || v === undefined) continue;
    if (!equal(have[k], v)) out[k] = v;
  }
  return out;
}

export async function createRepository(api: ApiClient, entry: PlanEntry): Promise<void> {
  const projectSlug = slugOfKey(entry.key);
  const want = entry.after as RepoFields;
  const { value: record } = await make(api, projectSlug, want);
  // A new repository has no bundle (bundles are never deleted, but the repository id is new).
  const have = recordFields(record, want.fork, want.bundle === undefined ? undefined : null);
  await converge(api, projectSlug, record.gitRepoID, have, missing(have, want));
}

export async function updateRepository(
  api: ApiClient,
  entry: PlanEntry,
  live: LiveObject,
): Promise<void> {
  await converge(
    api,
    slugOfKey(entry.key),
    Number(live.ids.gitRepoID),
    live.fields as RepoFields,
    entry.after ?? {},
  );
}

export async function deleteRepository(
  api: ApiClient,
  entry: PlanEntry,
  live: LiveObject,
): Promise<void> {
  const params = { projectSlug: slugOfKey(entry.key), repoID: Number(live.ids.gitRepoID) };
  await goneOk(() => api.call("git.repos.delete", { params }), {
    what: entry.key,
    absent: () => readsAbsent(() => api.call("git.repos.get", { params })),
  });
}
