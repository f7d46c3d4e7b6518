/**
 * One run of the agreement test (openapi-agreement.test.ts) against one server: it sends
 * requests of the document's operations, checks every answer against the document, and
 * records which statuses each operation answered, the disagreements (each with the exact
 * request) and the last request of each operation that succeeded.
 */
import fc from "fast-check";
import type { InjectOptions } from "fastify";
import { mutations, type Hints, type Json } from "./openapi-arb.js";
import { breakOne, provoke } from "./openapi-provoke.js";
import {
  canonicalReq,
  Checker,
  sweepReqs,
  describe,
  injectOf,
  requestArb,
  type Op,
  type Req,
  type Send,
} from "./openapi-request.js";
import { TOKENS, type World } from "./openapi-world.js";

export interface RunSettings {
  /** Valid requests per operation, each also sent broken in every way `mutations` knows. */
  validPerOperation: number;
  /** Statuses every operation is sent a request for once, documented or not. */
  anyOperation: readonly number[];
  /** Most extra valid requests per operation while a documented status is missing. */
  searchPerOperation: number;
}

/** A seed of its own per operation, so adding an operation changes no other's requests. */
function seedOf(id: string): number {
  let h = 16;
  for (const c of id) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return Math.abs(h) % 1_000_000;
}

export class AgreementRun {
  sent = 0;
  readonly seen = new Map<string, Set<number>>();
  readonly disagreements = new Map<string, string>();
  readonly lastSuccess = new Map<string, Req>();
  private readonly checker: Checker;

  constructor(
    readonly world: World,
    doc: Json,
    private readonly settings: RunSettings,
  ) {
    this.checker = new Checker(doc);
  }

  hintsFor(o: Op): Hints {
    return { ...this.world.hints, ...this.world.opHints[o.id] };
  }

  auth(o: Op): Send {
    return {
      token: TOKENS.admin.secret,
      privateToken: o.op.security?.[0]?.privateToken !== undefined,
    };
  }

  /** Every status documented for an operation and not answered yet. */
  missing(o: Op): number[] {
    const seen = this.seen.get(o.id) ?? new Set();
    return Object.keys(o.op.responses as Json)
      .map(Number)
      .filter((s) => !seen.has(s));
  }

  /** Remember queue ids answered, so the status operations can ask about real jobs. */
  private harvest(o: Op, body: string): void {
    const ids = this.world.hints[`queueid:${o.op["x-queue"]}`];
    if (!ids) return;
    for (const m of body.matchAll(/"queu?e?id":"([^"]+)"/g)) if (ids.length < 20) ids.push(m[1]);
  }

  /**
   * Send a request and check its answer. `valid`: the request fits the document, so a 400
   * is a disagreement unless the operation documents a 400 of its own rules; `invalid`: it
   * breaks the document, so a success is one.
   */
  async send(o: Op, r: Req, s: Send = this.auth(o), fit?: "valid" | "invalid"): Promise<number> {
    const i: InjectOptions = injectOf(o, r, s);
    const res = await this.world.server.app.inject(i);
    this.sent++;
    if (process.env.OA_DEBUG === o.id)
      console.log(describe(i), "→", res.statusCode, res.body.slice(0, 150));
    if (!this.seen.has(o.id)) this.seen.set(o.id, new Set());
    this.seen.get(o.id)!.add(res.statusCode);
    const ownBadRequest = o.op.responses["400"] && !o.op.responses["400"].$ref;
    const problem =
      this.checker.problem(o, res) ??
      (fit === "valid" && res.statusCode === 400 && !ownBadRequest
        ? `a request the document accepts is refused: ${res.body.slice(0, 200)}`
        : fit === "invalid" && res.statusCode < 300
          ? "a request the document refuses is accepted"
          : undefined);
    const key = `${o.id} ${res.statusCode} ${problem?.replace(/:.*$/, "")}`;
    if (problem && !this.disagreements.has(key))
      this.disagreements.set(key, `${o.id}: ${describe(i)} → ${problem}`);
    if (res.statusCode < 300) {
      this.harvest(o, res.body);
      if (s.token === TOKENS.admin.secret && !s.payload && !s.rawPath)
        this.lastSuccess.set(o.id, r);
    }
    return res.statusCode;
  }

  /** Valid requests from the document (and, with `broken`, each broken in every way). */
  async generated(o: Op, runs: number, seed: number, broken = true): Promise<void> {
    for (const r of fc.sample(requestArb(o, this.hintsFor(o)), { numRuns: runs, seed })) {
      await this.send(o, r, this.auth(o), "valid");
      if (!broken) continue;
      for (const m of mutations(r.body as Json, o.body, o.query, o.params))
        await this.send(o, breakOne(r, m), this.auth(o), "invalid");
    }
  }

  /**
   * One operation, at its turn: generated requests; a request for each status any
   * operation may answer; then, while a documented status is missing, requests made for
   * it and more generated ones. A 500 (a failed fork) starts a cleanup window that refuses
   * every later fork, so it comes last.
   */
  async exercise(o: Op): Promise<void> {
    const i = seedOf(o.id);
    const { validPerOperation, anyOperation, searchPerOperation } = this.settings;
    this.seen.set(o.id, new Set());
    await this.send(o, canonicalReq(o, this.hintsFor(o)), this.auth(o), "valid");
    for (const r of sweepReqs(o, this.hintsFor(o))) await this.send(o, r, this.auth(o), "valid");
    await this.generated(o, validPerOperation, i);
    const base = fc.sample(requestArb(o, this.hintsFor(o)), { numRuns: 1, seed: 9 })[0];
    const provokeAll = async (last: boolean, statuses: readonly number[] = this.missing(o)) => {
      for (const s of statuses)
        if ((s === 500) === last) await provoke(this, o, s, this.lastSuccess.get(o.id) ?? base);
    };
    const search = async (seed: number, last: boolean) => {
      const more = fc.sample(requestArb(o, this.hintsFor(o)), {
        numRuns: searchPerOperation,
        seed,
      });
      for (const [k, r] of more.entries()) {
        if (this.missing(o).length === 0) return;
        await this.send(o, r, this.auth(o), "valid");
        if (k % 5 === 4) await provokeAll(last);
      }
    };
    await provokeAll(false, anyOperation);
    await provokeAll(false);
    await search(i + 1, false);
    if (!this.missing(o).includes(500)) return;
    await provokeAll(true);
    await search(i + 2, true);
  }
}
