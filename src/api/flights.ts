/**
 * The attempts a transport has in flight, each with the deadline of the whole attempt
 * (connection, headers and body together) and the API it belongs to: one sweep timer, every
 * `SWEEP_MS` while some have a deadline, ends those past theirs — no timer and
 * AbortController per request (their CPU cost is felt at tens of thousands of requests) —
 * and `cut(group)` ends every attempt of one API at once (its outage gate gave up). An
 * attempt ended so settles with a timeout failure that says how far it got.
 */
import { humanDuration } from "./errors.js";
import type { ExchangeOptions, ExchangeStage } from "./exchange.js";
import type { WireFailure } from "./transport.js";

/** How often attempts in flight are checked against their deadline, ms. */
export const SWEEP_MS = 250;

/** An attempt in flight: when it must end, and how to end it. */
export interface Flight {
  due: number;
  /** Its deadline, ms (said in the failure). */
  ms: number;
  group: string | undefined;
  cancel?: (reason: Error) => void;
  stage?: () => ExchangeStage;
}

/** Ends an exchange from outside with the outcome it carries (see `Flights`). */
export class Cut extends Error {
  constructor(readonly outcome: WireFailure) {
    super(outcome.message);
  }
}

/**
 * The failure of an attempt that got no (whole) answer in time (`ms`: its bound), said by
 * how far it got: no connection (nothing was sent), no answer, or an answer whose body
 * stopped coming after its headers.
 */
export const timedOut = (ms: number, stage: ExchangeStage = "sent"): WireFailure => ({
  kind: "failure",
  sent: stage !== "waiting",
  timeout: true,
  code: "TIMEOUT",
  message:
    stage === "waiting"
      ? `no connection within ${humanDuration(ms)}`
      : stage === "body"
        ? `the answer stalled after its headers: its body did not come within ${humanDuration(ms)}`
        : `no answer within ${humanDuration(ms)}`,
});

/** The attempts in flight of one transport. */
export class Flights {
  readonly #flights = new Set<Flight>();
  #sweep: NodeJS.Timeout | undefined;

  /**
   * Track an attempt until `untrack`: its deadline (ms from now; none when undefined) and
   * its group. Sets `o.bind`, so the exchange hands over how to end it and how far it got.
   */
  track(deadlineMs: number | undefined, group: string | undefined, o: ExchangeOptions): Flight {
    const flight: Flight = {
      due: deadlineMs === undefined ? Infinity : performance.now() + deadlineMs,
      ms: deadlineMs ?? Infinity,
      group,
    };
    o.bind = (cancel, stage) => {
      flight.cancel = cancel;
      flight.stage = stage;
    };
    if (deadlineMs === undefined && group === undefined) return flight;
    this.#flights.add(flight);
    if (flight.due !== Infinity && this.#sweep === undefined)
      this.#sweep = setInterval(() => this.#sweepDue(), SWEEP_MS);
    return flight;
  }

  untrack(flight: Flight): void {
    this.#flights.delete(flight);
    if (this.#flights.size === 0 && this.#sweep !== undefined) {
      clearInterval(this.#sweep);
      this.#sweep = undefined;
    }
  }

  /** End the attempts past their deadline. */
  #sweepDue(): void {
    const now = performance.now();
    for (const f of this.#flights)
      if (f.due <= now) f.cancel?.(new Cut(timedOut(f.ms, f.stage?.())));
  }

  /** End at once every attempt of `group` still in flight, each with `failure`. */
  cut(group: string, failure: WireFailure): void {
    for (const flight of [...this.#flights])
      if (flight.group === group) flight.cancel?.(new Cut(failure));
  }
}
