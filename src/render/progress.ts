/**
 * Apply's reporters. The human one keeps a live line on a terminal (done/total, requests
 * running, actions waiting on queued jobs, requests queued, failures — fitted to the width,
 * redrawn in place: src/render/live-line.ts), prints one line per finished, failed or skipped
 * action, and ends with the summary (src/render/apply-summary.ts). The JSON one (CI=true or
 * --json) prints one line per event. The text is built by pure functions (`liveLine`,
 * `summaryLines`); the classes only keep counts and write.
 */
import type { ApplyEvent } from "../engine/apply-events.js";
import type { PlanEntry } from "../engine/plan.js";
import { describeInconsistency, summaryLines, type SummaryFacts } from "./apply-summary.js";
import { LiveLine, type Terminal } from "./live-line.js";
import { formatCount, formatDuration, PLAIN, type Style } from "./style.js";
import { fitParts, shortenId, truncate, visibleWidth } from "./width.js";
import { escapeHidden, escapeJsonText, visibleText } from "../visible.js";
import { seg, whole, wrap } from "./wrap.js";

export { formatDuration } from "./style.js";
export { describeInconsistency, summaryLines, type SummaryFacts } from "./apply-summary.js";

/** Requests of the client: sent and not answered, and waiting for a slot or the throttle. */
export interface FlowStats {
  running: number;
  queued: number;
}

/** Counts the live line shows. */
export interface Progress {
  total: number;
  done: number;
  failed: number;
  skipped: number;
  /** Actions started and not finished (whatever they wait on). */
  active: number;
  /** Actions waiting on a queued job of the service. */
  waitingOnJobs: number;
  /** The client's requests, when it says (otherwise the line counts active actions). */
  flow?: FlowStats | undefined;
  elapsedMs: number;
}

/**
 * `apply: 1,015/2,982 done · 8 running · 696 waiting on jobs · 40 queued · 1 failed · 1.3 s`,
 * at most `width` columns: the least useful parts go first (skipped, queued, waiting, running).
 */
export function liveLine(p: Progress, style: Style = PLAIN, width = Infinity): string {
  const finished = p.done + p.failed + p.skipped;
  const parts = [
    {
      text: `${style.bold("apply:")} ${formatCount(finished)}/${formatCount(p.total)} done`,
      keep: Infinity,
    },
  ];
  if (p.flow) {
    parts.push({ text: `${formatCount(p.flow.running)} running`, keep: 60 });
  } else {
    const busy = Math.max(0, p.active - p.waitingOnJobs);
    parts.push({ text: `${formatCount(busy)} active`, keep: 60 });
  }
  parts.push({ text: `${formatCount(p.waitingOnJobs)} waiting on jobs`, keep: 50 });
  if (p.flow && p.flow.queued > 0)
    parts.push({ text: `${formatCount(p.flow.queued)} queued`, keep: 40 });
  if (p.failed > 0) parts.push({ text: style.red(`${formatCount(p.failed)} failed`), keep: 95 });
  if (p.skipped > 0) parts.push({ text: `${formatCount(p.skipped)} skipped`, keep: 30 });
  if (p.total > 0 && finished >= p.total) parts.push({ text: "checking the result", keep: 70 });
  parts.push({ text: formatDuration(p.elapsedMs), keep: 90 });
  return fitParts(parts, width);
}

export interface HumanReporterOptions {
  /** Lines for the record (stdout). */
  out: (text: string) => void;
  /** The terminal for the live line (stderr), or undefined without one. */
  terminal?: Terminal | undefined;
  style?: Style;
  notSent?: readonly PlanEntry[];
  now?: () => number;
  /** The client's requests running and queued (undefined: it does not say). */
  flow?: () => FlowStats | undefined;
  /** Columns of the record's stream (undefined: no wrapping). */
  width?: () => number | undefined;
  /**
   * The record's stream is the terminal: finished and skipped actions take one line each,
   * cut to the width (failures are always printed whole).
   */
  compact?: boolean;
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
  private line: LiveLine | undefined;

  constructor(private readonly o: HumanReporterOptions) {
    this.style = o.style ?? PLAIN;
    this.now = o.now ?? (() => performance.now());
    this.facts = {
      failures: [],
      skipped: new Map(),
      durations: [],
      notSent: o.notSent ?? [],
      inconsistencies: [],
      madeByOthers: [],
    };
  }

