/**
 * What apply tells its reporter, as typed events (the engine never prints): the CLI picks
 * the human reporter (a live line and a summary) or the JSON one (a line per event); the
 * journal records the same events. Durations are milliseconds.
 */
import type { QueueKind } from "../api/route-def.js";
import type { Action, FieldChange } from "./plan.js";

/** Which entry an event is about. */
export interface EventTarget {
  /** `<action> <key>`: the graph node. */
  id: string;
  key: string;
  kind: string;
  action: Action;
}

/** A touched key whose re-read after apply still differs from the manifests. */
export interface Inconsistency {
  key: string;
  kind: string;
  /** What a new plan would still do. */
  action: Action;
  changes: FieldChange[];
  reason: string;
}

/** Counts of one apply run. */
export interface ApplySummary {
  done: number;
  failed: number;
  skipped: number;
  /** Entries that need a support ticket: listed, never sent. */
  ticket: number;
  /** Entries that cannot be reached: listed, never sent. */
  blocked: number;
  /** Keys whose re-read still differs from the manifests after apply. */
  inconsistent: number;
  /** Entries an interrupted run had done already (`--resume`): not sent again. */
  alreadyDone: number;
  durationMs: number;
  /** Why the run stopped starting actions (outage, journal not writable); their count is in skipped. */
  stopped?: string;
}

export type ApplyEvent =
  | { type: "apply-started"; total: number; ticket: number; blocked: number; alreadyDone: number }
  | ({ type: "action-started" } & EventTarget)
  /** A queued job is in flight: its id is known (and journaled) before anything waits on it. */
  | ({ type: "job-waiting"; queue: QueueKind; queueId: string; resumed: boolean } & EventTarget)
  | ({
      type: "job-done";
      queue: QueueKind;
      queueId: string;
      ok: boolean;
      message?: string;
    } & EventTarget)
  /**
   * `existed`: the create found its object already made by another writer. `note`: done
   * without a call, and why (a side effect another writer owes).
   */
  | ({ type: "action-done"; durationMs: number; existed?: true; note?: string } & EventTarget)
  /**
   * Once per run, at the first create that found its object made meanwhile by someone else:
   * another apply (or a person) is changing the same service at the same time.
   */
  | ({ type: "other-writer" } & EventTarget)
  | ({ type: "action-failed"; durationMs: number; message: string; code: string } & EventTarget)
  /** Not attempted: `root` is the key whose failure (or blocked/ticket create) it needed. */
  | ({ type: "action-skipped"; root: string; reason: string } & EventTarget)
  /** After apply, a touched key still differs (Terraform's "inconsistent result after apply"). */
  | ({ type: "inconsistent" } & Inconsistency)
  /** The re-read after apply could not be made; nothing is known to be wrong. */
  | { type: "verify-failed"; message: string }
  | { type: "apply-done"; summary: ApplySummary };

export type ApplyEventType = ApplyEvent["type"];

/** Receives every event, in order, synchronously. */
export type ApplyReporter = (e: ApplyEvent) => void;
