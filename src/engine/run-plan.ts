/**
 * Make a plan: load nothing, print nothing — given the desired state and a client, read
 * live state, check references, diff every kind and return the Plan (or typed errors).
 * Shared by `plan`, `drift` and `apply`.
 *
 * A scoped plan (`scope`, or `targets`: src/engine/scope.ts, scope-read.ts) reads and
 * diffs only the top-level objects in scope, widened to the declared objects its entries
 * depend on until nothing more is pulled in; the organization-wide lists (users,
 * organizations, teams, projects, organization teams, licenses) are one call each.
 */
import type { ApiClient } from "../api/client.js";
import { PhctlError } from "../errors.js";
import type { Diagnostic, DesiredState, Source } from "../manifest/types.js";
import { kinds as allKinds } from "../kinds/index.js";
import type { LiveObject, ResourceKind } from "../kinds/kind.js";
import { readLive, type LiveRead } from "./live.js";
import type { Plan, PlanWarning } from "./plan.js";
import { nameEntryLayers } from "./base-blame.js";
import { locateChanges } from "./change-sources.js";
import { decidingLayers } from "./layer-impact.js";
import { buildPlan } from "./planner.js";
import { checkOrganization } from "./organization-check.js";
import { readOrganizations, type LiveOrganization } from "./readers.js";
import { ReadContext, type JournalFacts } from "./read-context.js";
import { declaredTopKeys, desiredOf, desiredScope, scopeState } from "./scope.js";
import { pulledKeys, readKeys, targetScope } from "./scope-read.js";
import { welcomeWarnings } from "../kinds/welcome.js";
import { planViolations, type PlanPolicies } from "./policy-check.js";
import { VERSION } from "../version.js";
import { expiringOf } from "../expiry/index.js";
import { topKeyOf } from "../manifest/keys.js";

export interface RunPlanOptions {
  api: ApiClient;
  state: DesiredState;
  apiUrl: string;
  /** Loader warnings (deprecated services, …) carried into the plan. */
  diagnostics?: readonly Diagnostic[];
  /** Keys, key prefixes or globs: the plan holds their entries and what they need; scopes the read. */
  targets?: readonly string[];
  /**
   * Plan only these top-level objects (`project/<slug>`, `user/<name>`, `team/<name>`,
   * `organization/<name>`) and the declared objects their entries depend on: nothing else
   * is read, diffed, listed as unmanaged or deleted. Empty: nothing is read at all.
   */
  scope?: readonly string[];
  kinds?: readonly ResourceKind[];
  /** What the apply journal knows (owed side effects); default: no journal. */
  facts?: JournalFacts;
  /** Live reads to share with another plan of the same service (plan --base: read once). */
  rc?: ReadContext;
  /** Refuse references that exist neither in the manifests nor live (default: true). */
  checkReferences?: boolean;
  /** Widen a scope to the declared objects its entries depend on (default: true). */
  closeScope?: boolean;
  /** The organization's policies: the plan's `violations` (none checked without). */
  policies?: PlanPolicies;
}

const where = (s: Source) => `${s.file}:${s.line}:${s.column}`;

/** A plan and the live objects it was made from (apply needs their ids). */
export interface PlanResult {
  plan: Plan;
  /** Live objects by key, all kinds. */
  live: Map<string, LiveObject>;
  /** CPU time of the diff alone (building the plan from desired and live state), ms. */
  diffCpuMs: number;
}

export async function runPlan(o: RunPlanOptions): Promise<Plan> {
  return (await runPlanWithLive(o)).plan;
}

/** The top-level keys a plan is scoped to (undefined: everything). */
function initialScope(o: RunPlanOptions, kinds: readonly ResourceKind[]): Set<string> | undefined {
  const targets = o.targets ?? [];
  if (o.scope === undefined && targets.length === 0) return undefined;
  const scope = new Set(o.scope ?? []);
  if (targets.length > 0) {
    const declared = [...desiredOf(o.state, kinds).values()].flatMap((l) => l.map((d) => d.key));
    for (const k of targetScope(declared, declaredTopKeys(o.state), targets)) scope.add(k);
  }
  return scope;
}

/** Nothing read: an empty scope. */
const nothingRead = (state: DesiredState): LiveRead => ({
  live: new Map(),
  ctx: {
    state,
    licenses: new Set(),
    orgTeams: new Set(),
    liveUsers: new Set(),
    wikiUsers: new Set(),
  },
  objects: 0,
});

