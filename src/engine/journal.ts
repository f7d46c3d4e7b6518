/**
 * The apply journal, `.phctl/journal.jsonl`: which plan is being applied, the actions done,
 * and the queued jobs in flight (queue and id, recorded the moment the API answered them).
 * It is append-only JSON Lines — a header line, then one line per event that changes it —
 * written synchronously before the apply goes on, so a killed apply leaves a journal that
 * says exactly what was sent, and an apply of 20,000 actions writes 2 MB in all rather than
 * rewriting a growing file after every action. A torn last line (a crash mid-write) is
 * ignored. `apply --resume` waits on the jobs in flight with `waitForJob` — never sending
 * their requests again — and leaves out what is done.
 */
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import type { ApiClient } from "../api/client.js";
import type { QueueKind } from "../api/route-def.js";
import { JobFailedError } from "../api/errors.js";
import { PhctlError } from "../errors.js";
import type { ApplyEvent, ApplyReporter } from "./apply-events.js";
import { nodeId, type NodeId } from "./graph.js";
import type { Action, PlanEntry } from "./plan.js";

export const JOURNAL_FORMAT_VERSION = 3;
/** Journals of this older format are read too (they carry no side effects). */
const READABLE_VERSIONS: readonly number[] = [2, 3];

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

/** What a journal says, replayed from its lines. */
export interface JournalData {
  formatVersion: typeof JOURNAL_FORMAT_VERSION;
  status: "running" | "finished";
  plan: PlanIdentity;
  startedAt: string;
  updatedAt: string;
  /** Node ids (`<action> <key>`) done, by this run or the interrupted runs it resumed. */
  done: NodeId[];
  failed: { id: NodeId; message: string }[];
  /**
   * Queued jobs whose end nobody saw: the run was killed, the wait timed out, or the service
   * went away. The next apply waits on them (never sending their requests again).
   */
  inFlight: InFlightJob[];
  /** Side effects (welcome mails) planned and not done: every later plan carries them. */
  owed: PlanEntry[];
  /**
   * Owed side effects that were being sent when the run ended: the service may have
   * carried them out (the answer was never recorded). Sending again may repeat them.
   */
  inDoubt: NodeId[];
}

/** The first line. */
interface Header {
  journal: typeof JOURNAL_FORMAT_VERSION;
  plan: PlanIdentity;
  startedAt: string;
  /** What the interrupted runs this one resumes had done. */
  done: NodeId[];
  /** The side-effect entries of this run's plan (owed ones of earlier runs included). */
  sideEffects?: PlanEntry[];
  /** Jobs of earlier runs still open when this one started. */
  inFlight?: InFlightJob[];
}

/** Every later line: one change, and when. */
type Line = { at: string } & (
  | { job: InFlightJob }
  | { jobDone: string }
  | { done: NodeId }
  | { sending: NodeId }
  | { failed: NodeId; message: string }
  | { finished: true }
);

export const journalPath = (cwd: string = process.cwd()): string =>
  join(cwd, ".phctl", "journal.jsonl");

/** A short hash of what a plan does, to recognise it again. */
export function planDigest(entries: readonly PlanEntry[]): string {
  return createHash("sha256")
    .update(JSON.stringify(entries.map((e) => [e.action, e.key, e.after])))
    .digest("hex")
    .slice(0, 16);
}

/** The journal's state in memory: lines applied in order (in-flight jobs by queue id). */
class Replay {
  status: JournalData["status"] = "running";
  updatedAt: string;
  readonly done: NodeId[];
  readonly failed: JournalData["failed"] = [];
  readonly inFlight = new Map<string, InFlightJob>();
  readonly sending = new Set<NodeId>();

  constructor(readonly header: Header) {
    this.updatedAt = header.startedAt;
    this.done = [...header.done];
    for (const j of header.inFlight ?? []) this.inFlight.set(j.queueId, j);
  }

  static of(data: JournalData): Replay {
    const r = new Replay({
      journal: JOURNAL_FORMAT_VERSION,
      plan: data.plan,
      startedAt: data.startedAt,
      done: data.done,
      sideEffects: data.owed,
    });
    r.status = data.status;
    r.updatedAt = data.updatedAt;
    r.failed.push(...data.failed);
    for (const id of data.inDoubt) r.sending.add(id);
    for (const j of data.inFlight) r.inFlight.set(j.queueId, j);
    return r;
  }

