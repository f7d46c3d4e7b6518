/**
 * Requests of the agreement test, made from the OpenAPI document: a valid request of an
 * operation as a fast-check arbitrary (path parameters, query, body from their schemas),
 * its rendering as an `inject()` call, and the check of an answer against the document
 * (a listed status, a body of that status's schema, the headers it says are always there).
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fc from "fast-check";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { exampleOf } from "../../src/api/openapi-examples.js";
import { arbOf, type Hints, type Json } from "./openapi-arb.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export interface Op {
  id: string;
  method: string;
  path: string;
  op: Json;
  params: Json[];
  query: Json[];
  body?: Json;
}

export interface Req {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body?: unknown;
}

export function opsOf(doc: Json): Op[] {
  const out: Op[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      const ps = (op.parameters ?? []) as Json[];
      const body = op.requestBody?.content["application/json"].schema as Json | undefined;
      out.push({
        id: op.operationId as string,
        method: method.toUpperCase(),
        path,
        op,
        params: ps.filter((p) => p.in === "path"),
        query: ps.filter((p) => p.in === "query"),
        ...(body ? { body } : {}),
      });
    }
  }
  return out;
}

/** Integer path parameters: the hints, or ids far above anything seeded. */
const pathSchema = (s: Json): Json =>
  s.type === "integer" ? { ...s, minimum: 1_000_000, maximum: 2_000_000_000 } : s;

/** Valid requests of an operation. */
export function requestArb(o: Op, hints: Hints): fc.Arbitrary<Req> {
  const params: Record<string, fc.Arbitrary<unknown>> = {};
  for (const p of o.params) params[p.name] = arbOf(pathSchema(p.schema), p.name, hints);
  const query: Record<string, fc.Arbitrary<unknown>> = {};
  for (const q of o.query) query[q.name] = arbOf(q.schema, q.name, hints);
  const required = o.query.filter((q) => q.required).map((q) => q.name as string);
  return fc.record({
    params: fc.record(params),
    query: fc.record(query, { requiredKeys: required }),
    ...(o.body ? { body: arbOf(o.body, "", hints) } : {}),
  });
}

/**
 * The first request of an operation: each value the first hint of its name (the one that
 * names a live object), or the document's example value; optional query parameters left out.
 */
export function canonicalReq(o: Op, hints: Hints): Req {
  const pick = (name: string, schema: Json) =>
    hints[name]?.length ? hints[name][0] : exampleOf(schema, name);
  const params = Object.fromEntries(o.params.map((p) => [p.name, pick(p.name, p.schema)]));
  const query = Object.fromEntries(
    o.query.filter((q) => q.required).map((q) => [q.name, pick(q.name, q.schema)]),
  );
  if (!o.body) return { params, query };
  const props = (o.body.properties ?? {}) as Record<string, Json>;
  const body = hints[""]?.length
    ? hints[""][0]
    : Object.fromEntries(Object.entries(props).map(([k, v]) => [k, pick(k, v)]));
  return { params, query, body };
}

/**
 * The first request changed one value at a time to each other value worth trying (the
 * other hints of its name, the other values of an enumeration): a deterministic sweep that
 * reaches the rules the first request does not.
 */
export function sweepReqs(o: Op, hints: Hints): Req[] {
  const base = canonicalReq(o, hints);
  const others = (name: string, schema: Json): unknown[] =>
    ((hints[name]?.length ? hints[name] : (schema.enum as unknown[] | undefined)) ?? []).slice(
      hints[name]?.length || schema.enum ? 1 : 0,
    );
  const out: Req[] = [];
  for (const p of o.params)
    for (const v of others(p.name, p.schema))
      out.push({ ...base, params: { ...base.params, [p.name]: v } });
  for (const q of o.query)
    for (const v of hints[q.name] ?? (q.schema.enum as unknown[] | undefined) ?? [])
      out.push({ ...base, query: { ...base.query, [q.name]: v } });
  if (!o.body) return out;
  for (const b of (hints[""] ?? []).slice(1)) out.push({ ...base, body: b });
  for (const [k, v] of Object.entries((o.body.properties ?? {}) as Record<string, Json>))
    for (const x of others(k, v)) out.push({ ...base, body: { ...(base.body as Json), [k]: x } });
  return out;
}

