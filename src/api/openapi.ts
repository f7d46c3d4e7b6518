/**
 * `schemas/openapi.yaml`, generated from the route table: the API as the reference server
 * answers it — every status of every operation (route-status.ts), the patterns, formats,
 * enumerations and limits the server enforces, an example per operation — with the
 * operations the spec does not show marked `x-assumed: true`. With an API profile
 * (`phctl api openapi`): the API as the profile makes it — its paths and methods
 * (`x-overridden: true`), list envelope, paging parameters and queue id field.
 */
import type { TSchema } from "@sinclair/typebox";
import { stringify } from "yaml";
import type { OperationId } from "./routes.js";
import {
  DEFAULT_LIST,
  DEFAULT_PROFILE,
  effectiveRoutes,
  overridden,
  type ApiProfile,
} from "./profile.js";
import { toOpenApiPath, type RouteDef } from "./route-def.js";
import { ErrorBody } from "./schemas.js";
import {
  parameters,
  plain,
  requestBody,
  responses,
  sharedResponses,
  type Json,
} from "./openapi-operation.js";

/** An object schema holding `value` at a dotted path (`result.items`). */
function nested(dotted: string, value: unknown): Json {
  const [head, ...rest] = dotted.split(".");
  const inner = rest.length ? nested(rest.join("."), value) : value;
  return { type: "object", required: [head], properties: { [head]: inner } };
}

/** A success answer's schema in the profile's shape (lists and queued answers). */
function shaped(def: RouteDef, response: TSchema, profile: ApiProfile): Json {
  const schema = plain(response);
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
    const text = JSON.stringify(schema).replace(/"queue?id"/g, JSON.stringify(profile.queueId[0]));
    return JSON.parse(text) as Json;
  }
  return schema;
}

function operation(id: OperationId, def: RouteDef, profile: ApiProfile): Json {
  const params = parameters(def, profile);
  const body = requestBody(def);
  return {
    operationId: id,
    summary: def.summary,
    tags: [def.section],
    ...(params.length ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: responses(def, (schema) => shaped(def, schema, profile)),
    ...(def.deprecated ? { deprecated: true } : {}),
    ...(def.assumed ? { "x-assumed": true } : {}),
    ...(overridden(profile, id) ? { "x-overridden": true } : {}),
    ...(def.queue ? { "x-queue": def.queue } : {}),
    ...(def.paging ? { "x-paging": def.paging } : {}),
    security: def.auth === "gitToken" ? [{ privateToken: [] }] : [{ bearerAuthToken: [] }],
    "x-permission": def.auth,
  };
}

const DESCRIPTION = `Generated from src/api/routes.ts by \`npm run gen\`. Operations marked x-assumed are paths the spec does not show.

Every operation lists every status the reference server (\`phctl serve\`) answers, errors in one envelope \`{status: {code, message}, errors?: [{field, message}]}\`. Answered before a request reaches an operation: 404 for an unknown path, 405 with \`Allow\` for a method a known path does not have, 431 for oversized headers. 429 and 503 stand for the service's rate limits and outages: the reference server answers them only when faults are injected (\`--fault-rate\`). An integer query parameter is written in decimal digits (\`-\` first where negatives are in range) within its minimum and maximum; anything else (\`1e3\`, \`Infinity\`, a larger number) is 400 naming the parameter.`;

export function buildOpenApi(profile: ApiProfile = DEFAULT_PROFILE): Record<string, unknown> {
  const paths: Record<string, Json> = {};
  const table = effectiveRoutes(profile);
  for (const [id, def] of Object.entries(table) as [OperationId, RouteDef][]) {
    (paths[toOpenApiPath(def.path)] ??= {})[def.method.toLowerCase()] = operation(id, def, profile);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Project Hosting Administration API (as phctl understands it: docs/api.md)",
      version: "2026-02",
      description: DESCRIPTION,
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    },
    servers: [
      {
        url: "{base_url}",
        description: "The service, or the reference server (phctl serve)",
        variables: { base_url: { default: "http://127.0.0.1:8470" } },
      },
    ],
    components: {
      securitySchemes: {
        bearerAuthToken: { type: "http", scheme: "bearer" },
        privateToken: { type: "apiKey", in: "header", name: "PRIVATE-TOKEN" },
      },
      schemas: { Error: plain(ErrorBody) },
      responses: sharedResponses(),
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