  /** Apply a line; false when it changes nothing (and need not be written). */
  apply(line: Line): boolean {
    this.updatedAt = line.at;
    if ("job" in line) {
      if (this.inFlight.has(line.job.queueId)) return false;
      this.inFlight.set(line.job.queueId, line.job);
    } else if ("jobDone" in line) {
      return this.inFlight.delete(line.jobDone);
    } else if ("done" in line) {
      this.done.push(line.done);
      this.dropJobsOf(line.done);
      this.sending.delete(line.done);
    } else if ("sending" in line) {
      this.sending.add(line.sending);
    } else if ("failed" in line) {
      // Its jobs stay in flight until a job-done line: a timed-out job may still complete.
      this.failed.push({ id: line.failed, message: line.message });
      // A side effect that failed with an answer was not carried out: no longer in doubt.
      this.sending.delete(line.failed);
    } else {
      this.status = "finished";
    }
    return true;
  }

  private dropJobsOf(id: NodeId): void {
    for (const [queueId, j] of this.inFlight) if (j.id === id) this.inFlight.delete(queueId);
  }

  get data(): JournalData {
    const done = new Set(this.done);
    return {
      formatVersion: JOURNAL_FORMAT_VERSION,
      status: this.status,
      plan: this.header.plan,
      startedAt: this.header.startedAt,
      updatedAt: this.updatedAt,
      done: [...this.done],
      failed: [...this.failed],
      inFlight: [...this.inFlight.values()],
      owed: (this.header.sideEffects ?? []).filter((e) => !done.has(nodeId(e))),
      inDoubt: [...this.sending].filter((id) => !done.has(id)),
    };
  }
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
  const lines = text.split("\n");
  // Complete lines end with a newline: what follows the last one is a torn write.
  lines.pop();
  try {
    const header = JSON.parse(lines[0] ?? "") as Header;
    if (!READABLE_VERSIONS.includes(header.journal) || !Array.isArray(header.done))
      throw new Error("not a phctl journal");
    const replay = new Replay(header);
    lines.slice(1).forEach((l, i) => {
      try {
        replay.apply(JSON.parse(l) as Line);
      } catch {
        throw new Error(`line ${i + 2} is not a journal line`);
      }
    });
    return replay.data;
  } catch (e) {
    throw new PhctlError(
      "BAD_JOURNAL",
      `${file} is not a journal phctl can read (${(e as Error).message}); remove it to start afresh — phctl then no longer knows the queued jobs and welcome mails it recorded, so move it aside and check those first`,
    );
  }
}

/** A journal being written: `start` a new one, or continue an interrupted run's. */
export class Journal {
  private readonly replay: Replay;
  private fd: number | undefined;
  /** Node ids of the side effects this run owes (their start is journaled too). */
  private readonly sideEffects: ReadonlySet<NodeId>;

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
   * until done), and jobs of earlier runs nobody saw end.
   */
  static start(
    file: string,
    plan: PlanIdentity,
    carry: {
      done?: readonly NodeId[];
      sideEffects?: readonly PlanEntry[];
      inFlight?: readonly InFlightJob[];
    } = {},
  ): Journal {
    const header: Header = {
      journal: JOURNAL_FORMAT_VERSION,
      plan,
      startedAt: new Date().toISOString(),
      done: [...(carry.done ?? [])],
      ...(carry.sideEffects?.length ? { sideEffects: [...carry.sideEffects] } : {}),
      ...(carry.inFlight?.length ? { inFlight: [...carry.inFlight] } : {}),
    };
    // Replaces the previous run's journal at once (temp file + rename).
    writeOrFail(file, () => {
      mkdirSync(dirname(file), { recursive: true });
      const tmp = `${file}.tmp-${process.pid}`;
      writeFileSync(tmp, `${JSON.stringify(header)}\n`);
      renameSync(tmp, file);
    });
    return new Journal(file, new Replay(header).data);
  }

  get data(): JournalData {
    return this.replay.data;
  }

  /** Record an event; a line is appended when the event changes the journal. */
  record(e: ApplyEvent): void {
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
        line = { at, failed: e.id, message: e.message };
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
      case "action-skipped":
      case "inconsistent":
      case "verify-failed":
        return;
    }
    this.append(line);
  }

  /** Mark the run finished (nothing was left to do). */
  finish(): void {
    this.append({ at: new Date().toISOString(), finished: true });
  }

  private append(line: Line): void {
    if (!this.replay.apply(line)) return;
    writeOrFail(this.file, () => {
      // One descriptor for the run (closed when it finishes; a killed process closes it).
      this.fd ??= openSync(this.file, "a");
      writeSync(this.fd, `${JSON.stringify(line)}\n`);
      if (this.replay.status === "finished") {
        closeSync(this.fd);
        this.fd = undefined;
      }
    });
  }
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
  return { failed, open };
}
