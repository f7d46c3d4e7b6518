/**
 * Flow control shared by every caller of one client: a concurrency limit (p-limit) on
 * attempts in flight and a client-side throttle (`--max-rps`). A slot is held only while
 * an attempt is on the wire — never during a retry backoff or a queue poll's sleep — so a
 * waiting caller never starves the others.
 */
import pLimit, { type LimitFunction } from "p-limit";

/** Spaces request starts at least 1/maxRps apart (no bursts); 0 or less = no throttle. */
export class Throttle {
  private next = 0;
  private readonly intervalMs: number;

  constructor(maxRps: number) {
    this.intervalMs = maxRps > 0 ? 1000 / maxRps : 0;
  }

  /** Resolves when the caller may start its request. */
  async wait(): Promise<void> {
    if (this.intervalMs === 0) return;
    const now = performance.now();
    const at = Math.max(now, this.next);
    this.next = at + this.intervalMs;
    if (at > now) await sleep(at - now);
  }
}

/** Sleep, or reject with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 && !signal?.aborted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason as Error);
    };
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Requests on the wire and requests waiting to be sent (`ApiClient.flowStats()`). */
export interface FlowStats {
  /** Sent and not yet answered. */
  running: number;
  /** Waiting for the throttle or for a concurrency slot. */
  queued: number;
}

/** The throttle and the concurrency slots of one client. */
export class FlowControl {
  private readonly limit: LimitFunction;
  private readonly throttle: Throttle;
  /** Attempts between `run()` and their slot (throttle and slot waits). */
  private waiting = 0;
  private running = 0;
  readonly concurrency: number;
  readonly maxRps: number;

  constructor(concurrency: number, maxRps: number) {
    this.concurrency = Math.max(1, concurrency);
    this.maxRps = maxRps > 0 ? maxRps : 0;
    this.limit = pLimit(this.concurrency);
    this.throttle = new Throttle(maxRps);
  }

  /**
   * Run one attempt: wait for the throttle, then for a slot; the slot is freed when `fn`
   * settles. `fn` gets the time it waited (throttle and slot), ms.
   */
  async run<T>(fn: (queuedMs: number) => Promise<T>): Promise<T> {
    const queuedAt = performance.now();
    this.waiting++;
    try {
      await this.throttle.wait();
    } catch (e) {
      this.waiting--;
      throw e;
    }
    return this.limit(async () => {
      this.waiting--;
      this.running++;
      try {
        return await fn(performance.now() - queuedAt);
      } finally {
        this.running--;
      }
    });
  }

  /** Requests sent and not answered; requests waiting for the throttle or a slot. */
  get stats(): FlowStats {
    return { running: this.running, queued: this.waiting };
  }
}
