/**
 * The apply journal, `.phctl/journal.jsonl`: which plan is being applied, the actions done,
 * and the queued jobs in flight (queue and id, recorded the moment the API answered them).
 * It is append-only JSON Lines — a header line, then one line per event that changes it —
 * so a killed apply leaves a journal that says what was sent, and an apply of 20,000
 * actions writes 2 MB in all rather than rewriting a growing file after every action.
 *
 * What must survive a kill is written synchronously before the apply goes on: a queued
 * job's id, a side effect (welcome mail) about to be sent, done, or unknown (its answer was
 * lost: send-unknown.ts), the end of the run.
 * Lines whose loss costs nothing — an object done or failed (the next plan re-reads it), a
 * job ended (the next apply asks its status once more) — are written in batches: with the
 * next synchronous line, after at most `BATCH_MS`, or at exit — a few writes a second
 * instead of one per action. The line format and its replay: journal-replay.ts. `apply --resume`
 * waits on the jobs in flight with `waitForJob` — never sending their requests again — and
 * leaves out what is done. The values it holds are masked (src/secrets.ts): the side-effect
 * entries it carries serve their keys, never their values.
 */
import { closeSync, mkdirSync, openSync, renameSync, writeFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { ApiClient } from "../api/client.js";
import { JobFailedError } from "../api/errors.js";
import { PhctlError } from "../errors.js";
import { redact, redactValue } from "../secrets.js";
import type { ApplyEvent, ApplyReporter } from "./apply-events.js";
import { nodeId, type NodeId } from "./graph.js";
import {
  JOURNAL_FORMAT_VERSION,
  Replay,
  type Header,
  type InFlightJob,
  type JournalData,
  type Line,
  type PlanIdentity,
} from "./journal-replay.js";
import type { PlanEntry } from "./plan.js";
import { SEND_UNKNOWN } from "./send-unknown.js";

export {
  JOURNAL_FORMAT_VERSION,
  planDigest,
  readJournal,
  type InFlightJob,
  type JournalData,
  type PlanIdentity,
} from "./journal-replay.js";

/** How long a line whose loss costs nothing may wait for its batch, ms. */
export const BATCH_MS = 50;

/** Journals with lines waiting to be written, flushed at exit whatever happens. */
const unflushed = new Set<Journal>();
let exitHook = false;

/** A journal being written: `start` a new one, or continue an interrupted run's. */
export class Journal {
  private readonly replay: Replay;
  private fd: number | undefined;
  /** Node ids of the side effects this run owes (their start is journaled too). */
  private readonly sideEffects: ReadonlySet<NodeId>;
  /** Lines not written yet (their loss costs nothing: see the file's comment). */
  private pending = "";
  /** A failed batch write, thrown by the next `record()`. */
  private failure: PhctlError | undefined;

  constructor(
    readonly file: string,
    data: JournalData,
  ) {
    this.replay = Replay.of(data);
    this.sideEffects = new Set(data.owed.map(nodeId));
  }

  /**
   * A new journal for a run of `plan`. `carry` is what it inherits: the actions resumed runs
   * already did, the side-effect entries of this plan (owed ones included: they stay owed
   * until done), the side effects of earlier runs whose outcome is unknown, and jobs of
   * earlier runs nobody saw end.
   */
  static start(
    file: string,
    plan: PlanIdentity,
    carry: {
      done?: readonly NodeId[];
      sideEffects?: readonly PlanEntry[];
      inFlight?: readonly InFlightJob[];
      unknown?: readonly PlanEntry[];
    } = {},
  ): Journal {
    const header: Header = {
      journal: JOURNAL_FORMAT_VERSION,
      plan,
      startedAt: new Date().toISOString(),
      done: [...(carry.done ?? [])],
      ...(carry.sideEffects?.length ? { sideEffects: [...carry.sideEffects] } : {}),
      ...(carry.inFlight?.length ? { inFlight: [...carry.inFlight] } : {}),
      ...(carry.unknown?.length ? { unknown: [...carry.unknown] } : {}),
    };
    // Replaces the previous run's journal at once (temp file + rename).
    writeOrFail(file, () => {
      mkdirSync(dirname(file), { recursive: true });
      const tmp = `${file}.tmp-${process.pid}`;
      writeFileSync(tmp, `${JSON.stringify(maskedHeader(header))}\n`);
      renameSync(tmp, file);
    });
    return new Journal(file, new Replay(header).data);
  }

  get data(): JournalData {
    return this.replay.data;
  }

  /**
   * Record an event; a line is appended when the event changes the journal (at once, or
   * with the next batch). Throws a `WRITE_FAILED` PhctlError when the journal cannot be
   * written (this line, or a batch before it).
   */
  record(e: ApplyEvent): void {
    if (this.failure) throw this.failure;
    const at = new Date().toISOString();
    let line: Line;
    switch (e.type) {
      case "job-waiting":
        line = {
          at,
          job: {
            id: e.id,
            key: e.key,
            kind: e.kind,
            action: e.action,
            queue: e.queue,
            queueId: e.queueId,
            since: at,
          },
        };
        break;
      case "job-done":
        line = { at, jobDone: e.queueId };
        break;
      case "action-done":
        line = { at, done: e.id };
        break;
      case "action-failed":
        // A side effect whose answer was lost: neither owed (never sent again) nor done.
        line =
          e.code === SEND_UNKNOWN && this.sideEffects.has(e.id)
            ? { at, unknown: e.id, message: e.message }
            : { at, failed: e.id, message: e.message };
        break;
      case "action-started":
        // Only side effects: an object's create is confirmed by reading, a mail is not.
        if (!this.sideEffects.has(e.id)) return;
        line = { at, sending: e.id };
        break;
      case "apply-done":
        line = { at, finished: true };
        break;
      case "apply-started":
      case "other-writer":
      case "action-skipped":
      case "inconsistent":
      case "verify-failed":
        return;
    }
    // Must survive a kill: a job's id, a side effect's start and end, the run's end.
    const now =
      "job" in line ||
      "sending" in line ||
      "unknown" in line ||
      "finished" in line ||
      ("done" in line && this.sideEffects.has(line.done)) ||
      ("failed" in line && this.sideEffects.has(line.failed));
    this.append(line, now);
  }

  /**
   * Side effects a person says are settled (`apply --welcome-sent`): recorded done at once,
   * so that no later plan names them, whether this run applies anything or not.
   */
  settle(ids: readonly NodeId[]): void {
    for (const id of ids) this.append({ at: new Date().toISOString(), done: id }, true);
  }

  /** Mark the run finished (nothing was left to do). */
  finish(): void {
    this.append({ at: new Date().toISOString(), finished: true }, true);
  }

  /** Write the lines waiting for a batch now. */
  flush(): void {
    if (this.pending === "") return;
    const text = this.pending;
    this.pending = "";
    unflushed.delete(this);
    this.write(text);
  }

  private append(line: Line, now: boolean): void {
    if (!this.replay.apply(line)) return;
    // A failure's message may quote a live value: masked, as in every file phctl writes.
    const text = `${JSON.stringify("message" in line ? { ...line, message: redact(line.message) } : line)}\n`;
    if (now) {
      const all = this.pending + text;
      this.pending = "";
      unflushed.delete(this);
      this.write(all);
      return;
    }
    if (this.pending === "") {
      unflushed.add(this);
      if (!exitHook) {
        exitHook = true;
        process.once("exit", () => {
          for (const j of unflushed) j.flushQuietly();
        });
      }
      setTimeout(() => this.flushQuietly(), BATCH_MS).unref();
    }
    this.pending += text;
  }

  /** A batch written outside `record()`: a failure is kept for the next `record()`. */
  private flushQuietly(): void {
    try {
      this.flush();
    } catch (e) {
      this.failure ??= e as PhctlError;
    }
  }

  private write(text: string): void {
    writeOrFail(this.file, () => {
      // One descriptor for the run (closed when it finishes; a killed process closes it).
      this.fd ??= openSync(this.file, "a");
      writeSync(this.fd, text);
      if (this.replay.status === "finished") {
        closeSync(this.fd);
        this.fd = undefined;
      }
    });
  }
}

/**
 * The header as written: the side-effect entries' values masked (src/secrets.ts). Keys and
 * node ids stay as they are: a resumed run matches them with its plan's.
 */
function maskedHeader(h: Header): Header {
  const masked = (e: PlanEntry): PlanEntry => ({
    ...e,
    ...redactValue({ before: e.before, after: e.after, changes: e.changes, reason: e.reason }),
    ...(e.ticket ? { ticket: redactValue(e.ticket) } : {}),
    ...(e.warnings ? { warnings: redactValue(e.warnings) } : {}),
  });
  return {
    ...h,
    ...(h.sideEffects ? { sideEffects: h.sideEffects.map(masked) } : {}),
    ...(h.unknown ? { unknown: h.unknown.map(masked) } : {}),
  };
}

function writeOrFail(file: string, write: () => void): void {
  try {
    write();
  } catch (e) {
    throw new PhctlError(
      "WRITE_FAILED",
      `cannot write the journal ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
    );
  }
}

/** What waiting on an earlier run's jobs found. */
export interface SettledJobs {
  /** Node ids whose job failed → why (the fresh plan decides what to do about them). */
  failed: Map<NodeId, string>;
  /** Jobs still open when the wait gave up (timeout, outage): never sent again, carried on. */
  open: InFlightJob[];
}

/**
 * Wait for the jobs earlier runs left in flight (never re-sending their requests),
 * recording each end in that run's journal.
 */
export async function settleJobs(
  api: ApiClient,
  journal: Journal,
  reporter: ApplyReporter,
): Promise<SettledJobs> {
  const failed = new Map<NodeId, string>();
  const open: InFlightJob[] = [];
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
        if (!(e instanceof JobFailedError)) {
          open.push(j);
          return;
        }
        const message = `queued job ${j.queueId} of an earlier apply: ${e.message}`;
        failed.set(j.id, message);
        emit({ type: "job-done", ...t, queue: j.queue, queueId: j.queueId, ok: false, message });
      }
    }),
  );
  // Before a new run's journal replaces this one's file.
  journal.flush();
  return { failed, open };
}
