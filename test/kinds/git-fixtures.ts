/**
 * Shared by the tests of the git and artifact kinds (GitGroup, Subgroup, Repository, Mirror,
 * ArtifactRepo): a stand-in Project kind (so the planner sees the parent keys of pruned
 * objects without depending on the Project kind's own reads), the helpers of
 * test/helpers/kinds.ts bound to these kinds, one kind's read alone, and the expected and
 * actual outcome of a diff.
 */
import type { ApiClient } from "../../src/api/client.js";
import type { PlanEntry } from "../../src/engine/plan.js";
import { ReadContext } from "../../src/engine/read-context.js";
import { readProjects } from "../../src/engine/readers.js";
import { artifactRepoKind } from "../../src/kinds/artifact-repo.js";
import { gitGroupKind } from "../../src/kinds/git-group.js";
import type { LiveObject, ResourceKind } from "../../src/kinds/kind.js";
import { mirrorKind } from "../../src/kinds/mirror.js";
import { repositoryKind } from "../../src/kinds/repository.js";
import { subgroupKind } from "../../src/kinds/subgroup.js";
import { projectKey } from "../../src/manifest/keys.js";
import type { DesiredState } from "../../src/manifest/types.js";
import { executeInDependencyOrder, kindHarness, readKindsOnly } from "../helpers/kinds.js";

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

/**
 * Plan (the given kinds, GIT_KINDS by default, after the project stand-in; their own reads
 * only, with an empty DiffContext), execute in dependency order (creates and updates after
 * what they depend on, deletes in reverse), plan again.
 */
export const { planFor, execute, applyAndReplan } = kindHarness(GIT_KINDS, {
  parents: [projectStub],
  read: readKindsOnly,
  execute: executeInDependencyOrder,
});

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
