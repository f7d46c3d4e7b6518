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

/** The throttle and the concurrency slots of one client. */
export class FlowControl {
  private readonly limit: LimitFunction;
  private readonly throttle: Throttle;

  constructor(concurrency: number, maxRps: number) {
    this.limit = pLimit(Math.max(1, concurrency));
    this.throttle = new Throttle(maxRps);
  }

  /** Run one attempt: wait for the throttle, then for a slot; the slot is freed when `fn` settles. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.throttle.wait();
    return this.limit(fn);
  }

  /** Attempts running and waiting for a slot (for tests and progress). */
  get load(): { active: number; pending: number } {
    return { active: this.limit.activeCount, pending: this.limit.pendingCount };
  }
}
