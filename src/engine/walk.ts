/**
 * The walk of a plan's DAG (src/engine/graph.ts), after Terraform's dag/walk.go. A node is
 * ready as soon as every node it depends on is done. Concurrency is the client's shared
 * limit on requests in flight; ready nodes start in order as long as fewer than
 * `maxActive` (a few times that limit) are running — a node waiting on a queued job does
 * not count (it holds no slot: the client's waitForJob sleeps outside it). So the slots
 * stay busy while thousands of ready nodes wait as list items, not as suspended calls
 * (7 KB each: an apply of 18,000 actions held 9,000 of them and 380 MB at once).
 * A failure is reported once, at its root; every node that needed it is `skipped` with the
 * root named; independent branches go on. Everything is told to the reporter as events.
 */
import type { ApiClient } from "../api/client.js";
import { createWitness, type CreateWitness } from "../api/create-or-find.js";
import { PhctlError } from "../errors.js";
import type { LiveObject, ResourceKind } from "../kinds/kind.js";
import { kinds as allKinds } from "../kinds/index.js";
import type { ApplyReporter, EventTarget } from "./apply-events.js";
import { nodeId, type Graph, type GraphNode, type NodeId } from "./graph.js";
import type { PlanEntry } from "./plan.js";
import { runConfirmed } from "./run-entry.js";
import { trackJobs } from "./track-jobs.js";

/**
 * How one node ended. `existed`: its create met the object already made by another writer
 * (see CreateWitness). `note`: done without a call, and why (a side effect another run owes).
 */
export type Outcome =
  | { status: "done"; durationMs: number; existed?: true; note?: string }
  | { status: "failed"; durationMs: number; message: string }
  | { status: "skipped"; root: string; reason: string };

const target = (n: GraphNode): EventTarget => ({
  id: n.id,
  key: n.entry.key,
  kind: n.entry.kind,
  action: n.entry.action,
});

export interface WalkOptions {
  api: ApiClient;
  graph: Graph;
  /** Live objects by key, as planned from (their ids). */
  live: ReadonlyMap<string, LiveObject>;
  kinds?: readonly ResourceKind[];
  reporter: ApplyReporter;
  /** Nodes that fail without a call (a job of an earlier run still open): id → message. */
  preFailed?: ReadonlyMap<NodeId, string>;
  /**
   * Asked before each node starts: a reason to start nothing more (the service is gone, the
   * journal cannot be written). Nodes not started are `skipped` with that reason; nodes in
   * flight finish.
   */
  halted?: () => string | undefined;
  /**
   * After an ambiguous failure (the answer to a write was lost), what is left of the entry
   * now: re-read by the caller. `undefined` = nothing differs any more (the write landed);
   * else the entry and live object to run again — only what still differs is sent.
   */
  recheck?: (entry: PlanEntry) => Promise<{ entry: PlanEntry; live?: LiveObject } | undefined>;
  /**
   * Nodes running at once, those waiting on a queued job left out (default: 4 × the
   * client's concurrency, at least 32).
   */
  maxActive?: number;
  now?: () => number;
}

/** The default of `WalkOptions.maxActive`. */
export function defaultMaxActive(api: ApiClient): number {
  const c = (api as Partial<ApiClient>).concurrency;
  return Math.max(32, 4 * (typeof c === "number" && c > 0 ? c : 8));
}

/** The `root` of actions never started because the run halted (see WalkOptions.halted). */
export const NOT_STARTED = "";

/**
 * Why a side effect (the welcome mail) is not this run's to carry out: the create it follows
 * found its object already made by another writer, who owes it. Undefined: it is ours.
 */
function sideEffectOwedElsewhere(
  n: GraphNode,
  kind: ResourceKind | undefined,
  outcomes: ReadonlyMap<NodeId, Outcome>,
): string | undefined {
  if (!kind?.sideEffect) return undefined;
  for (const dep of n.entry.dependsOn) {
    const made = outcomes.get(nodeId({ action: "create", key: dep }));
    if (made?.status === "done" && made.existed)
      return `not sent: ${dep} was created by another writer while this run ran, so its ${kind.kind === "WelcomeMail" ? "welcome mail" : kind.kind} is that writer's to send`;
  }
  return undefined;
}

