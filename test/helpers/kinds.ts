/**
 * Shared by the kinds' tests (test/kinds): manifests from YAML text, a DiffContext, a plan of
 * a list of kinds against a server, and small sequential executors of that plan (ticket and
 * blocked entries are never sent). Each group of kinds binds these to its own list in its
 * fixtures file (project-fixtures, user-team-fixtures, git-fixtures).
 */
import type { ApiClient } from "../../src/api/client.js";
import { readLive, type LiveRead } from "../../src/engine/live.js";
import type { Plan, PlanEntry } from "../../src/engine/plan.js";
import { buildPlan } from "../../src/engine/planner.js";
import { ReadContext } from "../../src/engine/read-context.js";
import type { DiffContext, LiveObject, ResourceKind } from "../../src/kinds/kind.js";
import { loadManifestTexts } from "../../src/pipeline/load.js";
import type { DesiredState } from "../../src/manifest/types.js";

/** The phctl.yaml the tests use unless they say otherwise. */
export const ACME_CONFIG = "organization: acme\n";

/** Desired state of manifests written inline as `file` (and phctl.yaml; `null`: none). */
export function loadAs(
  file: string,
  manifests: string,
  config: string | null = ACME_CONFIG,
): DesiredState {
  const r = loadManifestTexts([
    ...(config !== null ? [{ file: "phctl.yaml", content: config, config: true }] : []),
    { file, content: manifests },
  ]);
  const errors = r.diagnostics.filter((d) => d.severity === "error");
  if (!r.state || errors.length > 0)
    throw new Error(`manifests invalid: ${JSON.stringify(errors, null, 2)}`);
  return r.state;
}

/** Desired state of manifests written inline as projects/p.yaml (and phctl.yaml). */
export const load = (manifests: string, config?: string | null): DesiredState =>
  loadAs("projects/p.yaml", manifests, config);

/** A spec's lines, indented under `spec:`. */
export const indent = (spec: string): string =>
  spec
    .trim()
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");

/** A Project document (spec indented under `spec:`), optionally with annotations. */
export function projectDoc(slug: string, spec: string, annotations = ""): string {
  const meta = annotations
    ? `{ name: ${slug}, annotations: { ${annotations} } }`
    : `{ name: ${slug} }`;
  return `apiVersion: phctl/v1\nkind: Project\nmetadata: ${meta}\nspec:\n${indent(spec)}\n`;
}

/** A DiffContext with no licenses, organization teams, live users or wiki accounts unless given. */
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

export interface Planned {
  plan: Plan;
  live: Map<string, LiveObject[]>;
  /** API calls of the read. */
  calls: number;
}

/** How a plan's live side is read: `readLive` (with the diff's facts), or `readKindsOnly`. */
export type LiveReader = (
  api: ApiClient,
  state: DesiredState,
  kinds: readonly ResourceKind[],
) => Promise<LiveRead>;

/** The kinds' own reads only, concurrently; the diff's facts are empty (`diffContext`). */
export const readKindsOnly: LiveReader = async (api, state, kinds) => {
  const rc = new ReadContext(api);
  const read = await Promise.all(kinds.map((k) => k.read(rc, state)));
  return {
    live: new Map(kinds.map((k, i) => [k.kind, read[i] ?? []])),
    ctx: diffContext(state),
    objects: rc.objects,
  };
};

/** Read live state for the kinds and build the plan (and count the read calls). */
export async function planKinds(
  api: ApiClient,
  state: DesiredState,
  kinds: readonly ResourceKind[],
  read: LiveReader = readLive,
): Promise<Planned> {
  const before = api.metrics.snapshot().calls;
  const r = await read(api, state, kinds);
  const plan = buildPlan({
    state,
    kinds,
    live: r.live,
    ctx: r.ctx,
    apiUrl: "test",
    organization: "acme",
    stats: { objectsRead: r.objects, apiCalls: 0, durationMs: 0 },
    now: "2026-01-01T00:00:00.000Z",
  });
  return { plan, live: r.live, calls: api.metrics.snapshot().calls - before };
}

