/**
 * Apply's reporters. The human one keeps a live line on a terminal (done/total, in flight,
 * waiting on jobs, failures), prints failures as they happen (and, without a terminal, one
 * line per finished action), and ends with a summary: done / failed / skipped / ticket /
 * blocked, with durations. The JSON one (CI=true or --json) prints one line per event.
 * The text is built by pure functions (`liveLine`, `summaryLines`); the classes only
 * keep counts and write.
 */
import type { ApplyEvent, ApplySummary } from "../engine/apply-events.js";
import type { Inconsistency } from "../engine/verify.js";
import type { PlanEntry } from "../engine/plan.js";
import { PLAIN, type Style } from "./style.js";

/** `450 ms`, `12.3 s`, `2 m 05 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} m ${String(s % 60).padStart(2, "0")} s`;
}

/** Counts the live line shows. */
export interface Progress {
  total: number;
  done: number;
  failed: number;
  skipped: number;
  inFlight: number;
  waitingOnJobs: number;
  elapsedMs: number;
}

export function liveLine(p: Progress, style: Style = PLAIN): string {
  const parts = [
    `${p.done + p.failed + p.skipped}/${p.total} done`,
    `${p.inFlight} in flight`,
    `${p.waitingOnJobs} waiting on jobs`,
  ];
  if (p.failed > 0) parts.push(style.red(`${p.failed} failed`));
  if (p.skipped > 0) parts.push(`${p.skipped} skipped`);
  return `apply: ${parts.join(" · ")} · ${formatDuration(p.elapsedMs)}`;
}

/** One line for people: `project/x (Project): a new plan still has update: title "a" → "b"`. */
export function describeInconsistency(i: Inconsistency): string {
  const what =
    i.changes.length > 0
      ? i.changes
          .map((c) => `${c.field} ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`)
          .join(", ")
      : i.reason;
  return `inconsistent result after apply: ${i.key} (${i.kind}): a new plan still has ${i.action}: ${what}`;
}

