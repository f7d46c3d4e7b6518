/**
 * What the project kinds (Project, ProjectLicense, ProjectAccess, ProjectTeamAccess) share:
 * the declared projects that exist live with their detail (read once per plan through the
 * ReadContext, so roles and licenses cost no extra call), the desired and live members of
 * an access list's levels, and the re-reads that make a POST safe to repeat after an
 * ambiguous failure.
 */
import type { ApiClient } from "../api/client.js";
import { ApiError } from "../api/errors.js";
import { PhctlError } from "../errors.js";
import { sleep } from "../api/limit.js";
import { mapBounded } from "../engine/bounded.js";
import { orAbsent, type ReadContext } from "../engine/read-context.js";
import { readProject, type LiveProject } from "../engine/readers.js";
import type { PlanEntry } from "../engine/plan.js";
import { createEntry } from "../engine/diff.js";
import { projectKey } from "../manifest/keys.js";
import type { DesiredState, ProjectState } from "../manifest/types.js";
import type { DesiredObject, Fields, LiveObject } from "./kind.js";

/** A declared project and its live detail. */
export interface DeclaredLive {
  project: ProjectState;
  live: LiveProject;
}

/** The declared projects that exist live, with their detail (one memoised call each). */
export async function declaredLiveProjects(
  ctx: ReadContext,
  state: DesiredState,
): Promise<DeclaredLive[]> {
  const all = await mapBounded(state.projects, async (project) => ({
    project,
    live: await readProject(ctx, project.slug),
  }));
  return all.filter((p): p is DeclaredLive => p.live !== undefined);
}

/**
 * An access list of projects (ProjectAccess: users on six levels; ProjectTeamAccess:
 * organization teams on three): one object per member of each level, declared or live.
 */
export interface LevelMembers<L extends string, F extends Fields> {
  levels: readonly L[];
  /** The member's key on that level of the project. */
  key(slug: string, level: L, member: string): string;
  /** The member's identity fields. */
  fields(slug: string, level: L, member: string): F;
  /** The members a manifest lists on the level. */
  declared(project: ProjectState, level: L): readonly string[];
  /** The members the live project has on the level. */
  live(project: LiveProject, level: L): readonly string[];
  /** The keys that must exist before the member is added. */
  dependsOn(state: DesiredState, slug: string, level: L, member: string): string[];
}

/** The declared members of every level of every project (source: the member's line). */
export function desiredMembers<L extends string, F extends Fields>(
  list: LevelMembers<L, F>,
  state: DesiredState,
): DesiredObject<F>[] {
  return state.projects.flatMap((p) =>
    list.levels.flatMap((level) =>
      list.declared(p, level).map((member) => {
        const key = list.key(p.slug, level, member);
        return {
          key,
          fields: list.fields(p.slug, level, member),
          source: state.sources.get(key) ?? p.source,
          dependsOn: list.dependsOn(state, p.slug, level, member),
        };
      }),
    ),
  );
}

/** The live members of every level of the declared projects that exist live (no call of its own). */
export async function liveMembers<L extends string, F extends Fields>(
  list: LevelMembers<L, F>,
  ctx: ReadContext,
  state: DesiredState,
): Promise<LiveObject<F>[]> {
  return (await declaredLiveProjects(ctx, state)).flatMap(({ live }) =>
    list.levels.flatMap((level) =>
      list.live(live, level).map((member) => ({
        key: list.key(live.projectSlug, level, member),
        fields: list.fields(live.projectSlug, level, member),
        ids: {},
      })),
    ),
  );
}

/** The level named by an entry's field (`what`: the error's wording), one of `levels`. */
export function levelIn<L extends string>(levels: readonly L[], value: string, what: string): L {
  const level = levels.find((l) => l === value);
  if (!level) throw new Error(`internal: unknown ${what} ${value}`);
  return level;
}

/** The project's detail read fresh (apply: never the plan's memoised read), or undefined. */
export async function fetchProject(api: ApiClient, slug: string): Promise<LiveProject | undefined> {
  return (await orAbsent(api.call("projects.get", { params: { projectSlug: slug } })))?.data;
}

/**
 * Re-read until `probe` finds what it looks for, a few times with growing pauses: the effect
 * of a queued change shows only once its job completes, so a re-read right after an ambiguous
 * failure may not see it yet. Immediate changes use `tries: 1`.
 */
export async function settle<T>(
  probe: () => Promise<T | undefined>,
  tries = 5,
  firstDelayMs = 100,
): Promise<T | undefined> {
  let delay = firstDelayMs;
  for (let i = 1; ; i++) {
    const found = await probe();
    if (found !== undefined || i >= tries) return found;
    await sleep(delay);
    delay *= 2;
  }
}

/**
 * Run a removal; a 404 means it is already gone — which is what was wanted — only when
 * `confirmAbsent` (a fresh read) agrees. A 404 from a wrong path or a misread id must not
 * be reported as a delete that happened. Without `confirmAbsent` (removing a setting such
 * as a commit blocker) the 404 is taken as it is.
 */
export async function goneOk(
  remove: () => Promise<unknown>,
  confirmAbsent?: { what: string; absent: () => Promise<boolean> },
): Promise<void> {
  try {
    await remove();
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 404) throw e;
    if (!confirmAbsent || (await confirmAbsent.absent())) return;
    throw new PhctlError(
      "NOT_DELETED",
      `${confirmAbsent.what}: the delete answered 404 (${e.serverMessage}) but a fresh read still shows it, so it was not deleted; run phctl plan to see it, and check that the delete's path in the API profile is right`,
    );
  }
}

/** True when `read` finds nothing: a 404, or a record whose status says deleted. */
export async function readsAbsent(read: () => Promise<unknown>): Promise<boolean> {
  const found = await orAbsent(read());
  const status = (found as { data?: { status?: unknown } } | undefined)?.data?.status;
  return found === undefined || status === "deleted";
}

/** A string field of an entry's or live object's identity fields (never missing by construction). */
export function field(fields: Record<string, unknown> | null | undefined, name: string): string {
  const v = fields?.[name];
  if (typeof v !== "string") throw new Error(`internal: plan entry without ${name}`);
  return v;
}

/** The project key a child key (`project/<slug>/…`) belongs to: the parent of authoritative lists. */
export const parentProjectKey = (key: string): string => projectKey(key.split("/")[1] ?? "");

/** A `blocked` entry in place of a create that cannot be reached (the reason names the field). */
export function blockedCreate(
  kind: string,
  d: DesiredObject,
  field: string,
  reason: string,
): PlanEntry {
  return {
    ...createEntry(kind, d),
    action: "blocked",
    reason,
    dependsOn: [],
    blocked: { field, reason },
  };
}
