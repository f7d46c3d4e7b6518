/**
 * Make a plan: load nothing, print nothing — given the desired state and a client, read
 * live state, check references, diff every kind and return the Plan (or typed errors).
 * Shared by `plan`, `drift` and `apply`.
 */
import type { ApiClient } from "../api/client.js";
import { PhctlError } from "../errors.js";
import type { Diagnostic, DesiredState, Source } from "../manifest/types.js";
import { kinds as allKinds } from "../kinds/index.js";
import type { LiveObject, ResourceKind } from "../kinds/kind.js";
import { readLive } from "./live.js";
import type { Plan, PlanWarning } from "./plan.js";
import { buildPlan } from "./planner.js";
import { readOrganizations } from "./readers.js";
import { ReadContext, type JournalFacts } from "./read-context.js";
import { welcomeWarnings } from "../kinds/welcome.js";
import { VERSION } from "../version.js";

export interface RunPlanOptions {
  api: ApiClient;
  state: DesiredState;
  apiUrl: string;
  /** Loader warnings (deprecated services, …) carried into the plan. */
  diagnostics?: readonly Diagnostic[];
  targets?: readonly string[];
  kinds?: readonly ResourceKind[];
  /** What the apply journal knows (owed side effects); default: no journal. */
  facts?: JournalFacts;
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

export async function runPlanWithLive(o: RunPlanOptions): Promise<PlanResult> {
  const started = performance.now();
  const callsBefore = o.api.metrics.snapshot().calls;
  const kinds = o.kinds ?? allKinds;
  const rc = new ReadContext(o.api, o.facts);
  const [live, orgs, doubts] = await Promise.all([
    readLive(o.api, o.state, kinds, rc),
    readOrganizations(rc),
    kinds.some((k) => k.sideEffect) ? welcomeWarnings(rc, o.state) : Promise.resolve([]),
  ]);

  // References that exist neither in the manifests nor live are errors with their sources.
  const problems: string[] = [];
  for (const r of o.state.referencedUsers) {
    if (!live.ctx.liveUsers.has(r.name)) {
      problems.push(
        `${where(r.sources[0])} user ${r.name} is neither declared in the manifests nor exists live`,
      );
    }
  }
  const orgNames = new Set(orgs.map((x) => x.name));
  for (const r of o.state.referencedOrganizations) {
    if (!orgNames.has(r.name)) {
      problems.push(
        `${where(r.sources[0])} organization ${r.name} is neither declared in the manifests nor exists live`,
      );
    }
  }
  if (problems.length > 0) {
    throw new PhctlError("UNKNOWN_REFERENCE", problems[0], { details: problems.slice(1) });
  }

  const warnings: PlanWarning[] = (o.diagnostics ?? [])
    .filter((d) => d.severity === "warning")
    .map((d) => ({ message: d.message, source: { file: d.file, line: d.line, column: d.column } }));
  warnings.push(...doubts);
  const parent = orgs.find((x) => x.parentOrganization === null)?.name ?? "";
  // Without an organization in phctl.yaml, the token's parent organization is the default.
  const state =
    o.state.config.organization || !parent
      ? o.state
      : { ...o.state, config: { ...o.state.config, organization: parent } };
  const cpuBefore = process.cpuUsage();
  const plan = buildPlan({
    state,
    kinds,
    live: live.live,
    ctx: live.ctx,
    apiUrl: o.apiUrl,
    organization: state.config.organization ?? parent,
    warnings,
    ...(o.targets ? { targets: o.targets } : {}),
    stats: {
      objectsRead: rc.objects,
      apiCalls: o.api.metrics.snapshot().calls - callsBefore,
      durationMs: Math.round(performance.now() - started),
    },
  });
  plan.phctlVersion = VERSION;
  const cpu = process.cpuUsage(cpuBefore);
  const byKey = new Map<string, LiveObject>();
  for (const list of live.live.values()) for (const l of list) byKey.set(l.key, l);
  return { plan, live: byKey, diffCpuMs: (cpu.user + cpu.system) / 1000 };
}
