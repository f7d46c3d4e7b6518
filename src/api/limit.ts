/**
 * Flow control shared by every caller of one client: a concurrency limit on
 * attempts in flight and a client-side throttle (`--max-rps`). A slot is held only while
 * an attempt is on the wire — never during a retry backoff or a queue poll's sleep — so a
 * waiting caller never starves the others.
 */
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
  private readonly throttle: Throttle;
  /** Slots held: attempts running, and slots handed to a waiting attempt about to start. */
  private taken = 0;
  /** Attempts waiting for a slot, first come first served (`head`: the next one). */
  private slotWaiters: ((() => void) | undefined)[] = [];
  private head = 0;
  /** Attempts between `run()` and their slot (throttle and slot waits). */
  private waiting = 0;
  private running = 0;
  readonly concurrency: number;
  readonly maxRps: number;

  constructor(concurrency: number, maxRps: number) {
    this.concurrency = Math.max(1, concurrency);
    this.maxRps = maxRps > 0 ? maxRps : 0;
    this.throttle = new Throttle(maxRps);
  }

  /**
   * Run one attempt: wait for the throttle, then for a slot; the slot is freed when `fn`
   * settles. `fn` gets the time it waited (throttle and slot), ms. With no throttle and a
   * slot free, `fn` starts at once and its own promise is returned; a freed slot starts the
   * first waiting attempt from the release itself — no promise chain of the flow control's
   * own (p-limit's cost ≈ 4 KB and a dozen microtasks per request).
   */
  run<T>(fn: (queuedMs: number) => Promise<T>): Promise<T> {
    if (this.maxRps > 0) return this.runThrottled(fn);
    // Whoever waits for a slot waits only while every slot is held: none is skipped.
    if (this.taken < this.concurrency) {
      this.taken++;
      return this.start(fn, 0);
    }
    return this.waitForSlot(fn, performance.now());
  }

  /** Wait for a slot (every one is held), then run `fn` in it. */
  private waitForSlot<T>(fn: (queuedMs: number) => Promise<T>, queuedAt: number): Promise<T> {
    this.waiting++;
    return new Promise<T>((resolve, reject) => {
      // Called by `release` with the freed slot, already held for this attempt.
      this.slotWaiters.push(() => {
        this.waiting--;
        this.start(fn, performance.now() - queuedAt).then(resolve, reject);
      });
    });
  }

  private async runThrottled<T>(fn: (queuedMs: number) => Promise<T>): Promise<T> {
    const queuedAt = performance.now();
    this.waiting++;
    try {
      await this.throttle.wait();
    } catch (e) {
      this.waiting--;
      throw e;
    }
    this.waiting--;
    if (this.taken < this.concurrency) {
      this.taken++;
      return this.start(fn, performance.now() - queuedAt);
    }
    return this.waitForSlot(fn, queuedAt);
  }

  /** Run `fn` in a slot already taken; the slot is released when its promise settles. */
  private start<T>(fn: (queuedMs: number) => Promise<T>, queuedMs: number): Promise<T> {
    this.running++;
    let p: Promise<T>;
    try {
      p = fn(queuedMs);
    } catch (e) {
      p = Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    p.then(this.release, this.release);
    return p;
  }

  /** An attempt settled: its slot goes to the first waiting attempt, else back to the pool. */
  private readonly release = (): void => {
    this.running--;
    if (this.head < this.slotWaiters.length) {
      const next = this.slotWaiters[this.head]!;
      this.slotWaiters[this.head++] = undefined;
      if (this.head === this.slotWaiters.length) {
        this.slotWaiters = [];
        this.head = 0;
      } else if (this.head > 1024 && this.head * 2 > this.slotWaiters.length) {
        this.slotWaiters.splice(0, this.head);
        this.head = 0;
      }
      next();
      return;
    }
    this.taken--;
  };

  /** Requests sent and not answered; requests waiting for the throttle or a slot. */
  get stats(): FlowStats {
    return { running: this.running, queued: this.waiting };
  }
}
