/**
 * The OpenAPI document and the reference server agree, both ways, on every operation:
 * - requests generated from the document (fast-check arbitraries from the parameter and
 *   body schemas: valid ones, biased toward live objects, and each one broken in one place)
 *   and requests made for each kind of answer are answered with a status the document lists
 *   for that operation, a body of that status's schema and the headers it says are always
 *   there; a valid request is not refused with a plain 400, a broken one never succeeds;
 * - every status the document lists for an operation is answered to some request — except
 *   the ones in NOT_PROVOKED, each with its reason.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApi } from "../../src/api/openapi.js";
import type { Json } from "./openapi-arb.js";
import { Checker, opsOf } from "./openapi-request.js";
import { AgreementRun } from "./openapi-run.js";
import { startWorld } from "./openapi-world.js";

/** Documented statuses no request of this test provokes, and why. */
const NOT_PROVOKED: Record<string, string> = {};

const doc = buildOpenApi() as Json;
const ops = opsOf(doc);
const order = ["POST", "PUT", "PATCH", "GET", "DELETE"];
/** Writes first (so reads see what they made), deletes last and deepest first. */
const ordered = [...ops].sort(
  (a, b) =>
    order.indexOf(a.method) - order.indexOf(b.method) ||
    (a.method === "DELETE" ? b.path.split("/").length - a.path.split("/").length : 0),
);

let run: AgreementRun;
beforeAll(async () => {
  run = new AgreementRun(await startWorld(), doc, {
    validPerOperation: 2,
    anyOperation: [400, 401, 403, 404, 409, 413, 414, 415, 422],
    searchPerOperation: 30,
  });
});
afterAll(() => run.world.server.close());

describe("the OpenAPI document and the reference server agree", () => {
  it("every answer has a documented status, a body of its schema and its headers", async () => {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    for (const o of ordered) await run.exercise(o);
    const ms = Math.round(performance.now() - t0);
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
    console.log(`${ops.length} operations, ${run.sent} requests in ${ms} ms (${cpuMs} ms CPU)`);
    expect(ops.length).toBeGreaterThan(130);
    expect([...run.disagreements.values()]).toEqual([]);
  });

  it("the checks are live: an undocumented status, a body off its schema, a missing header", () => {
    const checker = new Checker(doc);
    const o = ops.find((x) => x.id === "users.get")!;
    const answer = (statusCode: number, body: unknown) =>
      ({ statusCode, body: JSON.stringify(body), headers: {} }) as never;
    expect(checker.problem(o, answer(418, {}))).toMatch(/not documented/);
    expect(checker.problem(o, answer(404, { error: "Not Found" }))).toMatch(/does not fit/);
    expect(checker.problem(o, answer(401, { status: { code: 401, message: "x" } }))).toMatch(
      /lacks the documented header WWW-Authenticate/,
    );
    expect(checker.problem(o, answer(404, { status: { code: 404, message: "x" } }))).toBe(
      undefined,
    );
  });

  it("every documented status is answered (or listed in NOT_PROVOKED with its reason)", () => {
    const unreached = ordered.flatMap((o) => run.missing(o).map((s) => `${o.id} ${s}`));
    expect(unreached.sort()).toEqual(Object.keys(NOT_PROVOKED).sort());
  });
});
