/**
 * The walk of `phctl apply` (step 5 of apply-run.ts): the plan's actions in dependency
 * order, every event journaled beside the run's lock. It stops starting actions when the
 * journal cannot be written, the service stays away past the outage timeout, or the service
 * refuses the token, and fills in the run's outcome (`--result`) and exit code.
 */
import { userError, PhctlError } from "../errors.js";
import { applyFailed, runApply } from "../engine/apply.js";
import type { ApplyEvent, ApplySummary } from "../engine/apply-events.js";
import { isExecutable, nodeId, type Graph } from "../engine/graph.js";
import { Journal, planDigest, type InFlightJob, type JournalData } from "../engine/journal.js";
import type { Plan, PlanEntry } from "../engine/plan.js";
import type { JournalFacts } from "../engine/read-context.js";
import { runPlanWithLive } from "../engine/run-plan.js";
import { scopeState } from "../engine/scope.js";
import { kinds } from "../kinds/index.js";
import type { LiveObject } from "../kinds/kind.js";
import type { DesiredState } from "../manifest/types.js";
import { formatCount, plural } from "../render/style.js";
import type { ExecuteOptions } from "./apply-run.js";

/** What steps 1–4 settled: the plan, its graph, and what earlier runs left. */
export interface WalkInput {
  /** The journal file. */
  file: string;
  plan: Plan;
  targets: readonly string[];
  /** The entries to apply (those an interrupted run did are left out). */
  entries: PlanEntry[];
  graph: Graph;
  live: Map<string, LiveObject>;
  /** Actions an interrupted run did (carried into this run's journal). */
  carried: readonly string[];
  /** Queued jobs of earlier runs still open: their entries are held back. */
  open: InFlightJob[];
  previous: JournalData | undefined;
  facts: JournalFacts;
  /** How many of the plan's entries an interrupted run did. */
  alreadyDone: number;
}

/** Runs the plan's actions; a halt or a failure is in `x.result` and the exit code. */
export async function walk(x: ExecuteOptions, w: WalkInput): Promise<void> {
  const { api, apiUrl, state, ui, saved, result: outcome } = x;
  const { file, plan, targets, entries, graph, live, carried, open, previous, facts } = w;
  const held = new Map<string, string>();
  for (const j of open)
    held.set(
      nodeId({ action: j.action, key: j.key }),
      `its queued job ${j.queueId} from an earlier apply is still open; the next apply waits on it again (nothing was sent)`,
    );
  const journal = Journal.start(file, identity(plan, targets, saved?.file), {
    done: carried,
    sideEffects: sideEffectsOf(entries, previous?.owed ?? [], state),
    inFlight: open,
    unknown: unknownOf(entries, previous?.unknown ?? [], state),
  });
  let journalError: PhctlError | undefined;
  const reporter = (e: ApplyEvent) => {
    if (!journalError)
      try {
        journal.record(e);
      } catch (err) {
        journalError =
          err instanceof PhctlError ? err : new PhctlError("WRITE_FAILED", String(err));
      }
    ui(e);
  };
  const result = await runApply({
    api,
    entries,
    graph,
    live,
    reporter,
    alreadyDone: w.alreadyDone,
    preFailed: held,
    verify: { state, apiUrl },
    halted: () => {
      if (journalError)
        return `${journalError.message}; stopped starting actions so that nothing is sent that the journal cannot record — free the space (or fix the permissions) and run phctl apply again: it waits on the jobs recorded so far`;
      const outage = api.outage;
      if (outage) return outage.message;
      // Every later call would be refused too: no new action is started against it.
      const refused = api.refused;
      return refused
        ? `the service refused the token (401) on ${refused.operation ?? refused.pathTemplate}; stopped starting actions — set a valid token in PHCTL_TOKEN (or pass --token-file FILE) and run phctl apply again: it carries on from what was done`
        : undefined;
    },
    recheck: async (entry: PlanEntry) => {
      const again = await runPlanWithLive({
        api,
        state: scopeState(state, [entry.key]),
        apiUrl,
        facts,
        targets: [entry.key],
      });
      const left = again.plan.entries.find((e) => e.key === entry.key && isExecutable(e));
      if (!left) return undefined;
      const l = again.live.get(entry.key);
      return { entry: left, ...(l ? { live: l } : {}) };
    },
  });
  const failed = applyFailed(result.summary);
  if (failed) process.exitCode = 1;
  Object.assign(outcome, {
    status: result.summary.stopped !== undefined ? "stopped" : failed ? "failed" : "applied",
    done: result.summary.done,
    failed: result.summary.failed + result.summary.inconsistent,
    skipped: result.summary.skipped,
  });
  if (journalError)
    process.stderr.write(
      `phctl: ${journalError.message}: the apply stopped after ${plural(result.summary.done, "action")}; free the space (or fix the permissions) and run phctl apply again\n`,
    );
  if (result.summary.stopped !== undefined && !journalError)
    throw userError(
      "STOPPED",
      `the apply stopped${stoppedCounts(result.summary)}: ${result.summary.stopped}; ${plural(result.summary.done, "action")} ${result.summary.done === 1 ? "was" : "were"} done and ${result.summary.done === 1 ? "is" : "are"} recorded in ${file}. Run phctl apply again once that is fixed: it waits on the queued jobs recorded there and sends nothing twice`,
    );
}

