/**
 * The bound an apply from empty is held to (issue 8), shared by bench/run.ts's `empty`
 * scenario and the smoke test:
 *
 *   walk time  ≤  1.5 × (critical path + total API time / concurrency)
 *
 * - critical path: the heaviest dependency chain of the plan's DAG, each node weighted with
 *   the mean uncontended duration of its action and kind (`calibrate`: a small generated
 *   organization applied one action at a time on a fresh server, same latency and queue
 *   delay);
 * - total API time: the server's time for every request of the walk (its request log);
 * - concurrency: the client's limit on requests in flight.
 *
 * No schedule can beat the larger of the two terms; their sum is what a schedule that keeps
 * the critical path moving and every slot busy achieves.
 */
import { ApiClient } from "../src/api/client.js";
import type { RequestLogEntry } from "../src/server/app.js";
import { planGraph, walk } from "../src/engine/apply.js";
import { criticalPath, type Graph, type NodeId } from "../src/engine/graph.js";
import { runPlanWithLive } from "../src/engine/run-plan.js";
import type { DesiredState } from "../src/manifest/types.js";
import { desiredState, generate, type Shape } from "./generate.js";
import { serve } from "./serve.js";

/** The organization `calibrate` applies: every kind of the benchmark's, a few of each. */
export const CALIBRATION_SHAPE: Shape = { users: 10, teams: 2, projects: 3, repos: 15 };

/** `<action> <kind>` of a node, the unit of the calibrated means. */
export const typeOf = (graph: Graph, id: NodeId): string => {
  const e = graph.nodes.get(id)!.entry;
  return `${e.action} ${e.kind}`;
};

/**
 * Mean duration of each `<action> <kind>` with nothing else running: the calibration
 * organization applied one action at a time, in the DAG's order, on a fresh server.
 */
export async function calibrate(o: {
  token: string;
  latency: number;
  queueDelay: number;
  state?: DesiredState;
}): Promise<Map<string, number>> {
  const state = o.state ?? desiredState(generate(CALIBRATION_SHAPE));
  const { url, child } = await serve({
    token: o.token,
    latency: o.latency,
    queueDelay: o.queueDelay,
  });
  const api = new ApiClient({ apiUrl: url, token: o.token, concurrency: 8 });
  const sums = new Map<string, { ms: number; n: number }>();
  const failures: string[] = [];
  try {
    const { plan, live } = await runPlanWithLive({ api, state, apiUrl: url });
    const graph = planGraph(plan.entries);
    for (const id of graph.order) {
      const type = typeOf(graph, id);
      await walk({
        api,
        graph: planGraph([graph.nodes.get(id)!.entry]),
        live,
        reporter: (e) => {
          if (e.type === "action-failed") failures.push(`${e.id}: ${e.message}`);
          if (e.type !== "action-done") return;
          const s = sums.get(type) ?? { ms: 0, n: 0 };
          sums.set(type, { ms: s.ms + e.durationMs, n: s.n + 1 });
        },
      });
    }
  } finally {
    await api.close();
    child.kill();
  }
  if (failures.length) throw new Error(`calibration failed: ${failures.join("; ")}`);
  return new Map([...sums].map(([k, s]) => [k, s.ms / s.n]));
}

export interface ApplyBound {
  criticalPathMs: number;
  /** The critical path's nodes with their weights. */
  path: { id: NodeId; ms: number }[];
  apiMs: number;
  concurrency: number;
  /** critical path + API time / concurrency. */
  boundMs: number;
  /** Node types of the graph that `means` has no figure for (weighted 0). */
  uncalibrated: string[];
}

export function applyBound(
  graph: Graph,
  means: ReadonlyMap<string, number>,
  apiMs: number,
  concurrency: number,
): ApplyBound {
  const uncalibrated = new Set<string>();
  const weight = (id: NodeId) => {
    const t = typeOf(graph, id);
    const ms = means.get(t);
    if (ms === undefined) uncalibrated.add(t);
    return ms ?? 0;
  };
  const cp = criticalPath(graph, weight);
  return {
    criticalPathMs: cp.length,
    path: cp.path.map((id) => ({ id, ms: weight(id) })),
    apiMs,
    concurrency,
    boundMs: cp.length + apiMs / concurrency,
    uncalibrated: [...uncalibrated],
  };
}

/**
 * Split the request log of a CLI apply into its three phases, which run one after the other:
 * the plan's reads (the first `planCalls`: the reads the bench's own plan of the same empty
 * server made), the walk, and the verification's re-reads (the last `verifyCalls`: after an
 * apply that touched every key, the verification re-plans the whole organization, i.e. the
 * reads of the no-change plan that checks convergence right after).
 */
export function splitApplyLog<T>(
  log: readonly T[],
  planCalls: number,
  verifyCalls: number,
): { plan: T[]; walk: T[]; verify: T[] } {
  const end = Math.max(planCalls, log.length - verifyCalls);
  return { plan: log.slice(0, planCalls), walk: log.slice(planCalls, end), verify: log.slice(end) };
}

/** Sum of the server's time over requests, ms. */
export const apiTime = (log: readonly RequestLogEntry[]): number =>
  log.reduce((s, e) => s + e.ms, 0);
