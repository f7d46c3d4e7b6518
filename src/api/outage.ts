/**
 * The outage gate: one per client, shared by every call. A circuit breaker that waits
 * instead of failing. Every attempt's outcome is either trouble (no answer at all,
 * 500/502/503/504, 429) or an answer (2xx, any other 4xx). When trouble is across the
 * board the gate CLOSES: no attempt is sent, callers wait before their attempt (holding no
 * concurrency slot), and one probe at a time (`GET /v1/organization/list`, authenticated)
 * checks with exponential backoff and jitter whether the service answers again. The first
 * answer OPENS the gate and releases every waiter; the concurrency limit spreads them.
 *
 * `timeoutMs` bounds the silence, not the time closed: it counts from the last answer the
 * gate saw (or from when the first unanswered attempt after it was sent). Once the service
 * has not answered for that long — whether the gate closed early or a lone attempt hung
 * all along — the client gives up for good: every waiting and later call rejects at once
 * with `OutageError`, and the attempts still out are cut short (`onGiveUp`). A probe the
 * service swallows (accepts, never answers) does not hold up the next one: probes go out on
 * their schedule, a few at a time at most, each bounded by its own timeout. While the
 * gate is open, a watch (outage-watch.ts) probes when attempts are out and nothing has been
 * heard for a while.
 */
import { codeOfStatus, OutageError } from "./errors.js";
import { sleep } from "./limit.js";
import { OutageWatch, probeWindowMs } from "./outage-watch.js";
import { isForkCleanup, parseRetryAfter, type RetryClass } from "./retry.js";
import type { ShownProxy } from "./network.js";
import { connectionWords } from "./proxy-failure.js";
import type { WireOutcome } from "./transport.js";

/**
 * Consecutive trouble outcomes, client-wide with no answer in between, that close the gate.
 * Under a random fault rate p, a run of K troubles starts at a given attempt with odds
 * (1-p)·p^K: at p = 35 % and K = 10 that is 1.8e-5, about one false close per 55,000
 * attempts, which a probe undoes within a few hundred ms. In a real outage the 10 come in
 * milliseconds with 8 calls in flight, and a lone caller reaches them before its retry
 * limit (10 retries = 11 attempts), so it waits at the gate instead of failing.
 */
export const OUTAGE_THRESHOLD = 10;
/**
 * A run of trouble that lasts closes the gate too, when it has at least OUTAGE_MIN_RUN
 * outcomes over OUTAGE_WINDOW_MS: a lone caller (the first read of a plan, `phctl api`)
 * retrying with backoff against a dead address would otherwise take its ~20 s of retries
 * before the outage deadline even starts, whatever `--outage-timeout` says. A false close
 * under random faults costs one probe, a few hundred ms.
 */
export const OUTAGE_MIN_RUN = 3;
export const OUTAGE_WINDOW_MS = 1_000;
/** First wait before a probe, ms; doubles per probe up to `PROBE_MAX_MS`. */
export const PROBE_START_MS = 250;
export const PROBE_MAX_MS = 5_000;
/** Probes out at once at most (earlier ones may hang on a service that swallows them). */
export const PROBES_IN_FLIGHT = 3;

/**
 * What the gate tells the client's observer (see `ClientEvent`). `proxy`: the trouble is the
 * proxy's, which does not answer (not the service). `api: "git"`: the gate is the git host's
 * delivery-metrics API's (absent: the administration API's).
 */
export type OutageEvent = { api?: "git" } & (
  | { type: "outage-start"; reason: string; trigger: string; timeoutMs: number; proxy?: ShownProxy }
  | { type: "outage-end"; pausedMs: number; probes: number }
  | {
      type: "outage-timeout";
      pausedMs: number;
      probes: number;
      reason: string;
      proxy?: ShownProxy;
    }
);

/** The parts a gate needs: the probe it sends and who hears about it. */
export interface OutageGateOptions {
  /** Origin of the API the gate guards (named in `OutageError`). */
  origin: string;
  /** Which API: the administration API (default) or the git host's delivery-metrics API. */
  api?: "admin" | "git";
  /** Give up once the service has not answered for this long, ms. */
  timeoutMs: number;
  /** Send one probe (GET of the organization list) and report what happened. */
  probe: () => Promise<WireOutcome>;
  random: () => number;
  onEvent?: (e: OutageEvent) => void;
  /** The gate opened again (refill the retry budget). */
  onOpen?: () => void;
  /** An outage ended or timed out after `pausedMs` closed and `probes` probes (metrics). */
  onPaused?: (pausedMs: number, probes: number) => void;
  /** The client gave up: end the attempts of this API still out (transport `cutShort`). */
  onGiveUp?: (error: OutageError) => void;
  /** Least time between two probes, ms (the client's throttle, `--max-rps`). */
  minProbeGapMs?: number;
}

