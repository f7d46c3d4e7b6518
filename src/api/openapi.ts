/**
 * `schemas/openapi.yaml`, generated from the route table: the API as this project
 * understands it, with the operations the spec does not show marked `x-assumed: true`.
 * With an API profile (`phctl api openapi`): the API as the profile makes it — its paths
 * and methods (`x-overridden: true`), list envelope, paging parameters and queue id field.
 */
import { stringify } from "yaml";
import type { OperationId } from "./routes.js";
import {
  DEFAULT_LIST,
  DEFAULT_PROFILE,
  effectiveRoutes,
  overridden,
  type ApiProfile,
} from "./profile.js";
import { paramsSchema, restParam, toOpenApiPath, type RouteDef } from "./route-def.js";
import { ErrorBody } from "./schemas.js";

/** Drop TypeBox's symbol keys and undefined values: plain JSON Schema. */
function plain(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema));
}

type Json = Record<string, unknown>;

/** An object schema holding `value` at a dotted path (`result.items`). */
function nested(dotted: string, value: unknown): Json {
  const [head, ...rest] = dotted.split(".");
  const inner = rest.length ? nested(rest.join("."), value) : value;
  return { type: "object", required: [head], properties: { [head]: inner } };
}

/** A success answer's schema in the profile's shape (lists and queued answers). */
function responseSchema(def: RouteDef, profile: ApiProfile): unknown {
  const schema = plain(def.response) as Json;
  const list = profile.list;
  if (def.paging && JSON.stringify(list) !== JSON.stringify(DEFAULT_LIST)) {
    const props = schema.properties as Json;
    const out = nested(list.items, props.data);
    if (list.pagination === null) return out;
    const f = list.fields;
    const n = { type: "integer" };
    const pagination = {
      type: "object",
      required: [f.page, f.limit, f.total, f.totalPages],
      properties: { [f.page]: n, [f.limit]: n, [f.total]: n, [f.totalPages]: n },
    };
    return { allOf: [out, nested(list.pagination, pagination)] };
  }
  if (def.queue && profile.queueId[0] !== "queueid") {
    const rename = (s: unknown): unknown => {
      const text = JSON.stringify(s).replace(/"queue?id"/g, JSON.stringify(profile.queueId[0]));
      return JSON.parse(text);
    };
    return rename(schema);
  }
  return schema;
}

/** A paged route's query parameter under the profile's name. */
const queryName = (def: RouteDef, name: string, profile: ApiProfile): string => {
  if (!def.paging) return name;
  const k = (Object.keys(DEFAULT_LIST.query) as (keyof typeof DEFAULT_LIST.query)[]).find(
    (q) => DEFAULT_LIST.query[q] === name,
  );
  return k ? profile.list.query[k] : name;
};

export function buildOpenApi(profile: ApiProfile = DEFAULT_PROFILE): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const table = effectiveRoutes(profile);
  for (const [id, def] of Object.entries(table) as [OperationId, RouteDef][]) {
    const path = toOpenApiPath(def.path);
    const parameters: unknown[] = [];
    const params = paramsSchema(def);
    const rest = restParam(def.path);
    if (params) {
      for (const [name, schema] of Object.entries(params.properties)) {
        parameters.push({
          name: name === "*" ? rest : name,
          in: "path",
          required: true,
          schema: plain(schema),
          ...(name === "*" ? { description: "may contain slashes" } : {}),
        });
      }
    }
    if (def.query) {
      const required = new Set(def.query.required ?? []);
      for (const [name, schema] of Object.entries(def.query.properties)) {
        parameters.push({
          name: queryName(def, name, profile),
          in: "query",
          required: required.has(name),
          schema: plain(schema),
        });
      }
    }
    const responses: Record<string, unknown> = {
      [String(def.successStatus)]: def.response
        ? {
            description: "success",
            content: { "application/json": { schema: responseSchema(def, profile) } },
          }
        : { description: "success, no body given by the spec" },
      default: {
        description: "error",
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      },
    };
    const op: Record<string, unknown> = {
      operationId: id,
      summary: def.summary,
      tags: [def.section],
      ...(parameters.length ? { parameters } : {}),
      ...(def.body
        ? {
            requestBody: {
              required: true,
              content: { "application/json": { schema: plain(def.body) } },
            },
          }
        : {}),
      responses,
      ...(def.deprecated ? { deprecated: true } : {}),
      ...(def.assumed ? { "x-assumed": true } : {}),
      ...(overridden(profile, id) ? { "x-overridden": true } : {}),
      ...(def.queue ? { "x-queue": def.queue } : {}),
      ...(def.paging ? { "x-paging": def.paging } : {}),
      security: def.auth === "gitToken" ? [{ privateToken: [] }] : [{ bearerAuthToken: [] }],
      "x-permission": def.auth,
    };
    (paths[path] ??= {})[def.method.toLowerCase()] = op;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Project Hosting Administration API (as phctl reads API-SPEC.md)",
      version: "2026-02",
      description:
        "Generated from src/api/routes.ts by `npm run gen`. Operations marked x-assumed are paths the spec does not show.",
    },
    servers: [{ url: "{base_url}", variables: { base_url: { default: "http://127.0.0.1:8470" } } }],
    components: {
      securitySchemes: {
        bearerAuthToken: { type: "http", scheme: "bearer" },
        privateToken: { type: "apiKey", in: "header", name: "PRIVATE-TOKEN" },
      },
      schemas: { Error: plain(ErrorBody) },
    },
    paths,
  };
}

export function renderOpenApi(profile?: ApiProfile): string {
  const head = profile?.file
    ? `# The API as the API profile ${profile.file} makes it (phctl api openapi).`
    : "# Generated by `npm run gen` from src/api/routes.ts. Do not edit.";
  return `${head}\n${stringify(buildOpenApi(profile), { lineWidth: 0, aliasDuplicateObjects: false })}`;
}
