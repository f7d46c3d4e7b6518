/**
 * The apply journal as data: its lines (a header, then one change per line), replayed in
 * order into what the journal says (`JournalData`); `readJournal` reads a file. A torn last
 * line (a crash mid-write) is ignored; a damaged one is an error that says what to do.
 * Written by src/engine/journal.ts.
 */
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import type { QueueKind } from "../api/route-def.js";
import { PhctlError } from "../errors.js";
import { nodeId, type NodeId } from "./graph.js";
import type { Action, PlanEntry } from "./plan.js";

export const JOURNAL_FORMAT_VERSION = 4;
/**
 * Journals of these older formats are read too (2: no side effects; 3: no unknown ones). A
 * phctl of format 3 refuses a format-4 journal rather than misread its `unknown` lines.
 */
const READABLE_VERSIONS: readonly number[] = [2, 3, 4];

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
  /**
   * Side effects (welcome mails) planned and neither done nor unknown: every later plan
   * carries them.
   */
  owed: PlanEntry[];
  /**
   * Side effects whose request was being sent when the run ended (a kill between "about to
   * be sent" and "done"): the service may have carried them out. They are also `unknown`.
   */
  inDoubt: NodeId[];
  /**
   * Side effects the service may or may not have carried out: the answer to their request
   * was lost (a dropped connection, a timeout, a 5xx after sending), or the run ended while
   * it was out (`inDoubt`). Never sent again by phctl, never dropped silently: each plan
   * names them until a person says they are settled (`apply --welcome-sent`).
   */
  unknown: PlanEntry[];
}

/** The first line. */
export interface Header {
  journal: typeof JOURNAL_FORMAT_VERSION;
  plan: PlanIdentity;
  startedAt: string;
  /** What the interrupted runs this one resumes had done. */
  done: NodeId[];
  /** The side-effect entries of this run's plan (owed ones of earlier runs included). */
  sideEffects?: PlanEntry[];
  /** Jobs of earlier runs still open when this one started. */
  inFlight?: InFlightJob[];
  /** Side effects of earlier runs whose outcome is unknown (see JournalData.unknown). */
  unknown?: PlanEntry[];
}

/** Every later line: one change, and when. */
export type Line = { at: string } & (
  | { job: InFlightJob }
  | { jobDone: string }
  | { done: NodeId }
  | { sending: NodeId }
  /** A side effect whose answer was lost: it may or may not have been carried out. */
  | { unknown: NodeId; message: string }
  | { failed: NodeId; message: string }
  | { finished: true }
);

/** A short hash of what a plan does, to recognise it again. */
export function planDigest(entries: readonly PlanEntry[]): string {
  return createHash("sha256")
    .update(JSON.stringify(entries.map((e) => [e.action, e.key, e.after])))
    .digest("hex")
    .slice(0, 16);
}

/** The journal's state in memory: lines applied in order (in-flight jobs by queue id). */
export class Replay {
  status: JournalData["status"] = "running";
  updatedAt: string;
  readonly done: NodeId[];
  readonly failed: JournalData["failed"] = [];
  readonly inFlight = new Map<string, InFlightJob>();
  /** Queue ids in flight by node id (an action's done line drops its jobs without a scan). */
  private readonly jobsOf = new Map<NodeId, Set<string>>();
  readonly sending = new Set<NodeId>();
  /** Side effects whose outcome is unknown (header's, and `unknown` lines). */
  readonly unknown = new Set<NodeId>();

  constructor(readonly header: Header) {
    this.updatedAt = header.startedAt;
    this.done = [...header.done];
    for (const j of header.inFlight ?? []) this.addJob(j);
    for (const e of header.unknown ?? []) this.unknown.add(nodeId(e));
  }

  static of(data: JournalData): Replay {
    const r = new Replay({
      journal: JOURNAL_FORMAT_VERSION,
      plan: data.plan,
      startedAt: data.startedAt,
      done: data.done,
      sideEffects: data.owed,
      unknown: data.unknown,
    });
    r.status = data.status;
    r.updatedAt = data.updatedAt;
    r.failed.push(...data.failed);
    for (const id of data.inDoubt) r.sending.add(id);
    for (const j of data.inFlight) r.addJob(j);
    return r;
  }

  private addJob(j: InFlightJob): void {
    this.dropJob(j.queueId);
    this.inFlight.set(j.queueId, j);
    let ids = this.jobsOf.get(j.id);
    if (!ids) this.jobsOf.set(j.id, (ids = new Set()));
    ids.add(j.queueId);
  }

  private dropJob(queueId: string): boolean {
    const j = this.inFlight.get(queueId);
    if (!j) return false;
    this.inFlight.delete(queueId);
    const ids = this.jobsOf.get(j.id);
    ids?.delete(queueId);
    if (ids?.size === 0) this.jobsOf.delete(j.id);
    return true;
  }

  /** Apply a line; false when it changes nothing (and need not be written). */
  apply(line: Line): boolean {
    this.updatedAt = line.at;
    if ("job" in line) {
      if (this.inFlight.has(line.job.queueId)) return false;
      this.addJob(line.job);
    } else if ("jobDone" in line) {
      return this.dropJob(line.jobDone);
    } else if ("done" in line) {
      this.done.push(line.done);
      this.dropJobsOf(line.done);
      this.sending.delete(line.done);
      this.unknown.delete(line.done);
    } else if ("sending" in line) {
      this.sending.add(line.sending);
    } else if ("unknown" in line) {
      this.sending.delete(line.unknown);
      this.unknown.add(line.unknown);
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
    for (const queueId of this.jobsOf.get(id) ?? []) this.inFlight.delete(queueId);
    this.jobsOf.delete(id);
  }

  get data(): JournalData {
    const done = new Set(this.done);
    // Being sent when the journal was read (a killed run): unknown too, never owed.
    const unsure = new Set([...this.unknown, ...this.sending].filter((id) => !done.has(id)));
    const entries = new Map<NodeId, PlanEntry>();
    for (const e of [...(this.header.unknown ?? []), ...(this.header.sideEffects ?? [])])
      entries.set(nodeId(e), e);
    return {
      formatVersion: JOURNAL_FORMAT_VERSION,
      status: this.status,
      plan: this.header.plan,
      startedAt: this.header.startedAt,
      updatedAt: this.updatedAt,
      done: [...this.done],
      failed: [...this.failed],
      inFlight: [...this.inFlight.values()],
      owed: (this.header.sideEffects ?? []).filter(
        (e) => !done.has(nodeId(e)) && !unsure.has(nodeId(e)),
      ),
      inDoubt: [...this.sending].filter((id) => !done.has(id)),
      unknown: [...unsure].flatMap((id) => entries.get(id) ?? []),
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