/** Carries out a plan's create/update/delete entries with the given kinds. */
export type Executor = (
  api: ApiClient,
  kinds: readonly ResourceKind[],
  planned: Planned,
) => Promise<void>;

const liveByKeyOf = (live: Planned["live"]) =>
  new Map([...live.values()].flat().map((l) => [l.key, l]));

/** Send one create or update entry. */
async function send(
  api: ApiClient,
  k: ResourceKind,
  e: PlanEntry,
  liveByKey: Map<string, LiveObject>,
): Promise<void> {
  if (e.action === "create") await k.create!(api, e, liveByKey.get(e.key));
  else await k.update!(api, e, liveByKey.get(e.key)!);
}

/** Creates and updates kind by kind in table order, then deletes in reverse. */
export const executeInKindOrder: Executor = async (api, kinds, { plan, live }) => {
  const liveByKey = liveByKeyOf(live);
  const byKind = (k: ResourceKind, actions: string[]) =>
    plan.entries.filter((e) => e.kind === k.kind && actions.includes(e.action));
  for (const k of kinds) {
    for (const e of byKind(k, ["create", "update"])) await send(api, k, e, liveByKey);
  }
  for (const k of [...kinds].reverse()) {
    for (const e of byKind(k, ["delete"])) await k.delete!(api, e, liveByKey.get(e.key)!);
  }
};

/**
 * One entry at a time: an entry runs once every entry it depends on has run; deletes run
 * after, in reverse plan order.
 */
export const executeInDependencyOrder: Executor = async (api, kinds, { plan, live }) => {
  const liveByKey = liveByKeyOf(live);
  const kindOf = (e: PlanEntry) => kinds.find((k) => k.kind === e.kind)!;
  const pending = plan.entries.filter((e) => e.action === "create" || e.action === "update");
  const planned = new Set(pending.map((e) => e.key));
  const done = new Set<string>();
  while (pending.length > 0) {
    const i = pending.findIndex((e) => e.dependsOn.every((d) => !planned.has(d) || done.has(d)));
    if (i < 0) throw new Error(`dependency cycle among ${pending.map((e) => e.key).join(", ")}`);
    const [e] = pending.splice(i, 1);
    await send(api, kindOf(e), e, liveByKey);
    done.add(e.key);
  }
  const deletes = plan.entries.filter((e) => e.action === "delete").reverse();
  for (const e of deletes) await kindOf(e).delete!(api, e, liveByKey.get(e.key)!);
};

export interface KindHarnessOptions {
  /** Kinds planned and executed before the given ones (stand-ins for parents). */
  parents?: readonly ResourceKind[];
  read?: LiveReader;
  execute?: Executor;
}

/**
 * `planFor`, `execute` and `applyAndReplan` bound to a list of kinds: `planFor` may plan a
 * narrower list (the parents always come first); `execute` knows every kind of the list.
 */
export function kindHarness(
  kinds: readonly ResourceKind[],
  { parents = [], read = readLive, execute: run = executeInKindOrder }: KindHarnessOptions = {},
) {
  const planFor = (
    api: ApiClient,
    state: DesiredState,
    only: readonly ResourceKind[] = kinds,
  ): Promise<Planned> => planKinds(api, state, [...parents, ...only], read);
  const execute = (api: ApiClient, planned: Planned): Promise<void> =>
    run(api, [...parents, ...kinds], planned);
  /** Plan, apply, and plan again: the second plan of a converging apply is empty. */
  const applyAndReplan = async (api: ApiClient, state: DesiredState): Promise<Planned> => {
    await execute(api, await planFor(api, state));
    return planFor(api, state);
  };
  return { planFor, execute, applyAndReplan };
}

/** Entries as `action key` lines (compact assertions). */
export const lines = (p: Plan): string[] => p.entries.map((e) => `${e.action} ${e.key}`).sort();

/** Entries as `action key field,field` lines. */
export const fieldLines = (p: Plan): string[] =>
  p.entries
    .map((e) => `${e.action} ${e.key} ${e.changes.map((c) => c.field).join(",")}`.trim())
    .sort();
