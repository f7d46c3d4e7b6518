/**
 * One operation of the OpenAPI document: its parameters (path parameters with the limits
 * the router and handlers enforce, query parameters under the API profile's names), its
 * request body with an example, and every status it can answer (route-status.ts) with its
 * schema and an example. Shared error answers live in `components.responses`.
 */
import type { TSchema } from "@sinclair/typebox";
import { DEFAULT_LIST, type ApiProfile } from "./profile.js";
import { MAX_PATH_PARAM, pathParams, restParam, type RouteDef } from "./route-def.js";
import { operationStatuses, SHARED_ERRORS, type Header } from "./route-status.js";
import { errorExample, exampleOf, withCode } from "./openapi-examples.js";

export type Json = Record<string, unknown>;

/**
 * Drop TypeBox's symbol keys, undefined values and `$id`s (one schema such as Status is
 * inlined in many places, and an `$id` may name one schema only): plain JSON Schema.
 */
export function plain(schema: unknown): Json {
  return JSON.parse(JSON.stringify(schema), (k, v: unknown) =>
    k === "$id" ? undefined : v,
  ) as Json;
}

const ERROR_REF = { $ref: "#/components/schemas/Error" };

/** The schema of one path parameter: integer, enumeration, the handler's check, or a name. */
function pathParamSchema(def: RouteDef, name: string): Json {
  if (def.intParams?.includes(name)) return { type: "integer", minimum: 0 };
  const values = def.paramEnums?.[name];
  if (values) return { type: "string", enum: [...values] };
  if (name === restParam(def.path)) return { type: "string", minLength: 1 };
  const check = def.paramChecks?.[name];
  return {
    type: "string",
    minLength: 1,
    maxLength: MAX_PATH_PARAM,
    ...(check ? plain(check) : {}),
  };
}

/** A paged route's query parameter under the profile's name. */
function queryName(def: RouteDef, name: string, profile: ApiProfile): string {
  if (!def.paging) return name;
  const k = (Object.keys(DEFAULT_LIST.query) as (keyof typeof DEFAULT_LIST.query)[]).find(
    (q) => DEFAULT_LIST.query[q] === name,
  );
  return k ? profile.list.query[k] : name;
}

export function parameters(def: RouteDef, profile: ApiProfile): Json[] {
  const rest = restParam(def.path);
  const out: Json[] = pathParams(def.path).map((name) => ({
    name,
    in: "path",
    required: true,
    schema: pathParamSchema(def, name),
    ...(name === rest ? { description: "may contain slashes" } : {}),
  }));
  if (def.query) {
    const required = new Set(def.query.required ?? []);
    for (const [name, schema] of Object.entries(def.query.properties)) {
      out.push({
        name: queryName(def, name, profile),
        in: "query",
        required: required.has(name),
        schema: plain(schema),
      });
    }
  }
  return out;
}

export function requestBody(def: RouteDef): Json | undefined {
  if (!def.body) return undefined;
  const schema = plain(def.body);
  return {
    required: true,
    content: { "application/json": { schema, example: exampleOf(schema) } },
  };
}

function headersOf(headers: Readonly<Record<string, Header>> | undefined): Json | undefined {
  if (!headers) return undefined;
  const out: Json = {};
  for (const [name, { description, required }] of Object.entries(headers)) {
    const type = name === "Retry-After" ? "integer" : "string";
    out[name] = { description, required, schema: { type } };
  }
  return out;
}

/** `components.responses`: the answers every operation of some shape shares. */
export function sharedResponses(): Json {
  const out: Json = {};
  for (const [status, e] of Object.entries(SHARED_ERRORS)) {
    const shared: {
      name: string;
      description: string;
      headers?: Readonly<Record<string, Header>>;
    } = e;
    const headers = headersOf(shared.headers);
    out[shared.name] = {
      description: shared.description,
      ...(headers ? { headers } : {}),
      content: {
        "application/json": {
          schema: ERROR_REF,
          example: errorExample(Number(status), shared.description, true),
        },
      },
    };
  }
  return out;
}

/**
 * The `responses` of an operation; `shape` turns a success schema into the profile's
 * shape (paged lists, queue id field).
 */
export function responses(def: RouteDef, shape: (schema: TSchema) => Json): Json {
  const out: Json = {};
  for (const s of operationStatuses(def)) {
    if (s.shared) {
      out[String(s.status)] = { $ref: `#/components/responses/${SHARED_ERRORS[s.shared].name}` };
      continue;
    }
    const headers = headersOf(s.headers);
    const base = { description: s.description, ...(headers ? { headers } : {}) };
    if (s.kind === "success") {
      if (!s.response) {
        out[String(s.status)] = base;
        continue;
      }
      const schema = shape(s.response);
      const example = withCode(exampleOf(schema), s.status);
      out[String(s.status)] = { ...base, content: { "application/json": { schema, example } } };
      continue;
    }
    const example = errorExample(s.status, s.description.replace(/\.$/, ""));
    out[String(s.status)] = {
      ...base,
      content: { "application/json": { schema: ERROR_REF, example } },
    };
  }
  return out;
}
