/**
 * The executor: a walk of the plan's DAG (src/engine/graph.ts) after Terraform's
 * dag/walk.go. A node starts as soon as every node it depends on is done; there is no
 * node-level limit — concurrency is the client's shared limit on requests in flight, and a
 * node waiting on a queued job holds no slot (the client's waitForJob sleeps outside it).
 * A failure is reported once, at its root; every node that needed it is `skipped` with the
 * root named; independent branches go on. Everything is told to the reporter as events;
 * nothing prints. After the walk, the touched keys are re-planned (verify.ts).
 */
import type { ApiClient } from "../api/client.js";
import { AmbiguousRequestError } from "../api/errors.js";
import { PhctlError } from "../errors.js";
import type { LiveObject, ResourceKind } from "../kinds/kind.js";
import { kinds as allKinds } from "../kinds/index.js";
import type { DesiredState } from "../manifest/types.js";
import type { ApplyReporter, ApplySummary, EventTarget } from "./apply-events.js";
import { buildGraph, type Graph, type GraphNode, type NodeId } from "./graph.js";
import type { Action, PlanEntry } from "./plan.js";
import { trackJobs } from "./track-jobs.js";
import { verifyApply, type Inconsistency } from "./verify.js";

/** How one node ended. */
export type Outcome =
  | { status: "done"; durationMs: number }
  | { status: "failed"; durationMs: number; message: string }
  | { status: "skipped"; root: string; reason: string };

/**
 * The DAG of a plan's entries, with deletes ordered by containment: the kinds' owners
 * (parentKey) and containers (a repository's subgroups) are deleted after what they hold.
 */
export function planGraph(
  entries: readonly PlanEntry[],
  kinds: readonly ResourceKind[] = allKinds,
): Graph {
  return buildGraph(entries, {
    ownerOf: (e) => {
      const own = kinds.find((k) => k.kind === e.kind)?.ownership;
      if (!own || (own.mode !== "prune" && own.mode !== "authoritative")) return [];
      return [
        own.parentKey(e.key),
        ...(own.mode === "prune" && own.containers ? own.containers(e.key) : []),
      ];
    },
  });
}

const target = (n: GraphNode): EventTarget => ({
  id: n.id,
  key: n.entry.key,
  kind: n.entry.kind,
  action: n.entry.action,
});

function notSupported(entry: PlanEntry): PhctlError {
  return new PhctlError(
    "NOT_SUPPORTED",
    `${entry.kind} ${entry.key}: phctl cannot ${entry.action} a ${entry.kind} (no API operation is wired for it)`,
    { source: "internal" },
  );
}

/** Carry out one entry with its kind. */
async function runEntry(
  api: ApiClient,
  kind: ResourceKind | undefined,
  entry: PlanEntry,
  live: LiveObject | undefined,
): Promise<void> {
  if (!kind) throw new PhctlError("UNKNOWN_KIND", `unknown kind ${entry.kind} in the plan`);
  switch (entry.action) {
    case "create":
      if (!kind.create) throw notSupported(entry);
      return kind.create(api, entry, live);
    case "update":
      if (!kind.update) throw notSupported(entry);
      if (!live)
        throw new PhctlError("GONE", `${entry.key} no longer exists live: nothing to update`);
      return kind.update(api, entry, live);
    case "delete":
      if (!kind.delete) throw notSupported(entry);
      // Already gone is what a delete wants.
      return live ? kind.delete(api, entry, live) : undefined;
    case "ticket":
    case "blocked":
      throw new Error(`internal: ${entry.action} entries are never sent`);
  }
}

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
  now?: () => number;
}

/** The `root` of actions never started because the run halted (see WalkOptions.halted). */
export const NOT_STARTED = "";

/** How often an action is re-read and tried again after its answer was lost. */
const AMBIGUOUS_TRIES = 3;

/**
 * Run an entry; when a write's answer was lost, re-read and run what is still left (at most
 * AMBIGUOUS_TRIES times). Side effects, which cannot be read back, handle that themselves.
 */
async function runConfirmed(
  o: WalkOptions,
  api: ApiClient,
  kind: ResourceKind | undefined,
  entry: PlanEntry,
): Promise<void> {
  let current = entry;
  let live = o.live.get(entry.key);
  for (let attempt = 1; ; attempt++) {
    try {
      return await runEntry(api, kind, current, live);
    } catch (e) {
      if (!(e instanceof AmbiguousRequestError) || !o.recheck || kind?.sideEffect) throw e;
      if (attempt >= AMBIGUOUS_TRIES) throw e;
      const left = await o.recheck(current);
      if (!left) return;
      if (left.entry.action !== current.action && left.entry.action !== "update") throw e;
      current = left.entry;
      live = left.live;
    }
  }
}

