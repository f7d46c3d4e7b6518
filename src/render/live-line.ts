/**
 * The one live line at the bottom of a terminal (apply's progress, plan's reads). It is
 * redrawn in place a few times a second — carriage return, erase the whole line, the new
 * text — and is always fitted to the terminal's current width minus one column, so it never
 * wraps: a wrapped line is two rows, and erasing one row would leave the other behind.
 *
 * Anything else written to the terminal while the line is shown (stdout's record lines, a
 * note on stderr from anywhere) first erases it: `guard` routes those streams' writes
 * through the line, which is redrawn at its next tick, below them.
 */

/** What the line draws on. */
export interface Terminal {
  /** Write to the terminal (the stream the line lives on, normally stderr). */
  write(text: string): void;
  /** Its width now (it may be resized), or undefined when unknown. */
  columns(): number | undefined;
  /** Streams that write to the same terminal, guarded while the line is shown. */
  streams?: readonly GuardedStream[];
}

/** A stream whose `write` the line can route through itself. */
export interface GuardedStream {
  write: (...args: never[]) => boolean;
}

/** Carriage return and erase the whole line. */
export const ERASE_LINE = "\r\u001b[2K";

export class LiveLine {
  private shown = "";
  private timer: NodeJS.Timeout | undefined;
  /** True while the line itself writes (its own writes are not guarded). */
  private own = false;
  /** A guarded write left the cursor mid-line: do not draw until a newline ends it. */
  private midLine = false;
  private readonly restore: (() => void)[] = [];
  private readonly onExit = () => this.clear();

  constructor(
    private readonly term: Terminal,
    /** The line's text for a width (the caller fits it). */
    private readonly render: (width: number) => string,
    private readonly intervalMs = 100,
  ) {}

  /** Start redrawing, and guard the terminal's streams. */
  start(): void {
    if (this.timer) return;
    for (const s of this.term.streams ?? []) this.guard(s);
    this.timer = setInterval(() => this.draw(), this.intervalMs);
    this.timer.unref();
    process.once("exit", this.onExit);
  }

  /** Draw now (when the text changed or the line was erased). */
  draw(): void {
    if (this.midLine) return;
    const width = Math.max(1, (this.term.columns() ?? 80) - 1);
    const text = this.render(width);
    if (text === this.shown) return;
    this.raw(`${ERASE_LINE}${text}`);
    this.shown = text;
  }

  /** Erase the line (it comes back at the next tick while running). */
  clear(): void {
    if (this.shown === "") return;
    this.raw(ERASE_LINE);
    this.shown = "";
  }

  /** Erase the line for good and give the streams back. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
    for (const r of this.restore.splice(0)) r();
    process.removeListener("exit", this.onExit);
  }

  private raw(text: string): void {
    this.own = true;
    try {
      this.term.write(text);
    } finally {
      this.own = false;
    }
  }

  private guard(stream: GuardedStream): void {
    const target = stream as unknown as Record<string, unknown>;
    const hadOwn = Object.prototype.hasOwnProperty.call(stream, "write");
    const original = stream.write;
    const call = original as unknown as (...args: unknown[]) => boolean;
    target.write = (...args: unknown[]): boolean => {
      if (this.own) return call.apply(stream, args);
      this.clear();
      const chunk = args[0];
      const text =
        typeof chunk === "string" ? chunk : Buffer.isBuffer(chunk) ? chunk.toString() : "";
      if (text.length > 0) this.midLine = !text.endsWith("\n");
      return call.apply(stream, args);
    };
    this.restore.push(() => {
      if (hadOwn) target.write = original;
      else delete target.write;
    });
  }
}

/** This process's terminal (stderr), or undefined when stderr is not one. */
export function processTerminal(): Terminal | undefined {
  if (!process.stderr.isTTY) return undefined;
  return {
    write: (s) => {
      process.stderr.write(s);
    },
    columns: () => process.stderr.columns,
    streams: process.stdout.isTTY ? [process.stderr, process.stdout] : [process.stderr],
  };
}
