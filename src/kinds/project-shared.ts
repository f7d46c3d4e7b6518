/**
 * What the project kinds (Project, ProjectLicense, ProjectAccess, ProjectTeamAccess) share:
 * the declared projects that exist live with their detail (read once per plan through the
 * ReadContext, so roles and licenses cost no extra call), a desired object's plan source,
 * and the re-reads that make a POST safe to repeat after an ambiguous failure.
 */
import type { ApiClient } from "../api/client.js";
import { ApiError } from "../api/errors.js";
import { sleep } from "../api/limit.js";
import { orAbsent, type ReadContext } from "../engine/read-context.js";
import { readProject, type LiveProject } from "../engine/readers.js";
import type { PlanEntry } from "../engine/plan.js";
import { projectKey } from "../manifest/keys.js";
import type { DesiredState, ProjectState } from "../manifest/types.js";
import type { DesiredObject } from "./kind.js";

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
  const all = await Promise.all(
    state.projects.map(async (project) => ({
      project,
      live: await readProject(ctx, project.slug),
    })),
  );
  return all.filter((p): p is DeclaredLive => p.live !== undefined);
}

/** The plan-entry form of a desired object's source. */
export function sourceRef(d: DesiredObject): PlanEntry["source"] {
  return d.source ? { file: d.source.file, line: d.source.line, column: d.source.column } : null;
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

/** Run a removal; a 404 means it is already gone, which is what was wanted. */
export async function goneOk(remove: () => Promise<unknown>): Promise<void> {
  try {
    await remove();
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return;
    throw e;
  }
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
    key: d.key,
    kind,
    action: "blocked",
    before: null,
    after: { ...d.fields },
    changes: [],
    reason,
    source: sourceRef(d),
    dependsOn: [],
    destructive: false,
    blocked: { field, reason },
  };
}