const TROUBLE_STATUSES = new Set([429, 500, 502, 503, 504]);

/** Trouble as a few words (`503 UNAVAILABLE`), or undefined when the service answered. */
export function troubleOf(outcome: WireOutcome, cls?: RetryClass): string | undefined {
  if (outcome.kind === "failure") {
    if (outcome.permanent) return undefined; // a refused certificate: the service is there
    if (outcome.timeout) return outcome.message || "no answer in time (timeout)";
    return `${connectionWords(outcome.code)} (${outcome.code})`;
  }
  const s = outcome.status;
  if (!TROUBLE_STATUSES.has(s) || (cls && isForkCleanup(cls, outcome))) return undefined;
  return `${s} ${codeOfStatus(s)}`;
}

/** ms as seconds to one decimal. */
const seconds = (ms: number) => Math.round(ms / 100) / 10;

interface Waiter {
  resolve: () => void;
  reject: (e: Error) => void;
}

/** The gate itself; `request()` asks `pass()` before every attempt and `record()`s after. */
export class OutageGate {
  #state: "open" | "closed" | "gave-up" = "open";
  #epoch = 0;
  #run = 0;
  /** When the current run of trouble began (performance.now()). */
  #runSince = 0;
  #closedAt = 0;
  /** When the last answer came (undefined: none yet). */
  #answeredAt: number | undefined;
  /**
   * When the service went quiet: the send of the first attempt that got trouble after the
   * last answer (never before that answer). Undefined while it answers.
   */
  #quietSince: number | undefined;
  #probes = 0;
  /** Probes sent and not yet back. */
  #probing = 0;
  /** The watch over attempts out while the gate is open (outage-watch.ts). */
  readonly #watch: OutageWatch;
  #last = "";
  /** The proxy that did not answer, when the last trouble was that. */
  #proxy: ShownProxy | undefined;
  #error: OutageError | undefined;
  #deadline: NodeJS.Timeout | undefined;
  #nextProbe: NodeJS.Timeout | undefined;
  readonly #waiters = new Set<Waiter>();
  /** Callers in a retry's backoff (`nap`): woken when the client gives up. */
  readonly #nappers = new Set<() => void>();

