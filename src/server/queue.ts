/**
 * Queued jobs. A queued operation records a job (queue kind, action, payload) and answers
 * its id at once; after `queueDelayMs` the worker applies the job's effect in a transaction
 * and marks it completed, or failed with the effect's message. Reads see the effect only
 * once the job completed. Pending jobs survive a restart with a database file.
 */
import { randomUUID } from "node:crypto";
import type { QueueKind } from "../api/route-def.js";
import type { Db } from "./store/db.js";
import { isoNow } from "./store/db.js";

/** Thrown by an effect to fail its job with a message (the spec's `message`). */
export class JobFailure extends Error {}

export interface JobRow {
  id: string;
  queue: QueueKind;
  action: string;
  payload: string;
  status: "open" | "completed" | "failed";
  message: string | null;
  parent_org_id: number;
  created: string;
  due_ms: number;
  fail_message: string | null;
}

/** An effect applies a job; it may throw JobFailure (or any error) to fail it. */
export type JobEffect = (payload: Record<string, unknown>, job: JobRow) => void;

/** The status word each queue uses for a failed job. */
export const FAILED_WORD: Record<QueueKind, string> = {
  entitlement: "failed",
  orgTeam: "error",
  transfer: "failed",
  rename: "failed",
};

export interface OneShotJobFault {
  queue?: QueueKind;
  action?: string;
  message: string;
  /** Only a job of this parent organization (id); absent = any job. */
  parentOrgId?: number;
}

export class Queue {
  private readonly effects = new Map<string, JobEffect>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly jobFaults: OneShotJobFault[] = [];
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly delayMs: number,
    private readonly now: () => number,
  ) {}

  /** Register the effect of an action (e.g. "access.add"). */
  register(action: string, effect: JobEffect): void {
    this.effects.set(action, effect);
  }

  /** Make the next job matching `fault` fail with its message (tests). */
  failNext(fault: OneShotJobFault): void {
    this.jobFaults.push(fault);
  }

  /** Record a job; returns its queue id. Its effect runs after the queue delay. */
  enqueue(
    queue: QueueKind,
    action: string,
    payload: Record<string, unknown>,
    parentOrgId: number,
  ): string {
    if (!this.effects.has(action)) throw new Error(`no effect registered for job action ${action}`);
    const id = randomUUID();
    const i = this.jobFaults.findIndex(
      (f) =>
        (!f.queue || f.queue === queue) &&
        (!f.action || f.action === action) &&
        (f.parentOrgId === undefined || f.parentOrgId === parentOrgId),
    );
    const failMessage = i >= 0 ? this.jobFaults.splice(i, 1)[0].message : null;
    const due = this.now() + this.delayMs;
    this.db.run(
      `INSERT INTO jobs (id, queue, action, payload, status, message, parent_org_id, created, due_ms, fail_message)
       VALUES (?, ?, ?, ?, 'open', NULL, ?, ?, ?, ?)`,
      id,
      queue,
      action,
      JSON.stringify(payload),
      parentOrgId,
      isoNow(this.now()),
      due,
      failMessage,
    );
    this.schedule(id, this.delayMs);
    return id;
  }

  /** A job as stored, or undefined. */
  get(id: string): JobRow | undefined {
    return this.db.get<JobRow>("SELECT * FROM jobs WHERE id = ?", id);
  }

  /** The status word to show for a job: open, inprogress (rename, after half the delay), completed, failed/error. */
  displayStatus(job: JobRow): string {
    if (job.status === "failed") return FAILED_WORD[job.queue];
    if (
      job.status === "open" &&
      job.queue === "rename" &&
      this.now() >= job.due_ms - this.delayMs / 2
    )
      return "inprogress";
    return job.status;
  }

  /** Jobs still open, of every parent organization or of one (id) (`--resume` tests, /_control). */
  openJobs(parentOrgId?: number): JobRow[] {
    return parentOrgId === undefined
      ? this.db.all<JobRow>("SELECT * FROM jobs WHERE status = 'open' ORDER BY due_ms")
      : this.db.all<JobRow>(
          "SELECT * FROM jobs WHERE status = 'open' AND parent_org_id = ? ORDER BY due_ms",
          parentOrgId,
        );
  }

  /** Schedule every open job (after a restart with a database file). */
  resumePending(): void {
    for (const j of this.openJobs()) this.schedule(j.id, Math.max(0, j.due_ms - this.now()));
  }

  /** Run every open job now, or those of one parent organization (tests that do not want to wait). */
  drain(parentOrgId?: number): void {
    for (const j of this.openJobs(parentOrgId)) this.run(j.id);
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private schedule(id: string, delay: number): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.closed) this.run(id);
    }, delay);
    t.unref();
    this.timers.add(t);
  }

  private run(id: string): void {
    const job = this.get(id);
    if (!job || job.status !== "open") return;
    const finish = (status: "completed" | "failed", message: string | null) =>
      this.db.run("UPDATE jobs SET status = ?, message = ? WHERE id = ?", status, message, id);
    if (job.fail_message !== null) {
      finish("failed", job.fail_message);
      return;
    }
    const effect = this.effects.get(job.action);
    try {
      this.db.tx(() => {
        effect!(JSON.parse(job.payload) as Record<string, unknown>, job);
        finish("completed", null);
      });
    } catch (e) {
      finish("failed", e instanceof Error ? e.message : String(e));
    }
  }
}

/** The `{code: 201, description, queueid}` answer of a queued operation. */
export function accepted(queueid: string, description: string) {
  return { code: 201, description, queueid };
}
