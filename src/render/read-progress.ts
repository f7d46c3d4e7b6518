/**
 * Progress of the live reads of `plan`, `drift` and `export` (and of apply's planning):
 *
 * - on a terminal, a live line: `plan: reading live state · 1,830 objects · 57 calls ·
 *   8 running · 1.3 s` (src/render/live-line.ts keeps it in place and fitted);
 * - with `--json` or `CI=true`, JSON events, one per line: `read-started`, `read-progress`
 *   every few seconds while it lasts, and `read-done` (objects, calls, elapsed, ok);
 * - otherwise nothing.
 *
 * The counts are polled: plain numbers the command line takes from the client (objects read
 * through its ReadContexts, calls finished, requests running and queued; see
 * src/cli/read-progress.ts). The renderer never sees the client; `readLine` is a pure
 * function of the counts.
 */
import { LiveLine, type Terminal } from "./live-line.js";
import { formatCount, formatDuration, PLAIN, type Style } from "./style.js";
import { fitParts } from "./width.js";

/** What the reads have done so far. */
export interface ReadCounts {
  objects: number;
  calls: number;
  /** Requests sent and not yet answered (undefined: the client does not say). */
  running?: number | undefined;
  /** Requests waiting for a concurrency slot or the throttle. */
  queued?: number | undefined;
}

/** The live line, fitted to `width` columns (least useful parts dropped first). */
export function readLine(
  command: string,
  what: string,
  c: ReadCounts,
  elapsedMs: number,
  width: number,
  style: Style = PLAIN,
): string {
  const parts = [
    { text: style.bold(`${command}:`), keep: Infinity },
    { text: `reading ${what}`, keep: 50 },
    { text: `${formatCount(c.objects)} object${c.objects === 1 ? "" : "s"}`, keep: 80 },
    { text: `${formatCount(c.calls)} call${c.calls === 1 ? "" : "s"}`, keep: 60 },
  ];
  if (c.running !== undefined) parts.push({ text: `${formatCount(c.running)} running`, keep: 40 });
  if (c.queued) parts.push({ text: `${formatCount(c.queued)} queued`, keep: 30 });
  parts.push({ text: formatDuration(elapsedMs), keep: 90 });
  // The head and the next part read as one: `plan: reading live state · …`.
  return fitParts(parts, width, " · ", " ");
}

/** What one read shows, and where. */
export interface ReadProgressOptions {
  /** `plan`, `drift`, `export`, `apply`. */
  command: string;
  /** What is read: `live state`, `organization acme`. */
  what: string;
  /** The counts now (polled while the reads last). */
  counts: () => ReadCounts;
  /** The terminal for the live line (none: no live line). */
  terminal?: Terminal | undefined;
  /** Where JSON events go, one per line (none: no events). */
  json?: ((line: string) => void) | undefined;
  style?: Style;
  now?: () => number;
  /** How often `read-progress` is written (default 2 s). */
  jsonIntervalMs?: number;
}

/** The live line or the JSON events of one read, from start to stop. */
export class ReadProgress {
  private readonly now: () => number;
  private started = 0;
  private line: LiveLine | undefined;
  private ticker: NodeJS.Timeout | undefined;

  constructor(private readonly o: ReadProgressOptions) {
    this.now = o.now ?? (() => performance.now());
  }

  start(): this {
    this.started = this.now();
    const { terminal, json } = this.o;
    if (json) {
      this.event("read-started", {});
      this.ticker = setInterval(
        () => this.event("read-progress", this.snapshot()),
        this.o.jsonIntervalMs ?? 2000,
      );
      this.ticker.unref();
    } else if (terminal) {
      this.line = new LiveLine(terminal, (width) =>
        readLine(
          this.o.command,
          this.o.what,
          this.o.counts(),
          this.now() - this.started,
          width,
          this.o.style,
        ),
      );
      this.line.start();
    }
    return this;
  }

  /** End: the live line erased, or the `read-done` event. Idempotent. */
  stop(ok: boolean): void {
    if (this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
      this.event("read-done", { ok, ...this.snapshot() });
    }
    this.line?.stop();
    this.line = undefined;
  }

  /** Run `f` with progress shown, and end it however `f` ends. */
  async around<T>(f: () => Promise<T>): Promise<T> {
    this.start();
    try {
      const r = await f();
      this.stop(true);
      return r;
    } catch (e) {
      this.stop(false);
      throw e;
    }
  }

  private snapshot() {
    const c = this.o.counts();
    return {
      objects: c.objects,
      calls: c.calls,
      ...(c.running !== undefined ? { running: c.running } : {}),
      ...(c.queued !== undefined ? { queued: c.queued } : {}),
      elapsedMs: Math.round(this.now() - this.started),
    };
  }

  private event(name: string, fields: Record<string, unknown>): void {
    this.o.json?.(
      `${JSON.stringify({ event: name, time: new Date().toISOString(), command: this.o.command, ...fields })}\n`,
    );
  }
}
