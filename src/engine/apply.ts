/**
 * The executor: builds the plan's DAG (src/engine/graph.ts), walks it (src/engine/walk.ts:
 * as many nodes at once as keep the client's concurrency slots busy; a failure skips what
 * needed it, independent branches go on), then re-plans the touched keys (verify.ts).
 * Everything is told to the reporter as events (`apply-started` … `apply-done`); nothing
 * prints.
 */
import { OutageError } from "../api/errors.js";
import type { ResourceKind } from "../kinds/kind.js";
import { kinds as allKinds } from "../kinds/index.js";
import type { DesiredState } from "../manifest/types.js";
import type { ApplySummary, Inconsistency } from "./apply-events.js";
import { buildGraph, type Graph, type NodeId } from "./graph.js";
import type { Action, PlanEntry } from "./plan.js";
import { verifyApply } from "./verify.js";
import { walk, type Outcome, type WalkOptions } from "./walk.js";

export { defaultMaxActive, NOT_STARTED, walk, type Outcome, type WalkOptions } from "./walk.js";

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
    after: (e) => kinds.find((k) => k.kind === e.kind)?.after?.(e.key) ?? [],
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
      // An outage stops the run and is said by its last line: the re-read adds nothing.
      if (!(e instanceof OutageError))
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
