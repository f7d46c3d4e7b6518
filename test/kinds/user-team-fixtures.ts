/**
 * Shared by the User, UserService, Team and TeamMember tests: manifests from YAML text, a
 * DiffContext, a plan of those four kinds against a server, and a small sequential executor
 * (creates and updates in table order, deletes in reverse; ticket and blocked never sent).
 */
import type { ApiClient } from "../../src/api/client.js";
import { diffObject } from "../../src/engine/diff.js";
import { readLive } from "../../src/engine/live.js";
import type { Plan, PlanEntry } from "../../src/engine/plan.js";
import { buildPlan } from "../../src/engine/planner.js";
import { ReadContext } from "../../src/engine/read-context.js";
import type { DesiredObject, DiffContext, LiveObject, ResourceKind } from "../../src/kinds/kind.js";
import { teamKind } from "../../src/kinds/team.js";
import { teamMemberKind } from "../../src/kinds/team-member.js";
import { userKind } from "../../src/kinds/user.js";
import { userServiceKind } from "../../src/kinds/user-service.js";
import { loadManifestTexts } from "../../src/manifest/index.js";
import type { DesiredState } from "../../src/manifest/types.js";

export const USER_TEAM_KINDS: readonly ResourceKind[] = [
  userKind,
  userServiceKind,
  teamKind,
  teamMemberKind,
];

/** Desired state of manifests written inline (and phctl.yaml; `null`: none). */
export function load(
  manifests: string,
  config: string | null = "organization: acme\n",
): DesiredState {
  const r = loadManifestTexts([
    ...(config !== null ? [{ file: "phctl.yaml", content: config, config: true }] : []),
    { file: "users.yaml", content: manifests },
  ]);
  const errors = r.diagnostics.filter((d) => d.severity === "error");
  if (!r.state || errors.length > 0)
    throw new Error(`manifests invalid: ${JSON.stringify(errors, null, 2)}`);
  return r.state;
}

const indent = (spec: string) =>
  spec
    .trim()
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");

export const userDoc = (name: string, spec: string) =>
  `---\napiVersion: phctl/v1\nkind: User\nmetadata: { name: ${name} }\nspec:\n${indent(spec)}\n`;

export const teamDoc = (name: string, spec: string) =>
  `---\napiVersion: phctl/v1\nkind: Team\nmetadata: { name: ${name} }\nspec:\n${indent(spec)}\n`;

export const orgDoc = (name: string) =>
  `---\napiVersion: phctl/v1\nkind: Organization\nmetadata: { name: ${name} }\n`;

export function diffContext(state: DesiredState, o: Partial<DiffContext> = {}): DiffContext {
  return {
    state,
    licenses: new Set<string>(),
    orgTeams: new Set<string>(),
    liveUsers: new Set<string>(),
    wikiUsers: new Set<string>(),
    ...o,
  };
}

export function desiredOf(kind: ResourceKind, state: DesiredState, key: string): DesiredObject {
  const d = kind.desired(state).find((x) => x.key === key);
  if (!d) throw new Error(`no desired ${kind.kind} ${key}`);
  return d;
}

/** The live twin of a desired object (same key and fields), optionally changed. */
export function liveOf(d: DesiredObject, fields: Record<string, unknown> = {}): LiveObject {
  const same = Object.fromEntries(Object.entries(d.fields).filter(([, v]) => v !== undefined));
  return { key: d.key, fields: { ...same, ...fields }, ids: { parentOrganization: "acme" } };
}

/** The entries of one object's diff. */
export function diff(
  kind: ResourceKind,
  d: DesiredObject,
  l: LiveObject | undefined,
  state: DesiredState,
): PlanEntry[] {
  return diffObject(kind, d, l, diffContext(state));
}

export interface Planned {
  plan: Plan;
  live: Map<string, LiveObject[]>;
  calls: number;
}

/** Read live state for the four kinds and build the plan (and count the read calls). */
export async function planFor(api: ApiClient, state: DesiredState): Promise<Planned> {
  const before = api.metrics.snapshot().calls;
  const read = await readLive(api, state, USER_TEAM_KINDS, new ReadContext(api));
  const plan = buildPlan({
    state,
    kinds: USER_TEAM_KINDS,
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
  for (const k of USER_TEAM_KINDS) {
    for (const e of byKind(k, ["create", "update"])) {
      if (e.action === "create") await k.create!(api, e, liveByKey.get(e.key));
      else await k.update!(api, e, liveByKey.get(e.key)!);
    }
  }
  for (const k of [...USER_TEAM_KINDS].reverse()) {
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

/** Entries as `action key field,field` lines. */
export const fieldLines = (p: Plan): string[] =>
  p.entries
    .map((e) => `${e.action} ${e.key} ${e.changes.map((c) => c.field).join(",")}`.trim())
    .sort();
