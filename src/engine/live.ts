/**
 * Read the live state a plan needs: every kind's live objects in scope, plus the facts
 * diffs check against (license catalogue, organization teams, live users, wiki accounts).
 * All reads run concurrently under the client's shared limit; shared reads happen once.
 * A scoped plan reads the objects of a narrowed state (src/engine/scope.ts) while the facts
 * the manifests give (which users are declared, their wiki accounts) come from the whole.
 */
import type { ApiClient } from "../api/client.js";
import type { DiffContext, LiveObject, ResourceKind } from "../kinds/kind.js";
import type { DesiredState } from "../manifest/types.js";
import { ReadContext } from "./read-context.js";
import { readLicenseCatalogue, readOrgTeams, readUsers, readUserServices } from "./readers.js";

export interface LiveRead {
  live: Map<string, LiveObject[]>;
  ctx: DiffContext;
  /** Objects read, for the plan summary. */
  objects: number;
}

/** Users who need a wiki account (editors) but are not declared: their accounts are read live. */
function undeclaredEditors(state: DesiredState, read: DesiredState): string[] {
  const declared = new Set(state.users.map((u) => u.username));
  const editors = new Set(read.projects.flatMap((p) => p.access.editors.users));
  return [...editors].filter((u) => !declared.has(u)).sort();
}

/**
 * `state`: the whole desired state (the facts of the diff); `read`: the part whose objects
 * are read (default: all of it).
 */
export async function readLive(
  api: ApiClient,
  state: DesiredState,
  kinds: readonly ResourceKind[],
  rc: ReadContext = new ReadContext(api),
  read: DesiredState = state,
): Promise<LiveRead> {
  const needsOrgTeams = read.projects.some((p) =>
    Object.values(p.access).some((a) => a.organizationTeams.length > 0),
  );
  const needsLicenses = read.projects.some((p) => p.licenses.length > 0);
  const [perKind, licenses, orgTeams, users, editorServices] = await Promise.all([
    Promise.all(kinds.map((k) => k.read(rc, read))),
    needsLicenses ? readLicenseCatalogue(rc) : Promise.resolve([]),
    needsOrgTeams ? readOrgTeams(rc) : Promise.resolve([]),
    readUsers(rc),
    Promise.all(
      undeclaredEditors(state, read).map(async (u) => [u, await readUserServices(rc, u)] as const),
    ),
  ]);
  const wikiUsers = new Set<string>();
  for (const u of state.users) if (u.services.wiki?.status === "active") wikiUsers.add(u.username);
  for (const [u, s] of editorServices) if (s?.wiki?.status === "active") wikiUsers.add(u);
  return {
    live: new Map(kinds.map((k, i) => [k.kind, perKind[i] ?? []])),
    ctx: {
      state,
      licenses: new Set(licenses),
      orgTeams: new Set(orgTeams.map((t) => t.path)),
      liveUsers: new Set(users.map((u) => u.username)),
      wikiUsers,
    },
    objects: rc.objects,
  };
}