/** What the summary lists besides the counts. */
export interface SummaryFacts {
  failures: { id: string; message: string; durationMs: number }[];
  /** Skipped ids by the root they needed. */
  skipped: Map<string, string[]>;
  /** Finished actions, for the slowest ones. */
  durations: { id: string; durationMs: number }[];
  /** Ticket and blocked entries of the plan (never sent). */
  notSent: readonly PlanEntry[];
  inconsistencies: Inconsistency[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function capped(lines: string[], max: number, what: string): string[] {
  return lines.length > max
    ? [...lines.slice(0, max), `    … and ${lines.length - max} more ${what}`]
    : lines;
}

export function summaryLines(s: ApplySummary, f: SummaryFacts, style: Style = PLAIN): string[] {
  const bad = s.failed > 0 || s.inconsistent > 0 || s.stopped !== undefined;
  const title =
    s.stopped !== undefined
      ? style.red("Apply stopped")
      : bad
        ? style.red("Apply finished with errors")
        : style.green("Apply complete");
  const counts = [
    `${s.done} done`,
    `${s.failed} failed`,
    `${s.skipped} skipped`,
    `${plural(s.ticket, "ticket")} and ${s.blocked} blocked not sent`,
  ];
  if (s.inconsistent > 0) counts.push(`${s.inconsistent} inconsistent`);
  if (s.alreadyDone > 0) counts.push(`${s.alreadyDone} done by the interrupted apply`);
  const out = [`${title}: ${counts.join(", ")} (${formatDuration(s.durationMs)}).`];
  for (const x of f.failures)
    out.push(`  ${style.red("failed")}   ${x.id} (${formatDuration(x.durationMs)}): ${x.message}`);
  const some = (ids: string[]) => `${ids.slice(0, 5).join(", ")}${ids.length > 5 ? ", …" : ""}`;
  for (const [root, ids] of f.skipped)
    out.push(
      root === ""
        ? `  ${style.red("stopped")}  ${plural(ids.length, "action")} not started (${some(ids)}): ${s.stopped ?? "the run stopped"}`
        : `  skipped  ${plural(ids.length, "action")} that needed ${root}: ${some(ids)}`,
    );
  out.push(
    ...capped(
      f.notSent.map((e) =>
        e.action === "ticket"
          ? `  ticket   ${e.key}: ${e.ticket?.subject ?? e.reason} (open the support ticket shown in the plan)`
          : `  blocked  ${e.key}: ${e.blocked?.reason ?? e.reason}`,
      ),
      10,
      "ticket and blocked entries",
    ),
  );
  for (const i of f.inconsistencies)
    out.push(`  ${style.red("error")}    ${describeInconsistency(i)}`);
  const slowest = [...f.durations].sort((a, b) => b.durationMs - a.durationMs).slice(0, 3);
  if (slowest.length > 0 && s.done > 3)
    out.push(
      `  slowest  ${slowest.map((d) => `${d.id} ${formatDuration(d.durationMs)}`).join(", ")}`,
    );
  return out;
}

export interface HumanReporterOptions {
  /** Lines for the record (stdout). */
  out: (text: string) => void;
  /** The live line's terminal (stderr), or undefined without a terminal. */
  tty?: (text: string) => void;
  style?: Style;
  notSent?: readonly PlanEntry[];
  now?: () => number;
}

/** Counts and facts from events; prints as described at the top. */
export class HumanReporter {
  private readonly style: Style;
  private readonly now: () => number;
  private started = 0;
  private total = 0;
  private readonly running = new Set<string>();
  private readonly waiting = new Map<string, Set<string>>();
  private readonly facts: SummaryFacts;
  private done = 0;
  private failed = 0;
  private skipped = 0;
  private timer: NodeJS.Timeout | undefined;
  private lineShown = false;

  constructor(private readonly o: HumanReporterOptions) {
    this.style = o.style ?? PLAIN;
    this.now = o.now ?? (() => performance.now());
    this.facts = {
      failures: [],
      skipped: new Map(),
      durations: [],
      notSent: o.notSent ?? [],
      inconsistencies: [],
    };
  }

  /** The plan's ticket and blocked entries, listed in the summary (known after planning). */
  set notSent(entries: readonly PlanEntry[]) {
    this.facts.notSent = entries;
  }

  readonly event = (e: ApplyEvent): void => {
    switch (e.type) {
      case "apply-started":
        this.started = this.now();
        this.total = e.total;
        break;
      case "action-started":
        this.running.add(e.id);
        break;
      case "job-waiting":
        this.waiting.set(e.id, (this.waiting.get(e.id) ?? new Set()).add(e.queueId));
        if (e.resumed)
          this.print(
            `waiting on ${e.queue} job ${e.queueId} of ${e.id} (left open by an earlier apply)`,
          );
        break;
      case "job-done":
        this.waiting.get(e.id)?.delete(e.queueId);
        break;
      case "action-done":
        this.end(e.id);
        this.done++;
        this.facts.durations.push({ id: e.id, durationMs: e.durationMs });
        if (!this.o.tty) this.print(`done     ${e.id} (${formatDuration(e.durationMs)})`);
        break;
      case "action-failed":
        this.end(e.id);
        this.failed++;
        this.facts.failures.push({ id: e.id, message: e.message, durationMs: e.durationMs });
        this.print(`${this.style.red("failed")}   ${e.id}: ${e.message}`);
        break;
      case "action-skipped":
        this.skipped++;
        this.facts.skipped.set(e.root, [...(this.facts.skipped.get(e.root) ?? []), e.id]);
        // Actions a halted run never started are counted in the summary, not listed one by one.
        if (!this.o.tty && e.root !== "") this.print(`skipped  ${e.id} (${e.reason})`);
        break;
      case "inconsistent":
        this.facts.inconsistencies.push(e);
        this.print(`${this.style.red("error")}    ${describeInconsistency(e)}`);
        break;
      case "verify-failed":
        this.print(`${this.style.yellow("warning")}  ${e.message}`);
        break;
      case "apply-done":
        this.stopLine();
        for (const l of summaryLines(e.summary, this.facts, this.style)) this.o.out(`${l}\n`);
        return;
    }
    this.scheduleLine();
  };

  private end(id: string): void {
    this.running.delete(id);
    this.waiting.delete(id);
  }

  /** A line for the record: the live line is cleared first and redrawn after. */
  private print(line: string): void {
    if (this.o.tty && this.lineShown) {
      this.o.tty("\r\u001b[2K");
      this.lineShown = false;
    }
    this.o.out(`${line}\n`);
  }

  progress(): Progress {
    let waitingOnJobs = 0;
    for (const s of this.waiting.values()) if (s.size > 0) waitingOnJobs++;
    return {
      total: this.total,
      done: this.done,
      failed: this.failed,
      skipped: this.skipped,
      inFlight: this.running.size,
      waitingOnJobs,
      elapsedMs: this.now() - this.started,
    };
  }

  private scheduleLine(): void {
    if (!this.o.tty || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.drawLine();
    }, 100);
    this.timer.unref();
  }

  private drawLine(): void {
    if (!this.o.tty) return;
    this.o.tty(`\r\u001b[2K${liveLine(this.progress(), this.style)}`);
    this.lineShown = true;
  }

  private stopLine(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.o.tty && this.lineShown) this.o.tty("\r\u001b[2K");
    this.lineShown = false;
  }
}

/** One JSON object per event and line (`{"event":"action-done","time":…,…}`). */
export function jsonEventLine(e: ApplyEvent, time: Date = new Date()): string {
  const { type, ...rest } = e;
  return JSON.stringify({ event: type, time: time.toISOString(), ...rest });
}

export class JsonReporter {
  constructor(private readonly write: (text: string) => void) {}
  readonly event = (e: ApplyEvent): void => this.write(`${jsonEventLine(e)}\n`);
}
