/**
 * Shared by the project kinds' tests: manifests from YAML text, a DiffContext, a plan of the
 * four project kinds against a server, and a small sequential executor of that plan (creates
 * and updates in table order, deletes in reverse; ticket and blocked entries never sent).
 */
import type { ApiClient } from "../../src/api/client.js";
import { readLive } from "../../src/engine/live.js";
import type { Plan } from "../../src/engine/plan.js";
import { buildPlan } from "../../src/engine/planner.js";
import { ReadContext } from "../../src/engine/read-context.js";
import type { DesiredObject, DiffContext, LiveObject, ResourceKind } from "../../src/kinds/kind.js";
import { projectKind } from "../../src/kinds/project.js";
import { projectAccessKind } from "../../src/kinds/project-access.js";
import { projectLicenseKind } from "../../src/kinds/project-license.js";
import { projectTeamAccessKind } from "../../src/kinds/project-team-access.js";
import { loadManifestTexts } from "../../src/manifest/index.js";
import type { DesiredState } from "../../src/manifest/types.js";

export const PROJECT_KINDS: readonly ResourceKind[] = [
  projectKind,
  projectLicenseKind,
  projectAccessKind,
  projectTeamAccessKind,
];

/** Desired state of manifests written inline (and an optional phctl.yaml). */
export function load(manifests: string, config = "organization: acme\n"): DesiredState {
  const r = loadManifestTexts([
    { file: "phctl.yaml", content: config, config: true },
    { file: "projects/p.yaml", content: manifests },
  ]);
  const errors = r.diagnostics.filter((d) => d.severity === "error");
  if (!r.state || errors.length > 0)
    throw new Error(`manifests invalid: ${JSON.stringify(errors, null, 2)}`);
  return r.state;
}

/** A Project document. */
export function projectDoc(slug: string, spec: string): string {
  return `apiVersion: phctl/v1\nkind: Project\nmetadata: { name: ${slug} }\nspec:\n${spec
    .trim()
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n")}\n`;
}

export function diffContext(state: DesiredState, o: Partial<DiffContext> = {}): DiffContext {
  return {
    state,
    licenses: new Set(["Apache-2.0", "BSD-3-Clause", "MIT"]),
    orgTeams: new Set(["acme/firmware-leads"]),
    liveUsers: new Set<string>(),
    wikiUsers: new Set<string>(),
    ...o,
  };
}

export function desiredByKey(kind: ResourceKind, state: DesiredState): Map<string, DesiredObject> {
  return new Map(kind.desired(state).map((d) => [d.key, d]));
}

export interface Planned {
  plan: Plan;
  live: Map<string, LiveObject[]>;
  calls: number;
}

/** Read live state for the four kinds and build the plan (and count the read calls). */
export async function planFor(api: ApiClient, state: DesiredState): Promise<Planned> {
  const before = api.metrics.snapshot().calls;
  const read = await readLive(api, state, PROJECT_KINDS, new ReadContext(api));
  const plan = buildPlan({
    state,
    kinds: PROJECT_KINDS,
    live: read.live,
    ctx: read.ctx,
    apiUrl: "test",
    organization: "acme",
    stats: { objectsRead: read.objects, apiCalls: 0, durationMs: 0 },
    now: "2026-01-01T00:00:00.000Z",
  });
  return { plan, live: read.live, calls: api.metrics.snapshot().calls - before };
}

/** Carry out a plan's create/update/delete entries, one at a time, in dependency order. */
export async function execute(api: ApiClient, { plan, live }: Planned): Promise<void> {
  const liveByKey = new Map([...live.values()].flat().map((l) => [l.key, l]));
  const byKind = (k: ResourceKind, actions: string[]) =>
    plan.entries.filter((e) => e.kind === k.kind && actions.includes(e.action));
  for (const k of PROJECT_KINDS) {
    for (const e of byKind(k, ["create", "update"])) {
      if (e.action === "create") await k.create!(api, e, liveByKey.get(e.key));
      else await k.update!(api, e, liveByKey.get(e.key)!);
    }
  }
  for (const k of [...PROJECT_KINDS].reverse()) {
    for (const e of byKind(k, ["delete"])) await k.delete!(api, e, liveByKey.get(e.key)!);
  }
}

/** Plan, apply, and plan again: the second plan of a converging apply is empty. */
export async function applyAndReplan(api: ApiClient, state: DesiredState): Promise<Planned> {
  await execute(api, await planFor(api, state));
  return planFor(api, state);
}

/** Entries as `action key` lines (compact assertions). */
export const lines = (p: Plan): string[] => p.entries.map((e) => `${e.action} ${e.key}`).sort();