/** Walk the graph; resolves when every node is done, failed or skipped. */
export function walk(o: WalkOptions): Promise<Map<NodeId, Outcome>> {
  const { graph, reporter: emit } = o;
  const kinds = o.kinds ?? allKinds;
  const kindOf = new Map(kinds.map((k) => [k.kind, k]));
  const now = o.now ?? (() => performance.now());
  const maxActive = Math.max(1, o.maxActive ?? defaultMaxActive(o.api));
  const outcomes = new Map<NodeId, Outcome>();
  const waiting = new Map<NodeId, number>();
  for (const n of graph.nodes.values()) waiting.set(n.id, n.deps.length);
  /** Ready nodes not started yet, in the order they became ready (`head`: the next one). */
  const ready: GraphNode[] = [];
  let head = 0;
  /** Nodes started, not finished, and not waiting on a queued job. */
  let active = 0;

  return new Promise((resolve) => {
    const settleIfAll = () => {
      if (outcomes.size === graph.nodes.size) resolve(outcomes);
    };
    /** One dependency of `id` has ended: ready once none is left. */
    const release = (id: NodeId) => {
      const left = waiting.get(id)! - 1;
      waiting.set(id, left);
      if (left === 0 && !outcomes.has(id)) ready.push(graph.nodes.get(id)!);
    };
    /**
     * Skip everything downstream of `from` (not `from` itself), once each; a node that only
     * comes after one of them (`orderOnly`) is released instead.
     */
    const skipDownstream = (from: GraphNode, root: string, reason: string) => {
      const queue: [NodeId, NodeId][] = from.dependents.map((d) => [from.id, d]);
      while (queue.length > 0) {
        const [by, id] = queue.shift()!;
        if (outcomes.has(id)) continue;
        const n = graph.nodes.get(id)!;
        if (n.orderOnly?.has(by)) {
          release(id);
          continue;
        }
        outcomes.set(id, { status: "skipped", root, reason });
        emit({ type: "action-skipped", ...target(n), root, reason });
        for (const d of n.dependents) queue.push([id, d]);
      }
    };
    /** Another writer was met: said once per run. */
    let otherWriter = false;
    /** A node is done: record, tell, and release what waited for it. */
    const succeed = (n: GraphNode, done: Extract<Outcome, { status: "done" }>) => {
      outcomes.set(n.id, done);
      emit({ type: "action-done", ...target(n), ...done });
      if (done.existed && !otherWriter) {
        otherWriter = true;
        emit({ type: "other-writer", ...target(n) });
      }
      for (const d of n.dependents) release(d);
      pump();
      settleIfAll();
    };
    /** Start ready nodes while fewer than `maxActive` run. */
    const pump = () => {
      while (active < maxActive && head < ready.length) {
        const n = ready[head++];
        if (head > 1024 && head * 2 > ready.length) {
          ready.splice(0, head);
          head = 0;
        }
        if (!outcomes.has(n.id)) launch(n);
      }
    };
    const launch = (n: GraphNode) => {
      const t = target(n);
      const stop = o.halted?.();
      if (stop !== undefined) {
        outcomes.set(n.id, { status: "skipped", root: NOT_STARTED, reason: stop });
        emit({ type: "action-skipped", ...t, root: NOT_STARTED, reason: stop });
        skipDownstream(n, NOT_STARTED, stop);
        settleIfAll();
        return;
      }
      const owedElsewhere = sideEffectOwedElsewhere(n, kindOf.get(n.entry.kind), outcomes);
      if (owedElsewhere !== undefined) {
        emit({ type: "action-started", ...t });
        succeed(n, { status: "done", durationMs: 0, note: owedElsewhere });
        return;
      }
      emit({ type: "action-started", ...t });
      active++;
      const started = now();
      /** Queued jobs this node waits on: while any is open it does not count as active. */
      let jobs = 0;
      let finished = false;
      const jobEnded = () => {
        if (!finished && jobs > 0 && --jobs === 0) active++;
      };
      const api = trackJobs(o.api, {
        queued: (queue, queueId) => {
          if (!finished && jobs++ === 0) {
            active--;
            pump();
          }
          emit({ type: "job-waiting", ...t, queue, queueId, resumed: false });
        },
        completed: (queue, queueId) => {
          jobEnded();
          emit({ type: "job-done", ...t, queue, queueId, ok: true });
        },
        failed: (queue, queueId, message) => {
          jobEnded();
          emit({ type: "job-done", ...t, queue, queueId, ok: false, message });
        },
      });
      const finish = () => {
        if (jobs === 0) active--;
        finished = true; // late hooks of an abandoned job change nothing
      };
      const pre = o.preFailed?.get(n.id);
      const witness: CreateWitness = { existed: false };
      const run =
        pre !== undefined
          ? Promise.reject(new PhctlError("JOB_OPEN", pre))
          : createWitness.run(witness, () =>
              runConfirmed(o, api, kindOf.get(n.entry.kind), n.entry),
            );
      run.then(
        () => {
          finish();
          const durationMs = Math.round(now() - started);
          const existed = witness.existed && n.entry.action === "create";
          succeed(n, { status: "done", durationMs, ...(existed ? { existed: true } : {}) });
        },
        (e: unknown) => {
          finish();
          const durationMs = Math.round(now() - started);
          const message = e instanceof Error ? e.message : String(e);
          const code = e instanceof PhctlError ? e.code : "INTERNAL";
          outcomes.set(n.id, { status: "failed", durationMs, message });
          emit({ type: "action-failed", ...t, durationMs, message, code });
          skipDownstream(n, n.entry.key, `needs ${n.entry.key}, which failed`);
          pump();
          settleIfAll();
        },
      );
    };

    // What can never run first: nodes that need a key a ticket or blocked entry holds back.
    for (const id of graph.order) {
      const n = graph.nodes.get(id)!;
      if (!n.unreachable || outcomes.has(id)) continue;
      const { key, reason } = n.unreachable;
      outcomes.set(id, { status: "skipped", root: key, reason });
      emit({ type: "action-skipped", ...target(n), root: key, reason });
      skipDownstream(n, key, `needs ${key}: ${reason}`);
    }
    for (const id of graph.order) {
      const n = graph.nodes.get(id)!;
      if (n.deps.length === 0 && !outcomes.has(id)) ready.push(n);
    }
    pump();
    settleIfAll();
  });
}
