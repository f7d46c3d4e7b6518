/**
 * Property: a service whose answers differ from what phctl reads — a list envelope or
 * pagination field renamed, removed or of another type, a record field phctl reads missing
 * or of another type — never yields a plan entry: the plan fails with a ResponseShapeError
 * naming that operation. Driven through the client and runPlan, over a proxy in front of
 * the reference server (with the examples applied) that reshapes one operation's answers.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Ajv } from "ajv";
import fc from "fast-check";
import { request } from "undici";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { matchRoute } from "../../src/api/route-match.js";
import type { OperationId } from "../../src/api/routes.js";
import { ResponseShapeError } from "../../src/api/shape-error.js";
import { clientSchema } from "../../src/api/strict.js";
import { runPlan } from "../../src/engine/run-plan.js";
import { loadManifests } from "../../src/pipeline/load.js";
import type { DesiredState } from "../../src/manifest/types.js";
import { populate } from "../helpers/populate.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { FAST } from "./helpers.js";

type Body = any;
interface Mutation {
  op: OperationId;
  what: string;
  apply(body: Body): Body;
}

let t: TestServer;
let proxy: Server;
let proxyUrl: string;
let state: DesiredState;
let mutation: Mutation | undefined;
/** One answer of every operation the plan reads (from the unmutated baseline plan). */
const samples = new Map<OperationId, Body>();

beforeAll(async () => {
  t = await startServer();
  state = (await loadManifests(["examples"])).state!;
  const direct = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret, ...FAST });
  await populate(direct, state);
  await direct.close();
  proxy = createServer((req, res) => {
    void (async () => {
      const up = await request(`${t.url}${req.url}`, {
        method: req.method as "GET",
        headers: { authorization: req.headers.authorization ?? "" },
      });
      let text = await up.body.text();
      const op = matchRoute(req.method!, req.url!.split("?")[0])?.operation;
      if (op && text && up.statusCode === 200) {
        if (!samples.has(op)) samples.set(op, JSON.parse(text));
        if (mutation?.op === op) text = JSON.stringify(mutation.apply(JSON.parse(text)));
      }
      res.writeHead(up.statusCode, { "content-type": "application/json" }).end(text);
    })();
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const baseline = await plan();
  expect(baseline).not.toBeInstanceOf(Error);
  expect((baseline as { entries: unknown[] }).entries).toEqual([]);
});
afterAll(async () => {
  await new Promise((r) => proxy.close(r));
  await t.close();
});

async function plan(): Promise<unknown> {
  const api = new ApiClient({ apiUrl: proxyUrl, token: TOKENS.admin.secret, ...FAST });
  try {
    return await runPlan({ api, state, apiUrl: "test" });
  } catch (e) {
    return e;
  } finally {
    await api.close();
  }
}

type Schema = {
  type?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
};

/** The records of an answer (mutable, in place) and their schema as the client checks them. */
function records(op: OperationId, body: Body): { list: Body[]; schema: Schema } | undefined {
  const s = clientSchema(op) as Schema;
  if (Array.isArray(body?.data) && !s.properties?.data) return { list: body.data, schema: s };
  if (Array.isArray(body)) return { list: body, schema: s.items! };
  const data = s.properties?.data;
  if (!data) return undefined;
  if (Array.isArray(body?.data)) return { list: body.data, schema: data.items! };
  return body?.data ? { list: [body.data], schema: data } : undefined;
}

const ajv = new Ajv({ strict: false, validateFormats: false });
const OTHER_VALUES = [7, "7", true, [], {}, null];

/** Values that do not fit a field's schema. */
function misfits(schema: Schema): unknown[] {
  const v = ajv.compile(schema);
  return OTHER_VALUES.filter((x) => !v(x));
}

function fieldMutations(op: OperationId): fc.Arbitrary<Mutation> | undefined {
  const r = records(op, structuredClone(samples.get(op)));
  if (!r || r.list.length === 0) return undefined;
  const fields = r.schema.required ?? [];
  if (fields.length === 0) return undefined;
  return fc.constantFrom(...fields).chain((field) =>
    fc.oneof(
      fc.constant<Mutation>({
        op,
        what: `${op}: no ${field}`,
        apply: (b) => {
          for (const x of records(op, b)!.list) delete x[field];
          return b;
        },
      }),
      fc.constantFrom(...misfits(r.schema.properties![field])).map((value): Mutation => ({
        op,
        what: `${op}: ${field} = ${JSON.stringify(value)}`,
        apply: (b) => {
          for (const x of records(op, b)!.list) x[field] = structuredClone(value);
          return b;
        },
      })),
    ),
  );
}

function envelopeMutations(op: OperationId): fc.Arbitrary<Mutation> | undefined {
  if (!samples.get(op)?.pagination) return undefined;
  const m = (what: string, apply: (b: Body) => Body): Mutation => ({
    op,
    what: `${op}: ${what}`,
    apply,
  });
  return fc.oneof(
    fc
      .constantFrom("items", "results", "list", "records")
      .map((name) => m(`data renamed ${name}`, ({ data, ...rest }) => ({ ...rest, [name]: data }))),
    fc.constant(m("a bare array", (b) => b.data)),
    fc.constant(m("data an object", (b) => ({ ...b, data: { items: b.data } }))),
    fc
      .constantFrom("paging", "meta", "")
      .map((name) =>
        m(`pagination renamed "${name}"`, ({ pagination, ...rest }) =>
          name ? { ...rest, [name]: pagination } : rest,
        ),
      ),
    fc.constant(m("no pagination.limit", (b) => (delete b.pagination.limit, b))),
    fc
      .constantFrom("limit", "totalPages", "total", "page")
      .map((f) =>
        m(`pagination.${f} a string`, (b) => ((b.pagination[f] = String(b.pagination[f])), b)),
      ),
  );
}

it("an answer that differs in what phctl reads never yields a plan entry: it is an error naming the operation", async () => {
  const arbitraries = [...samples.keys()]
    .flatMap((op) => [fieldMutations(op), envelopeMutations(op)])
    .filter((a): a is fc.Arbitrary<Mutation> => a !== undefined);
  expect(arbitraries.length).toBeGreaterThan(8);
  await fc.assert(
    fc.asyncProperty(fc.oneof(...arbitraries), async (m) => {
      mutation = m;
      try {
        const r = await plan();
        expect(r, m.what).toBeInstanceOf(ResponseShapeError);
        expect((r as ResponseShapeError).operation, m.what).toBe(m.op);
      } finally {
        mutation = undefined;
      }
    }),
    { numRuns: 40 },
  );
});