/** Walk the graph; resolves when every node is done, failed or skipped. */
export function walk(o: WalkOptions): Promise<Map<NodeId, Outcome>> {
  const { graph, reporter: emit } = o;
  const kinds = o.kinds ?? allKinds;
  const now = o.now ?? (() => performance.now());
  const outcomes = new Map<NodeId, Outcome>();
  const waiting = new Map<NodeId, number>();
  for (const n of graph.nodes.values()) waiting.set(n.id, n.deps.length);

  return new Promise((resolve) => {
    const settleIfAll = () => {
      if (outcomes.size === graph.nodes.size) resolve(outcomes);
    };
    /** Skip everything downstream of `from` (not `from` itself), once each. */
    const skipDownstream = (from: GraphNode, root: string, reason: string) => {
      const queue = [...from.dependents];
      while (queue.length > 0) {
        const id = queue.shift()!;
        if (outcomes.has(id)) continue;
        const n = graph.nodes.get(id)!;
        outcomes.set(id, { status: "skipped", root, reason });
        emit({ type: "action-skipped", ...target(n), root, reason });
        queue.push(...n.dependents);
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
      emit({ type: "action-started", ...t });
      const started = now();
      const api = trackJobs(o.api, {
        queued: (queue, queueId) =>
          emit({ type: "job-waiting", ...t, queue, queueId, resumed: false }),
        completed: (queue, queueId) => emit({ type: "job-done", ...t, queue, queueId, ok: true }),
        failed: (queue, queueId, message) =>
          emit({ type: "job-done", ...t, queue, queueId, ok: false, message }),
      });
      const pre = o.preFailed?.get(n.id);
      const run =
        pre !== undefined
          ? Promise.reject(new PhctlError("JOB_OPEN", pre))
          : runConfirmed(
              o,
              api,
              kinds.find((k) => k.kind === n.entry.kind),
              n.entry,
            );
      run.then(
        () => {
          const durationMs = Math.round(now() - started);
          outcomes.set(n.id, { status: "done", durationMs });
          emit({ type: "action-done", ...t, durationMs });
          for (const d of n.dependents) {
            const left = waiting.get(d)! - 1;
            waiting.set(d, left);
            if (left === 0 && !outcomes.has(d)) launch(graph.nodes.get(d)!);
          }
          settleIfAll();
        },
        (e: unknown) => {
          const durationMs = Math.round(now() - started);
          const message = e instanceof Error ? e.message : String(e);
          const code = e instanceof PhctlError ? e.code : "INTERNAL";
          outcomes.set(n.id, { status: "failed", durationMs, message });
          emit({ type: "action-failed", ...t, durationMs, message, code });
          skipDownstream(n, n.entry.key, `needs ${n.entry.key}, which failed`);
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
      if (n.deps.length === 0 && !outcomes.has(id)) launch(n);
    }
    settleIfAll();
  });
}

export interface RunApplyOptions extends Omit<WalkOptions, "graph"> {
  /** The plan's entries (ticket and blocked ones are counted, never sent). */
  entries: readonly PlanEntry[];
  graph: Graph;
  /** Entries an interrupted run did (`--resume`), left out of the graph by the caller. */
  alreadyDone?: number;
  /** Re-plan the touched keys after the walk (needs the manifests). */
  verify?: { state: DesiredState; apiUrl: string };
}

export interface ApplyResult {
  summary: ApplySummary;
  outcomes: Map<NodeId, Outcome>;
  inconsistencies: Inconsistency[];
}

/** Apply a plan: walk, verify, and report `apply-started` … `apply-done`. */
export async function runApply(o: RunApplyOptions): Promise<ApplyResult> {
  const now = o.now ?? (() => performance.now());
  const started = now();
  const count = (a: string) => o.entries.filter((e) => e.action === a).length;
  const emit = o.reporter;
  emit({
    type: "apply-started",
    total: o.graph.nodes.size,
    ticket: count("ticket"),
    blocked: count("blocked"),
    alreadyDone: o.alreadyDone ?? 0,
  });
  // Jobs of an interrupted run that failed, for entries the new plan no longer has.
  let failedOutside = 0;
  for (const [id, message] of o.preFailed ?? []) {
    if (o.graph.nodes.has(id)) continue;
    const [action, ...rest] = id.split(" ");
    const key = rest.join(" ");
    const kind = o.entries.find((e) => e.key === key)?.kind ?? "";
    emit({
      type: "action-failed",
      id,
      key,
      kind,
      action: action as Action,
      durationMs: 0,
      message,
      code: "JOB_FAILED",
    });
    failedOutside++;
  }
  const outcomes = await walk(o);
  const touched = [...outcomes]
    .filter(([, r]) => r.status === "done")
    .map(([id]) => o.graph.nodes.get(id)!.entry.key);
  let inconsistencies: Inconsistency[] = [];
  if (o.verify && touched.length > 0) {
    try {
      inconsistencies = await verifyApply({
        api: o.api,
        state: o.verify.state,
        apiUrl: o.verify.apiUrl,
        touched,
        original: o.entries,
        ...(o.kinds ? { kinds: o.kinds } : {}),
      });
    } catch (e) {
      emit({
        type: "verify-failed",
        message: `could not re-read the changed objects: ${e instanceof Error ? e.message : String(e)}`,
      });
    }
    for (const i of inconsistencies) emit({ type: "inconsistent", ...i });
  }
  const by = (s: Outcome["status"]) => [...outcomes.values()].filter((r) => r.status === s).length;
  const summary: ApplySummary = {
    done: by("done"),
    failed: by("failed") + failedOutside,
    skipped: by("skipped"),
    ticket: count("ticket"),
    blocked: count("blocked"),
    inconsistent: inconsistencies.length,
    alreadyDone: o.alreadyDone ?? 0,
    durationMs: Math.round(now() - started),
  };
  const stopped = o.halted?.();
  if (stopped !== undefined) summary.stopped = stopped;
  emit({ type: "apply-done", summary });
  return { summary, outcomes, inconsistencies };
}

/** Did the run leave anything undone or wrong (exit 1)? */
export function applyFailed(s: ApplySummary): boolean {
  return s.failed > 0 || s.inconsistent > 0 || s.stopped !== undefined;
}
