/**
 * Shared by the tests of the git and artifact kinds (GitGroup, Subgroup, Repository, Mirror,
 * ArtifactRepo): manifests from YAML text, a DiffContext, a stand-in Project kind (so the
 * planner sees the parent keys of pruned objects without depending on the Project kind's
 * own reads), a plan against a server, and a small executor that walks the plan's
 * dependencies (creates and updates after what they depend on, deletes in reverse).
 */
import type { ApiClient } from "../../src/api/client.js";
import type { Plan, PlanEntry } from "../../src/engine/plan.js";
import { buildPlan } from "../../src/engine/planner.js";
import { ReadContext } from "../../src/engine/read-context.js";
import { readProjects } from "../../src/engine/readers.js";
import { artifactRepoKind } from "../../src/kinds/artifact-repo.js";
import { gitGroupKind } from "../../src/kinds/git-group.js";
import type { DiffContext, LiveObject, ResourceKind } from "../../src/kinds/kind.js";
import { mirrorKind } from "../../src/kinds/mirror.js";
import { repositoryKind } from "../../src/kinds/repository.js";
import { subgroupKind } from "../../src/kinds/subgroup.js";
import { loadManifestTexts } from "../../src/manifest/index.js";
import { projectKey } from "../../src/manifest/keys.js";
import type { DesiredState } from "../../src/manifest/types.js";

/** Projects as parents only: declared ones exist when live, no fields of their own. */
export const projectStub: ResourceKind = {
  kind: "ProjectStub",
  ownership: { mode: "unmanaged" },
  immutable: {},
  destructiveDelete: false,
  desired: (state) =>
    state.projects.map((p) => ({
      key: p.key,
      fields: {},
      source: p.source,
      dependsOn: [],
      protect: p.protect,
    })),
  read: async (ctx, state) => {
    const live = new Set((await readProjects(ctx)).map((p) => p.projectSlug));
    return state.projects
      .filter((p) => live.has(p.slug))
      .map((p) => ({ key: projectKey(p.slug), fields: {}, ids: {} }));
  },
};

export const GIT_KINDS: readonly ResourceKind[] = [
  gitGroupKind,
  subgroupKind,
  repositoryKind,
  mirrorKind,
  artifactRepoKind,
];

/** Desired state of manifests written inline (and phctl.yaml). */
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

/** A Project document (spec indented under `spec:`), optionally with annotations. */
export function projectDoc(slug: string, spec: string, annotations = ""): string {
  const meta = annotations
    ? `{ name: ${slug}, annotations: { ${annotations} } }`
    : `{ name: ${slug} }`;
  return `apiVersion: phctl/v1\nkind: Project\nmetadata: ${meta}\nspec:\n${spec
    .trim()
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n")}\n`;
}

export function diffContext(state: DesiredState): DiffContext {
  return {
    state,
    licenses: new Set(),
    orgTeams: new Set(),
    liveUsers: new Set(),
    wikiUsers: new Set(),
  };
}

export interface Planned {
  plan: Plan;
  live: Map<string, LiveObject[]>;
  /** API calls of the read. */
  calls: number;
}

/** Read the given kinds (plus the project stand-in) and build the plan. */
export async function planFor(
  api: ApiClient,
  state: DesiredState,
  kinds: readonly ResourceKind[] = GIT_KINDS,
): Promise<Planned> {
  const all = [projectStub, ...kinds];
  const before = api.metrics.snapshot().calls;
  const rc = new ReadContext(api);
  const read = await Promise.all(all.map((k) => k.read(rc, state)));
  const live = new Map(all.map((k, i) => [k.kind, read[i] ?? []]));
  const plan = buildPlan({
    state,
    kinds: all,
    live,
    ctx: diffContext(state),
    apiUrl: "test",
    organization: "acme",
    stats: { objectsRead: rc.objects, apiCalls: 0, durationMs: 0 },
    now: "2026-01-01T00:00:00.000Z",
  });
  return { plan, live, calls: api.metrics.snapshot().calls - before };
}

/** The live objects of one kind, read alone, and the calls that took. */
export async function readKind(
  api: ApiClient,
  kind: ResourceKind,
  state: DesiredState,
): Promise<{ objects: LiveObject[]; calls: number }> {
  const before = api.metrics.snapshot().calls;
  const objects = await kind.read(new ReadContext(api), state);
  return { objects, calls: api.metrics.snapshot().calls - before };
}

/**
 * Carry out the create/update/delete entries one at a time: an entry runs once every entry
 * it depends on has run; deletes run after, in reverse. Ticket/blocked entries are never sent.
 */
export async function execute(api: ApiClient, { plan, live }: Planned): Promise<void> {
  const liveByKey = new Map([...live.values()].flat().map((l) => [l.key, l]));
  const kindOf = (e: PlanEntry) => [projectStub, ...GIT_KINDS].find((k) => k.kind === e.kind)!;
  const pending = plan.entries.filter((e) => e.action === "create" || e.action === "update");
  const planned = new Set(pending.map((e) => e.key));
  const done = new Set<string>();
  while (pending.length > 0) {
    const i = pending.findIndex((e) => e.dependsOn.every((d) => !planned.has(d) || done.has(d)));
    if (i < 0) throw new Error(`dependency cycle among ${pending.map((e) => e.key).join(", ")}`);
    const [e] = pending.splice(i, 1);
    const k = kindOf(e);
    if (e.action === "create") await k.create!(api, e, liveByKey.get(e.key));
    else await k.update!(api, e, liveByKey.get(e.key)!);
    done.add(e.key);
  }
  const deletes = plan.entries.filter((e) => e.action === "delete").reverse();
  for (const e of deletes) await kindOf(e).delete!(api, e, liveByKey.get(e.key)!);
}

/** Plan, apply, and plan again. */
export async function applyAndReplan(api: ApiClient, state: DesiredState): Promise<Planned> {
  await execute(api, await planFor(api, state));
  return planFor(api, state);
}

/** Entries as `action key` lines (compact assertions). */
export const lines = (p: Plan): string[] => p.entries.map((e) => `${e.action} ${e.key}`).sort();

/**
 * What diffObject must say for desired fields `a` against live fields `b` of one key: the
 * mutable fields that differ in one update, each differing immutable field in its own entry
 * with the kind's action; nothing when they are equal.
 */
export function expectedOutcome(
  kind: ResourceKind,
  a: Record<string, unknown>,
  b: Record<string, unknown>,
): { update: string[]; fixed: { field: string; action: string }[] } {
  const differ = Object.keys(a).filter(
    (f) => a[f] !== undefined && JSON.stringify(a[f]) !== JSON.stringify(b[f]),
  );
  return {
    update: differ.filter((f) => !kind.immutable[f]),
    fixed: differ
      .filter((f) => kind.immutable[f])
      .map((f) => ({ field: f, action: kind.immutable[f]!.action })),
  };
}

/** The outcome diffObject actually gave, in the same shape. */
export function actualOutcome(entries: readonly PlanEntry[]): {
  update: string[];
  fixed: { field: string; action: string }[];
} {
  return {
    update: entries
      .filter((e) => e.action === "update")
      .flatMap((e) => e.changes.map((c) => c.field)),
    fixed: entries
      .filter((e) => e.action === "blocked" || e.action === "ticket")
      .map((e) => ({ field: e.changes[0].field, action: e.action })),
  };
}