  constructor(private readonly o: OutageGateOptions) {
    this.#watch = new OutageWatch(probeWindowMs(o.timeoutMs), {
      active: () => this.#state === "open",
      answeredAt: () => this.#answeredAt,
      probe: async () => {
        const epoch = this.#epoch;
        const sentAt = performance.now();
        const outcome = await this.#send();
        // Counted like any attempt's outcome unless an outage came and went meanwhile.
        if (this.#state !== "gave-up" && this.#epoch === epoch)
          this.#count(outcome, undefined, sentAt);
      },
    });
  }

  /** `{api: "git"}` on what the git host's gate says; nothing on the administration API's. */
  #which(): { api?: "git" } {
    return this.o.api === "git" ? { api: "git" } : {};
  }

  /** Give up once the service has not answered for this long, ms (`--outage-timeout`). */
  get timeoutMs(): number {
    return this.o.timeoutMs;
  }

  /** True while attempts may be sent. */
  get isOpen(): boolean {
    return this.#state === "open";
  }

  /** Bumped each time the gate closes: an attempt sent in an older epoch met an outage. */
  get epoch(): number {
    return this.#epoch;
  }

  /** The error every call gets once the client has given up; undefined until then. */
  get error(): OutageError | undefined {
    return this.#error;
  }

  /** Wait until attempts may be sent; resolves to the ms paused. Rejects once given up. */
  async pass(signal?: AbortSignal): Promise<number> {
    if (this.#error) throw this.#error;
    if (this.#state === "open") return 0;
    const t0 = performance.now();
    await new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason as Error);
        return;
      }
      const onAbort = () => {
        this.#waiters.delete(w);
        this.#hold();
        reject(signal!.reason as Error);
      };
      const w: Waiter = {
        resolve: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        reject: (e) => {
          signal?.removeEventListener("abort", onAbort);
          reject(e);
        },
      };
      this.#waiters.add(w);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#hold();
    });
    return performance.now() - t0;
  }

  /** An attempt goes out now; returns the time (performance.now()) to `record()` it with. */
  sending(): number {
    return this.#watch.sending();
  }

  /** An attempt `sending()` announced ended without an outcome (its caller aborted it). */
  dropped(): void {
    this.#watch.back();
  }

  /**
   * Count an attempt's outcome (`sentAt`: what `sending()` returned for it); returns its
   * trouble, or undefined when it was an answer.
   */
  record(outcome: WireOutcome, cls?: RetryClass, sentAt?: number): string | undefined {
    if (sentAt !== undefined) this.#watch.back();
    return this.#count(outcome, cls, sentAt);
  }

  /** One probe's outcome (a failure when it threw). */
  async #send(): Promise<WireOutcome> {
    try {
      return await this.o.probe();
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      return {
        kind: "failure",
        sent: false,
        timeout: false,
        code: typeof code === "string" ? code : "UNKNOWN",
        message: String(e),
      };
    }
  }

  #count(outcome: WireOutcome, cls?: RetryClass, sentAt?: number): string | undefined {
    const trouble = troubleOf(outcome, cls);
    if (this.#state === "gave-up") return trouble;
    const now = performance.now();
    if (trouble === undefined) {
      this.#run = 0;
      this.#answeredAt = now;
      this.#quietSince = undefined;
      clearTimeout(this.#deadline);
      this.#deadline = undefined;
      if (this.#state === "closed") this.#open();
      return undefined;
    }
    this.#last = trouble;
    this.#proxy = outcome.kind === "failure" ? outcome.proxy : undefined;
    // Quiet since this attempt was sent — or since the last answer, if that came later.
    const since = Math.max(sentAt ?? now, this.#answeredAt ?? -Infinity);
    this.#quietSince = Math.min(this.#quietSince ?? Infinity, since);
    const quietMs = now - this.#quietSince;
    this.#armDeadline();
    if (quietMs >= this.o.timeoutMs) {
      // No answer for the whole deadline already (an attempt hung that long): give up now.
      this.close(`no answer for ${seconds(quietMs)} s`);
      this.#giveUp(true);
      return trouble;
    }
    if (this.#state !== "open") return trouble;
    if (this.#run++ === 0) this.#runSince = now;
    const waited = now - (sentAt ?? now);
    if (this.#run >= OUTAGE_THRESHOLD)
      this.close(`${OUTAGE_THRESHOLD} requests in a row got no answer`);
    else if (
      outcome.kind === "failure" &&
      outcome.timeout &&
      waited >= OUTAGE_WINDOW_MS &&
      since === sentAt
    )
      // One request that waited that long for nothing says enough: say so, and probe.
      this.close(`a request got no answer for ${seconds(waited)} s`);
    else if (this.#run >= OUTAGE_MIN_RUN && now - this.#runSince >= OUTAGE_WINDOW_MS)
      this.close(
        `${this.#run} requests in a row over ${seconds(now - this.#runSince)} s got no answer`,
      );
    return trouble;
  }

  /** Close the gate (no-op unless open): trouble is across the board. */
  close(trigger: string): void {
    if (this.#state !== "open") return;
    this.#state = "closed";
    this.#epoch++;
    this.#run = 0;
    this.#probes = 0;
    this.#closedAt = performance.now();
    this.#quietSince ??= this.#closedAt;
    this.o.onEvent?.({
      ...this.#which(),
      type: "outage-start",
      reason: this.#last || trigger,
      trigger,
      timeoutMs: this.o.timeoutMs,
      ...(this.#proxy ? { proxy: this.#proxy } : {}),
    });
    this.#armDeadline();
    this.#scheduleProbe(0);
  }

  /**
   * The deadline: `timeoutMs` after the service went quiet, whether the gate closed or a
   * lone caller is still retrying with backoff (its sleep is the gate's `nap`, cut short).
   */
  #armDeadline(): void {
    if (this.#quietSince === undefined) return;
    clearTimeout(this.#deadline);
    const left = this.#quietSince + this.o.timeoutMs - performance.now();
    this.#deadline = setTimeout(
      () => {
        if (this.#state === "open")
          this.close(`no answer for ${seconds(performance.now() - this.#quietSince!)} s`);
        this.#giveUp(true);
      },
      Math.max(0, left),
    );
    this.#hold();
  }

  /**
   * Sleep `ms` (a retry's backoff), or less: until the client gives up on an outage, or the
   * signal aborts (then rejects with its reason).
   */
  nap(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.#error || ms <= 0) return sleep(0, signal);
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason as Error);
        return;
      }
      const done = () => {
        clearTimeout(t);
        this.#nappers.delete(wake);
        signal?.removeEventListener("abort", onAbort);
      };
      const wake = () => {
        done();
        resolve();
      };
      const onAbort = () => {
        done();
        reject(signal!.reason as Error);
      };
      const t = setTimeout(wake, ms);
      this.#nappers.add(wake);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Stop probing and fail the waiters, if any (the client is closing). */
  dispose(): void {
    this.#giveUp(false);
  }

  #scheduleProbe(retryAfterMs: number): void {
    clearTimeout(this.#nextProbe);
    const ceiling = Math.min(PROBE_MAX_MS, PROBE_START_MS * 2 ** this.#probes);
    // Equal jitter: never sooner than half the step, so probes stay spaced out.
    const jittered = ceiling / 2 + this.o.random() * (ceiling / 2);
    const delay = Math.max(retryAfterMs, jittered, this.o.minProbeGapMs ?? 0);
    this.#nextProbe = setTimeout(() => this.#probeDue(), delay);
    this.#hold();
  }

  /**
   * A probe is due: send it (unless a few are out already, hanging), and schedule the next
   * at once — a probe the service swallowed must not hide that it answers again.
   */
  #probeDue(): void {
    if (this.#state !== "closed") return;
    if (this.#probing < PROBES_IN_FLIGHT) void this.#probe();
    if (this.#state === "closed") this.#scheduleProbe(0);
  }

  async #probe(): Promise<void> {
    const epoch = this.#epoch;
    this.#probes++;
    this.#probing++;
    const sentAt = performance.now();
    const outcome = await this.#send();
    this.#probing--;
    if (this.#state !== "closed" || this.#epoch !== epoch) return;
    if (this.#count(outcome, undefined, sentAt) === undefined) return; // it opened the gate
    const after = outcome.kind === "response" ? parseRetryAfter(outcome.headers["retry-after"]) : 0;
    // The service asked for time: the next probe waits that long.
    if (after && this.#state === "closed") this.#scheduleProbe(after);
  }

  #open(): void {
    const pausedMs = Math.round(performance.now() - this.#closedAt);
    this.#state = "open";
    this.#clearTimers();
    this.o.onOpen?.();
    this.o.onPaused?.(pausedMs, this.#probes);
    this.o.onEvent?.({ ...this.#which(), type: "outage-end", pausedMs, probes: this.#probes });
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const w of waiters) w.resolve();
  }

  /** The outage deadline passed (`timedOut`), or the client is closing during an outage. */
  #giveUp(timedOut: boolean): void {
    if (this.#state !== "closed") return;
    // A Node timer counts from the event loop's cached clock, so the deadline can fire up
    // to 1 ms before performance.now() says it is due: never report less than the deadline.
    const now = performance.now();
    const pausedMs = Math.round(now - this.#closedAt);
    const quiet = Math.round(now - (this.#quietSince ?? this.#closedAt));
    const unavailableMs = timedOut ? Math.max(quiet, this.o.timeoutMs) : quiet;
    this.#state = "gave-up";
    this.#clearTimers();
    this.#error = new OutageError({
      origin: this.o.origin,
      ...this.#which(),
      unavailableMs,
      lastTrouble: this.#last || "no answer",
      ...(this.#proxy ? { proxy: this.#proxy } : {}),
    });
    this.o.onPaused?.(pausedMs, this.#probes);
    if (timedOut)
      this.o.onEvent?.({
        ...this.#which(),
        type: "outage-timeout",
        // The time without an answer (the deadline's measure), not only the time closed.
        pausedMs: unavailableMs,
        probes: this.#probes,
        reason: this.#last,
        ...(this.#proxy ? { proxy: this.#proxy } : {}),
      });
    if (timedOut) this.o.onGiveUp?.(this.#error);
    for (const wake of [...this.#nappers]) wake();
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const w of waiters) w.reject(this.#error);
  }

  /** Timers keep the process alive only while someone waits at the gate. */
  #hold(): void {
    for (const t of [this.#deadline, this.#nextProbe]) {
      if (this.#waiters.size > 0) t?.ref();
      else t?.unref();
    }
  }

  #clearTimers(): void {
    clearTimeout(this.#deadline);
    clearTimeout(this.#nextProbe);
    this.#deadline = this.#nextProbe = undefined;
  }
}