/** ` with 26 actions failed and 32 skipped`: what the stop cost, said with its reason. */
function stoppedCounts(s: ApplySummary): string {
  const parts = [
    ...(s.failed > 0 ? [`${plural(s.failed, "action")} failed`] : []),
    ...(s.skipped > 0
      ? [`${s.failed > 0 ? formatCount(s.skipped) : plural(s.skipped, "action")} skipped`]
      : []),
  ];
  return parts.length > 0 ? ` with ${parts.join(" and ")}` : "";
}

const SIDE_EFFECT_KINDS = kinds.filter((k) => k.sideEffect);

/**
 * The side effects a run's journal keeps owed until done: those of its plan, and those
 * earlier runs owe that this plan does not carry (a --target elsewhere) while the manifests
 * still ask for them.
 */
function sideEffectsOf(
  entries: readonly PlanEntry[],
  owed: readonly PlanEntry[],
  state: DesiredState,
): PlanEntry[] {
  const names = new Set(SIDE_EFFECT_KINDS.map((k) => k.kind));
  const mine = entries.filter((e) => names.has(e.kind) && isExecutable(e));
  const planned = new Set(mine.map((e) => e.key));
  const wanted = new Set(SIDE_EFFECT_KINDS.flatMap((k) => k.desired(state).map((d) => d.key)));
  return [...mine, ...owed.filter((e) => !planned.has(e.key) && wanted.has(e.key))];
}

/**
 * The side effects of earlier runs whose outcome is unknown that the new journal keeps: those
 * the manifests still ask for and this plan does not carry out anew (a user made again).
 */
function unknownOf(
  entries: readonly PlanEntry[],
  unknown: readonly PlanEntry[],
  state: DesiredState,
): PlanEntry[] {
  const planned = new Set(entries.filter(isExecutable).map((e) => e.key));
  const wanted = new Set(SIDE_EFFECT_KINDS.flatMap((k) => k.desired(state).map((d) => d.key)));
  return unknown.filter((e) => !planned.has(e.key) && wanted.has(e.key));
}

/** What the journal records of the plan being applied. */
function identity(plan: Plan, targets: readonly string[], savedFile: string | undefined) {
  return {
    createdAt: plan.createdAt,
    apiUrl: plan.apiUrl,
    organization: plan.organization,
    digest: planDigest(plan.entries),
    // What a resumed run re-plans: the saved plan's keys, or the --target keys.
    targets: savedFile ? [...new Set(plan.entries.map((e) => e.key))] : [...targets],
    ...(savedFile ? { savedPlan: savedFile } : {}),
  };
}
