/**
 * The apply journal, `.phctl/journal.json`: which plan is being applied, the actions done,
 * and the queued jobs in flight (queue and id, recorded the moment the API answered them).
 * It is rewritten atomically (temp file + rename) after every event that changes it, so a
 * killed apply leaves a journal that says exactly what was sent. `apply --resume` waits on
 * the jobs in flight with `waitForJob` — never sending their requests again — and leaves
 * out what is done.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import type { ApiClient } from "../api/client.js";
import type { QueueKind } from "../api/route-def.js";
import { PhctlError } from "../errors.js";
import type { ApplyEvent, ApplyReporter } from "./apply-events.js";
import type { NodeId } from "./graph.js";
import type { Action, PlanEntry } from "./plan.js";

export const JOURNAL_FORMAT_VERSION = 1;

/** Which plan a journal belongs to. */
export interface PlanIdentity {
  createdAt: string;
  /** The plan's apiUrl ("embedded" for the embedded server). */
  apiUrl: string;
  organization: string;
  /** Hash of the entries (action, key, after). */
  digest: string;
  /** `--target` keys, or the keys of a saved plan: what a resumed run re-plans. */
  targets: string[];
  /** The saved plan file applied, if any. */
  savedPlan?: string;
}

export interface InFlightJob {
  id: NodeId;
  key: string;
  kind: string;
  action: Action;
  queue: QueueKind;
  queueId: string;
  since: string;
}

export interface JournalData {
  formatVersion: typeof JOURNAL_FORMAT_VERSION;
  status: "running" | "finished";
  plan: PlanIdentity;
  startedAt: string;
  updatedAt: string;
  /** Node ids (`<action> <key>`) done, by this run or the interrupted runs it resumed. */
  done: NodeId[];
  failed: { id: NodeId; message: string }[];
  inFlight: InFlightJob[];
}

export const journalPath = (cwd: string = process.cwd()): string =>
  join(cwd, ".phctl", "journal.json");

/** A short hash of what a plan does, to recognise it again. */
export function planDigest(entries: readonly PlanEntry[]): string {
  return createHash("sha256")
    .update(JSON.stringify(entries.map((e) => [e.action, e.key, e.after])))
    .digest("hex")
    .slice(0, 16);
}

/** The journal in `file`, or undefined when there is none. */
export function readJournal(file: string): JournalData | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new PhctlError("READ_FAILED", `cannot read ${file}: ${(e as Error).message}`);
  }
  try {
    const data = JSON.parse(text) as JournalData;
    if (data.formatVersion !== JOURNAL_FORMAT_VERSION || !Array.isArray(data.inFlight))
      throw new Error("not a phctl journal");
    return data;
  } catch (e) {
    throw new PhctlError(
      "BAD_JOURNAL",
      `${file} is not a journal phctl can read (${(e as Error).message}); remove it to start afresh`,
    );
  }
}

function writeAtomically(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

export class Journal {
  constructor(
    readonly file: string,
    private readonly state: JournalData,
  ) {}

  /** A new journal for a run of `plan`; `done` carries what resumed runs already did. */
  static start(file: string, plan: PlanIdentity, done: readonly NodeId[] = []): Journal {
    const at = new Date().toISOString();
    const j = new Journal(file, {
      formatVersion: JOURNAL_FORMAT_VERSION,
      status: "running",
      plan,
      startedAt: at,
      updatedAt: at,
      done: [...done],
      failed: [],
      inFlight: [],
    });
    j.save();
    return j;
  }

  get data(): Readonly<JournalData> {
    return this.state;
  }

  /** Record an event; the file is rewritten when the event changes it. */
  record(e: ApplyEvent): void {
    const s = this.state;
    switch (e.type) {
      case "job-waiting":
        if (s.inFlight.some((j) => j.queueId === e.queueId)) return;
        s.inFlight.push({
          id: e.id,
          key: e.key,
          kind: e.kind,
          action: e.action,
          queue: e.queue,
          queueId: e.queueId,
          since: new Date().toISOString(),
        });
        break;
      case "job-done":
        s.inFlight = s.inFlight.filter((j) => j.queueId !== e.queueId);
        break;
      case "action-done":
        s.done.push(e.id);
        s.inFlight = s.inFlight.filter((j) => j.id !== e.id);
        break;
      case "action-failed":
        s.failed.push({ id: e.id, message: e.message });
        s.inFlight = s.inFlight.filter((j) => j.id !== e.id);
        break;
      case "apply-done":
        s.status = "finished";
        break;
      case "apply-started":
      case "action-started":
      case "action-skipped":
      case "inconsistent":
      case "verify-failed":
        return;
    }
    this.save();
  }

  /** Mark the run finished (nothing was left to do). */
  finish(): void {
    this.state.status = "finished";
    this.save();
  }

  private save(): void {
    this.state.updatedAt = new Date().toISOString();
    try {
      writeAtomically(this.file, `${JSON.stringify(this.state)}\n`);
    } catch (e) {
      throw new PhctlError(
        "WRITE_FAILED",
        `cannot write the journal ${this.file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
      );
    }
  }
}

/** What waiting on an interrupted run's jobs found: node ids whose job failed → why. */
export type ResumedFailures = Map<NodeId, string>;

/**
 * Wait for the jobs an interrupted run left in flight (never re-sending their requests),
 * recording each end in that run's journal. Resolves to the failed ones.
 */
export async function resumeJobs(
  api: ApiClient,
  journal: Journal,
  reporter: ApplyReporter,
): Promise<ResumedFailures> {
  const failures: ResumedFailures = new Map();
  const emit = (e: ApplyEvent) => {
    journal.record(e);
    reporter(e);
  };
  await Promise.all(
    journal.data.inFlight.map(async (j) => {
      const t = { id: j.id, key: j.key, kind: j.kind, action: j.action };
      emit({ type: "job-waiting", ...t, queue: j.queue, queueId: j.queueId, resumed: true });
      try {
        await api.waitForJob(j.queue, j.queueId);
        emit({ type: "job-done", ...t, queue: j.queue, queueId: j.queueId, ok: true });
      } catch (e) {
        const message = `queued job ${j.queueId} of the interrupted apply: ${e instanceof Error ? e.message : String(e)}`;
        failures.set(j.id, message);
        emit({ type: "job-done", ...t, queue: j.queue, queueId: j.queueId, ok: false, message });
      }
    }),
  );
  return failures;
}