  /** The plan's ticket and blocked entries, listed in the summary (known after planning). */
  set notSent(entries: readonly PlanEntry[]) {
    this.facts.notSent = entries;
  }

  readonly event = (e: ApplyEvent): void => {
    const red = this.style.red;
    switch (e.type) {
      case "apply-started":
        this.started = this.now();
        this.total = e.total;
        if (this.o.terminal) {
          this.line = new LiveLine(this.o.terminal, (width) =>
            liveLine(this.progress(), this.style, width),
          );
          this.line.start();
        }
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
        if (e.existed) (this.facts.madeByOthers ??= []).push(e.id);
        if (e.note !== undefined) this.print(`done     ${e.id}: ${e.note}`);
        else this.brief("done     ", e.id, ` (${formatDuration(e.durationMs)})`);
        break;
      case "other-writer":
        this.print(
          `note     ${e.key} was already there when this run created it: another apply (or a person) is changing this service at the same time. Nothing is sent twice, but run one apply at a time per service: one journal kept between runs (journal: in phctl.yaml) and one CI concurrency group`,
          this.style.yellow,
        );
        break;
      case "action-failed":
        this.end(e.id);
        this.failed++;
        this.facts.failures.push({ id: e.id, message: e.message, durationMs: e.durationMs });
        // An outage fails every action in flight with one message: said once, at the end.
        if (e.code !== "OUTAGE") this.print(`failed   ${visibleText(e.id)}: ${e.message}`, red);
        break;
      case "action-skipped":
        this.skipped++;
        this.facts.skipped.set(e.root, [...(this.facts.skipped.get(e.root) ?? []), e.id]);
        // Actions a halted run never started are counted in the summary, not listed one by one.
        if (e.root !== "") this.brief("skipped  ", e.id, ` (${e.reason})`);
        break;
      case "inconsistent":
        this.facts.inconsistencies.push(e);
        this.print(`error    ${describeInconsistency(e)}`, red);
        break;
      case "verify-failed":
        this.print(`warning  ${e.message}`, this.style.yellow);
        break;
      case "apply-done":
        this.line?.stop();
        this.line = undefined;
        for (const l of summaryLines(e.summary, this.facts, this.style, this.o.width?.()))
          this.o.out(`${l}\n`);
        return;
    }
  };

  private end(id: string): void {
    this.running.delete(id);
    this.waiting.delete(id);
  }

  /** A line for the record, wrapped to the width; its first word painted with `mark`. */
  private print(line: string, mark?: (s: string) => string): void {
    this.line?.clear();
    const [, word, rest, tail] = /^(\S*)(.*?)((?: \([^()]*\))?)$/s.exec(line)!;
    // A closing `(269 ms)` is one word: never `(269` / `ms)`.
    const pieces = [seg(word, mark), seg(rest), ...(tail ? [seg(" "), whole(tail.slice(1))] : [])];
    const lines = wrap(pieces, { width: this.o.width?.(), hang: 9 });
    this.o.out(`${lines.join("\n")}\n`);
  }

  /** `done     <id> (45 ms)`: on a terminal one line, the id's key cut if need be. */
  private brief(head: string, rawId: string, rawTail: string): void {
    const width = this.o.width?.();
    // Cut below without wrap(), which escapes what it lays out: escaped here.
    const id = visibleText(rawId);
    const tail = escapeHidden(rawTail);
    if (!this.o.compact || width === undefined) return this.print(`${head}${id}${tail}`);
    this.line?.clear();
    const room = width - head.length - visibleWidth(tail);
    const line =
      room >= 12 ? `${head}${shortenId(id, room)}${tail}` : truncate(`${head}${id}${tail}`, width);
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
      active: this.running.size,
      waitingOnJobs,
      flow: this.o.flow?.(),
      elapsedMs: this.now() - this.started,
    };
  }
}

/** One JSON object per event and line (`{"event":"action-done","time":…,…}`). */
export function jsonEventLine(e: ApplyEvent, time: Date = new Date()): string {
  const { type, ...rest } = e;
  // Read in CI logs by people too: hidden characters escaped (the same JSON value).
  return escapeJsonText(JSON.stringify({ event: type, time: time.toISOString(), ...rest }));
}

export class JsonReporter {
  constructor(private readonly write: (text: string) => void) {}
  readonly event = (e: ApplyEvent): void => this.write(`${jsonEventLine(e)}\n`);
}