/** References that exist neither in the manifests nor live are errors with their sources. */
function checkReferences(state: DesiredState, live: LiveRead, orgs: LiveOrganization[]): void {
  const problems: string[] = [];
  for (const r of state.referencedUsers) {
    if (!live.ctx.liveUsers.has(r.name)) {
      problems.push(
        `${where(r.sources[0])} user ${r.name} is neither declared in the manifests nor exists live`,
      );
    }
  }
  const orgNames = new Set(orgs.map((x) => x.name));
  for (const r of state.referencedOrganizations) {
    if (!orgNames.has(r.name)) {
      problems.push(
        `${where(r.sources[0])} organization ${r.name} is neither declared in the manifests nor exists live`,
      );
    }
  }
  if (problems.length > 0) {
    throw new PhctlError("UNKNOWN_REFERENCE", problems[0], { details: problems.slice(1) });
  }
}

export async function runPlanWithLive(o: RunPlanOptions): Promise<PlanResult> {
  const started = performance.now();
  const callsBefore = o.api.metrics.calls;
  const kinds = o.kinds ?? allKinds;
  const rc = o.rc ?? new ReadContext(o.api, o.facts);
  const scope = initialScope(o, kinds);
  const empty = scope?.size === 0;
  const declaredTops = declaredTopKeys(o.state);
  const readState = () => (scope ? scopeState(o.state, readKeys(o.state, scope)) : o.state);
  const read = () =>
    empty
      ? Promise.resolve(nothingRead(o.state))
      : readLive(o.api, o.state, kinds, rc, readState());
  // The organizations: the default organization, and references (not needed to read nothing).
  // phctl.yaml's organization is checked against the token's before anything else is read.
  const configured = o.state.config.organization;
  if (configured && !empty) {
    const where = o.state.config.source ? o.state.config.source.file : "phctl.yaml";
    checkOrganization(await readOrganizations(rc), configured, where);
  }
  const needsOrgs = !empty || !configured;
  const [first, orgs] = await Promise.all([
    read(),
    needsOrgs ? readOrganizations(rc) : Promise.resolve([]),
  ]);
  if (o.checkReferences !== false && !empty) checkReferences(o.state, first, orgs);

  const parent = orgs.find((x) => x.parentOrganization === null)?.name ?? "";
  // Without an organization in phctl.yaml, the token's parent organization is the default.
  const state =
    o.state.config.organization || !parent
      ? o.state
      : { ...o.state, config: { ...o.state.config, organization: parent } };
  const baseWarnings: PlanWarning[] = (o.diagnostics ?? [])
    .filter((d) => d.severity === "warning")
    .map((d) => ({ message: d.message, source: { file: d.file, line: d.line, column: d.column } }));
  let cpuMs = 0;
  let live = first;
  for (;;) {
    const doubts =
      !empty && kinds.some((k) => k.sideEffect) ? await welcomeWarnings(rc, readState()) : [];
    const cpuBefore = process.cpuUsage();
    const plan = buildPlan({
      state,
      kinds,
      live: live.live,
      ctx: live.ctx,
      apiUrl: o.apiUrl,
      organization: state.config.organization ?? parent,
      warnings: [...baseWarnings, ...doubts],
      // A scoped plan needs the desired objects of its scope alone.
      desired: desiredOf(scope ? desiredScope(state, scope) : state, kinds),
      ...(o.targets && o.targets.length > 0 ? { targets: o.targets } : {}),
      ...(scope ? { scope } : {}),
      stats: { objectsRead: 0, apiCalls: 0, durationMs: 0 },
    });
    const cpu = process.cpuUsage(cpuBefore);
    cpuMs += (cpu.user + cpu.system) / 1000;
    const more =
      scope && o.closeScope !== false ? pulledKeys(plan.entries, scope, declaredTops) : [];
    if (more.length > 0) {
      for (const k of more) scope!.add(k);
      live = await read();
      continue;
    }
    // Each changed field at its own line: its files read again, the load keeps no such detail.
    locateChanges(plan.entries, undefined, state.layerSources);
    nameEntryLayers(plan.entries, state);
    if (o.policies) plan.violations = planViolations(plan, o.state, live.live, o.policies);
    // The layers that decide a changed field, with what each selects (the blast radius).
    const layers = decidingLayers(plan.entries, state.layers);
    if (layers.length > 0) plan.layers = layers;
    const expiring = expiringOf(state, (k) => !scope || scope.has(topKeyOf(k)));
    if (expiring.length > 0) {
      const planned = new Set(plan.entries.map((e) => e.key));
      for (const g of expiring) if (g.status === "expired") g.due = planned.has(g.key);
      plan.expiring = expiring;
    }
    plan.phctlVersion = VERSION;
    plan.stats = {
      objectsRead: rc.objects,
      apiCalls: o.api.metrics.calls - callsBefore,
      durationMs: Math.round(performance.now() - started),
    };
    const byKey = new Map<string, LiveObject>();
    for (const list of live.live.values()) for (const l of list) byKey.set(l.key, l);
    return { plan, live: byKey, diffCpuMs: cpuMs };
  }
}