export interface Send {
  token?: string | null;
  privateToken?: boolean;
  headers?: Record<string, string>;
  /** Raw payload instead of the JSON of `body`. */
  payload?: string;
  /** Path with parameters already encoded (e.g. a bad percent-encoding). */
  rawPath?: string;
}

/** The inject() options of a request. */
export function injectOf(o: Op, r: Req, s: Send): InjectOptions {
  const rest = o.params.find((p) => p.description === "may contain slashes")?.name;
  const path =
    s.rawPath ??
    o.path.replace(/\{([^}]+)\}/g, (_a, n: string) => {
      const v = String(r.params[n]);
      return n === rest ? v.split("/").map(encodeURIComponent).join("/") : encodeURIComponent(v);
    });
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(r.query)) {
    if (v === undefined || v === null) continue;
    for (const x of Array.isArray(v) ? v : [v]) qs.append(k, String(x));
  }
  const headers: Record<string, string> = { ...s.headers };
  if (s.token)
    headers[s.privateToken ? "private-token" : "authorization"] = s.privateToken
      ? s.token
      : `Bearer ${s.token}`;
  const payload = s.payload ?? (r.body === undefined ? undefined : JSON.stringify(r.body));
  if (payload !== undefined) headers["content-type"] ??= "application/json";
  const q = qs.toString();
  return {
    method: o.method as NonNullable<InjectOptions["method"]>,
    url: q ? `${path}?${q}` : path,
    headers,
    ...(payload !== undefined ? { payload } : {}),
  };
}

/** One line naming a request exactly, for a report. */
export function describe(i: InjectOptions): string {
  const p = typeof i.payload === "string" ? ` ${i.payload.slice(0, 160)}` : "";
  const h = i.headers as Record<string, string>;
  const extra = Object.entries(h)
    .filter(([k]) => k !== "authorization" && k !== "private-token" && k !== "content-type")
    .map(([k, v]) => ` [${k}: ${v}]`)
    .join("");
  const who = h.authorization || h["private-token"] ? "" : " [no token]";
  return `${i.method} ${typeof i.url === "string" ? i.url : ""}${p}${extra}${who}`;
}

/** Checks answers against the document; `problem()` says what is wrong, or undefined. */
export class Checker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false });
  /** Compiled validators by schema text: many operations answer the same shapes. */
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly doc: Json) {
    addFormats(this.ajv);
  }

  deref(x: Json): Json {
    return typeof x.$ref === "string"
      ? this.deref(
          x.$ref
            .split("/")
            .slice(1)
            .reduce((o: Json, k: string) => o[k], this.doc),
        )
      : x;
  }

  problem(o: Op, res: LightMyRequestResponse): string | undefined {
    const documented = o.op.responses[String(res.statusCode)] as Json | undefined;
    if (!documented) return `status ${res.statusCode} is not documented: ${res.body.slice(0, 200)}`;
    const r = this.deref(documented);
    for (const [name, h] of Object.entries((r.headers ?? {}) as Json)) {
      if (h.required && res.headers[name.toLowerCase()] === undefined)
        return `status ${res.statusCode} lacks the documented header ${name}`;
    }
    const media = r.content?.["application/json"] as Json | undefined;
    if (!media)
      return res.body === "" ? undefined : `status ${res.statusCode} has a body, documented none`;
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      return `status ${res.statusCode} body is not JSON: ${res.body.slice(0, 200)}`;
    }
    const schema = this.deref(media.schema as Json);
    const key = JSON.stringify(schema);
    let v = this.compiled.get(key);
    if (!v) {
      v = this.ajv.compile(schema);
      this.compiled.set(key, v);
    }
    if (v(body)) return undefined;
    return `status ${res.statusCode} body does not fit its schema (${this.ajv.errorsText(v.errors)}): ${res.body.slice(0, 200)}`;
  }
}
