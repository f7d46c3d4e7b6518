/**
 * Latency and fault injection, for benchmarks and chaos tests. Random faults (`faultRate`)
 * strike before the handler runs, so they never have side effects: 500, 503, 429 with
 * Retry-After, or a dropped connection. One-shot faults (set through /_control/faults) are
 * deterministic and may also strike after the handler ran (`dropAfter`: the change is made,
 * the answer is lost), which is what a client must survive without duplicating a POST.
 * A one-shot fault armed through /_control carries the caller's parent organization and
 * strikes only requests made with that parent organization's tokens. `status403` (one-shot
 * only) is a refusal no client retries: a section that fails at once. With a `rate` it
 * strikes each matching request with that probability (the seeded PRNG) until its `times`
 * are spent: the crash benchmark drops the answers of a share of an apply's POSTs after the
 * server acted on them.
 */
import type { OperationId } from "../api/routes.js";

export type FaultKind =
  "status500" | "status503" | "status429" | "status403" | "drop" | "dropAfter";
export const FAULT_KINDS: readonly FaultKind[] = [
  "status500",
  "status503",
  "status429",
  // A refusal no client retries: what a token without the right scope meets (one-shot only).
  "status403",
  "drop",
  "dropAfter",
];

/** A deterministic fault for the next request(s) that match. */
export interface OneShotFault {
  kind: FaultKind;
  /** Match only this method (e.g. POST). */
  method?: string;
  /** Match only this operation id (e.g. git.repos.create). */
  operation?: OperationId;
  /** Seconds for Retry-After (status429; default 1). */
  retryAfter?: number;
  /** How many matching requests it strikes (default 1). */
  times?: number;
  /** Strike a matching request with this probability (default 1: every one). */
  rate?: number;
  /** Strike only requests of this parent organization (id); absent = any request. */
  parentOrgId?: number;
}

/** mulberry32: a small seeded PRNG, so a chaos run can be replayed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Faults {
  private readonly random: () => number;
  private readonly oneShots: OneShotFault[] = [];

  constructor(
    private readonly rate: number,
    private readonly latencyMs: number,
    seed: number,
  ) {
    this.random = prng(seed);
  }

  add(f: OneShotFault): void {
    this.oneShots.push({ ...f, times: f.times ?? 1 });
  }

  clear(): void {
    this.oneShots.length = 0;
  }

  /** Forget the one-shot faults of one parent organization (id). */
  clearFor(parentOrgId: number): void {
    const kept = this.oneShots.filter((f) => f.parentOrgId !== parentOrgId);
    this.oneShots.splice(0, this.oneShots.length, ...kept);
  }

  /** One-shot faults still armed: all, or those of one parent organization (id). */
  pending(parentOrgId?: number): OneShotFault[] {
    return parentOrgId === undefined
      ? [...this.oneShots]
      : this.oneShots.filter((f) => f.parentOrgId === parentOrgId);
  }

  /** Delay for this request: the mean latency with ±25 % jitter, or 0. */
  delay(): number {
    if (this.latencyMs <= 0) return 0;
    return this.latencyMs * (0.75 + this.random() * 0.5);
  }

  /**
   * The fault (if any) for a request of a parent organization (null: no known token): a
   * matching one-shot first, then the random rate.
   */
  pick(
    method: string,
    operation: OperationId | undefined,
    parentOrgId: number | null = null,
  ): OneShotFault | undefined {
    const i = this.oneShots.findIndex(
      (f) =>
        (!f.method || f.method === method) &&
        (!f.operation || f.operation === operation) &&
        (f.parentOrgId === undefined || f.parentOrgId === parentOrgId) &&
        (f.rate === undefined || this.random() < f.rate),
    );
    if (i >= 0) {
      const f = this.oneShots[i];
      f.times = (f.times ?? 1) - 1;
      if (f.times <= 0) this.oneShots.splice(i, 1);
      return f;
    }
    if (this.rate > 0 && this.random() < this.rate) {
      const kinds: FaultKind[] = ["status500", "status503", "status429", "drop"];
      return { kind: kinds[Math.floor(this.random() * kinds.length)], retryAfter: 1 };
    }
    return undefined;
  }
}
