/**
 * The outage gate's watch over attempts in flight while it is open. Attempts that the
 * service swallowed (accepted, never answered) report nothing until their own deadline; so
 * when some are out and nothing at all has been heard for `probeWindowMs` (a quarter of the
 * outage deadline, 1 to 10 s), the watch asks for a probe: its answer shows the service
 * answers (and the deadline then counts from it, not from the swallowed attempts' sends);
 * its trouble closes the gate and says so — no more silence until a 30 s timeout.
 */

/**
 * A quarter of the outage deadline, 1 to 10 s: how long a probe may take, and how long
 * attempts may be out with nothing heard before the watch probes.
 */
export function probeWindowMs(timeoutMs: number): number {
  return Math.min(10_000, Math.max(1_000, timeoutMs / 4));
}

/** What the watch asks of its gate. */
export interface WatchHooks {
  /** Still worth watching (the gate is open). */
  active: () => boolean;
  /** When the gate last heard an answer (performance.now()), if ever. */
  answeredAt: () => number | undefined;
  /** Send one probe and count its outcome; resolves once counted. */
  probe: () => Promise<void>;
}

/** Attempts in flight, and the timer that probes when they have been quiet too long. */
export class OutageWatch {
  #inFlight = 0;
  /** Since when some attempt has been out, without a gap. */
  #busySince = 0;
  #timer: NodeJS.Timeout | undefined;
  #probing = false;

  constructor(
    private readonly windowMs: number,
    private readonly hooks: WatchHooks,
  ) {}

  /** An attempt goes out now; returns the time (performance.now()). */
  sending(): number {
    const now = performance.now();
    if (this.#inFlight++ === 0) this.#busySince = now;
    if (this.#timer === undefined && this.hooks.active()) {
      this.#timer = setInterval(() => this.#tick(), Math.max(250, this.windowMs / 4));
      this.#timer.unref();
    }
    return now;
  }

  /** An attempt is back (with an outcome or without). */
  back(): void {
    if (this.#inFlight > 0) this.#inFlight--;
  }

  /** Attempts out and nothing heard for a while: probe, unless one is out already. */
  #tick(): void {
    if (this.#inFlight === 0 || !this.hooks.active()) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      return;
    }
    const since = Math.max(this.#busySince, this.hooks.answeredAt() ?? -Infinity);
    if (this.#probing || performance.now() - since < this.windowMs) return;
    this.#probing = true;
    void this.hooks.probe().finally(() => (this.#probing = false));
  }
}
