/**
 * After `phctl drift` has its plan (or failed to make one): keep the tracking issues (the
 * drift issue, then the expiry issue), post the notifications, write the state and metrics
 * files — each as the flags ask, in that order (the message links the drift issue). Nothing here changes the exit code: every failure is one
 * line through `say`, naming what failed with the platform's own message, and the run goes
 * on with the next output. The previous state (for "recovered" and "changed") comes from
 * the issue when one was reported, else from the state file.
 */
import type { Plan } from "../engine/plan.js";
import { detectContext } from "../ci/platform.js";
import { DEFAULT_WARN_DAYS } from "../expiry/index.js";
import { writeAtomically } from "../fs/write-atomically.js";
import { VERSION } from "../version.js";
import { driftChanged, driftDigests, type DriftDigests } from "./digest.js";
import { reportRun } from "./issue-run.js";
import { renderMetrics } from "./metrics.js";
import {
  messageText,
  postAll,
  shouldNotify,
  type DriftMessage,
  type NotifyStatus,
} from "./notify.js";
import type { DriftOutputs } from "./options.js";
import type { ReportResult } from "./report.js";
import { readKeyState, writeKeyState } from "./state.js";
import { countsOf, type DriftCounts } from "./summary.js";

export interface DeliverInput {
  outputs: DriftOutputs;
  /** Absent: the check failed (`error` says how). */
  plan?: Plan;
  error?: string;
  /** Date.now() when the command started. */
  started: number;
  /** "phctl apply examples", for the issue. */
  applyCommand: string;
  /** phctl.yaml's `expiry.warnDays`, for the expiry issue (default 14). */
  warnDays?: number;
  env: NodeJS.ProcessEnv;
  say: (line: string) => void;
  /** Secret redaction, applied to everything sent or written. */
  scrub: (s: string) => string;
}

/** The CI run's link, when phctl runs in CI (for the message). */
function runUrlOf(env: NodeJS.ProcessEnv): string | undefined {
  try {
    return detectContext(env).run?.url;
  } catch {
    return undefined;
  }
}

/** What a run knows about itself, for the message, the state and the metrics. */
interface RunFacts {
  time: string;
  counts?: DriftCounts;
  /** Of a drifted run. */
  digests?: DriftDigests;
  reported?: ReportResult;
}

/** What the last run of this key found; an earlier phctl's run under a former key counts. */
function lastState(o: DriftOutputs): ReturnType<typeof readKeyState> {
  const mine = readKeyState(o.stateFile, o.key);
  if (mine.state || mine.problem) return mine;
  for (const k of o.formerKeys ?? []) {
    const former = readKeyState(o.stateFile, k);
    if (former.state) return former;
  }
  return mine;
}

async function notify(i: DeliverInput, f: RunFacts): Promise<void> {
  const o = i.outputs;
  const last = f.reported ? undefined : lastState(o);
  if (last?.problem)
    i.say(
      `cannot read the drift state file ${o.stateFile} (${last.problem}): the last run's state is unknown`,
    );
  const previous = f.reported?.previous ?? last?.state?.status ?? "unknown";
  const status: NotifyStatus = !f.counts
    ? "error"
    : f.counts.total > 0
      ? "drift"
      : previous === "drift"
        ? "recovered"
        : "in-sync";
  const changed =
    f.reported?.changed ?? (last?.state ? driftChanged(last.state, f.digests ?? {}) : undefined);
  if (shouldNotify(status, o.heartbeat)) {
    const runUrl = runUrlOf(i.env);
    const issueUrl = f.reported?.issue?.url;
    const base: Omit<DriftMessage, "text"> = {
      status,
      key: o.key,
      ...(i.plan ? { organization: i.plan.organization } : {}),
      ...(f.counts ? { counts: f.counts } : {}),
      ...(status === "drift" && changed !== undefined ? { changed } : {}),
      previous,
      ...(issueUrl ? { issueUrl } : {}),
      ...(runUrl ? { runUrl } : {}),
      time: f.time,
      ...(i.plan ? { apiCalls: i.plan.stats.apiCalls } : {}),
      durationMs: Date.now() - i.started,
      ...(i.error ? { error: i.error } : {}),
      phctlVersion: VERSION,
    };
    const message = { ...base, text: messageText(base) };
    const sent = await postAll(o.notify, message, { timeoutMs: o.timeoutMs, scrub: i.scrub });
    for (const d of sent.filter((x) => !x.ok))
      i.say(
        `cannot notify ${d.webhook}: ${i.scrub(d.problem ?? "failed")}${d.attempts > 1 ? " (tried twice)" : ""}`,
      );
    const ok = sent.filter((d) => d.ok).length;
    if (ok > 0) i.say(`notified ${ok} webhook${ok === 1 ? "" : "s"} (${status})`);
  }
  if (!f.counts) return;
  try {
    const status = f.counts.total > 0 ? "drift" : "in-sync";
    writeKeyState(o.stateFile, o.key, {
      status,
      ...f.digests,
      time: f.time,
    });
  } catch (e) {
    i.say((e as Error).message);
  }
}

export async function deliver(i: DeliverInput): Promise<void> {
  const o = i.outputs;
  const plan = i.plan;
  const f: RunFacts = { time: plan?.createdAt ?? new Date().toISOString() };
  if (plan) {
    f.counts = countsOf(plan);
    if (plan.entries.length > 0) f.digests = driftDigests(plan.entries);
    if (o.report) {
      const r = await reportRun({
        ...i,
        platform: o.report,
        key: o.key,
        formerKeys: o.formerKeys,
        plan,
        warnDays: i.warnDays ?? DEFAULT_WARN_DAYS,
      });
      if (r) f.reported = r;
    }
  }
  if (o.notify.length > 0) await notify(i, f);
  if (o.metricsFile !== undefined) {
    const text = renderMetrics({
      key: o.key,
      time: new Date(f.time),
      durationMs: Date.now() - i.started,
      ...(f.counts ? { counts: f.counts } : {}),
      ...(plan ? { apiCalls: plan.stats.apiCalls } : {}),
    });
    try {
      writeAtomically(o.metricsFile, i.scrub(text));
    } catch (e) {
      i.say((e as Error).message);
    }
  }
}
