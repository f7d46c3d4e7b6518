/**
 * The JSON Schema of an API profile (`schemas/api-profile.schema.json`, `npm run gen`): what
 * an administrator may say about a service whose shape differs from the route table — the
 * method and path of an operation, where a paged list keeps its array and pagination, and
 * which field of a queued answer holds the job id. The loader (profile-load.ts) validates
 * with exactly this object; editors complete operation ids from it.
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import type { HttpMethod } from "./route-def.js";
import { operations } from "./routes.js";

const strict = { additionalProperties: false } as const;

/** A field name, or a dotted path into nested objects (`result.items`). */
const FieldPath = (description: string, examples: string[]) =>
  Type.String({
    pattern: "^[A-Za-z0-9_$-]+(\\.[A-Za-z0-9_$-]+)*$",
    patternErrorMessage: "must be a field name, or a dotted path such as result.items",
    description,
    examples,
  });

/** One field name (no dots). */
const FieldName = (description: string, examples: string[]) =>
  Type.String({
    pattern: "^[A-Za-z0-9_$-]+$",
    patternErrorMessage: "must be a field name (letters, digits, _, - or $)",
    description,
    examples,
  });

const Method = (description: string) =>
  Type.Unsafe<HttpMethod>({
    type: "string",
    enum: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    description,
  });

/** The override of one operation: its method and its path (same `{param}` names). */
function operationOverride(summary: string, method: string, path: string, assumed: boolean) {
  return Type.Object(
    {
      method: Type.Optional(Method(`default ${method}`)),
      path: Type.Optional(
        Type.String({
          pattern: "^/",
          patternErrorMessage: "must start with /",
          description: `default ${path}; use the same {parameters}`,
        }),
      ),
    },
    {
      ...strict,
      description: `${summary} — ${method} ${path}${assumed ? " (assumed: the spec does not show it)" : ""}`,
    },
  );
}

const operationProps: Record<string, TSchema> = {};
for (const [id, def] of operations)
  operationProps[id] = Type.Optional(
    operationOverride(def.summary, def.method, def.path, def.assumed === true),
  );

export const ApiProfileDocument = Type.Object(
  {
    envelope: Type.Optional(
      Type.Object(
        {
          list: Type.Optional(
            Type.Object(
              {
                items: Type.Optional(
                  FieldPath("where the array of a paged list is (default data)", [
                    "items",
                    "result.items",
                  ]),
                ),
                pagination: Type.Optional(
                  Type.Union(
                    [
                      FieldPath("the pagination object (default pagination)", ["paging"]),
                      Type.Null(),
                    ],
                    {
                      description:
                        "the pagination object of a paged list (default pagination); null when the service answers every item at once",
                      errorMessage: "must be a field name (or a dotted path), or null",
                    },
                  ),
                ),
                pageFields: Type.Optional(
                  Type.Object(
                    {
                      page: Type.Optional(FieldName("the current page (default page)", ["page"])),
                      limit: Type.Optional(
                        FieldName("the page size (default limit)", ["pageSize"]),
                      ),
                      total: Type.Optional(
                        FieldName("the number of items (default total)", ["totalItems"]),
                      ),
                      totalPages: Type.Optional(
                        FieldName("the number of pages (default totalPages)", ["pageCount"]),
                      ),
                    },
                    { ...strict, description: "names of the fields of the pagination object" },
                  ),
                ),
                query: Type.Optional(
                  Type.Object(
                    {
                      page: Type.Optional(FieldName("page number (default page)", ["page"])),
                      limit: Type.Optional(FieldName("page size (default limit)", ["per_page"])),
                      all: Type.Optional(FieldName("every item at once (default all)", ["all"])),
                    },
                    { ...strict, description: "names of the paging query parameters" },
                  ),
                ),
              },
              { ...strict, description: "the envelope of paged lists" },
            ),
          ),
        },
        { ...strict, description: "response envelopes" },
      ),
    ),
    queue: Type.Optional(
      Type.Object(
        {
          id: Type.Optional(
            FieldName(
              "the field of a queued operation's answer that holds the job id (default queueid, also queuid)",
              ["jobId"],
            ),
          ),
        },
        { ...strict, description: "answers of queued operations" },
      ),
    ),
    operations: Type.Optional(
      Type.Object(operationProps, {
        ...strict,
        description: "method and path per operation id (phctl api routes lists them)",
      }),
    ),
  },
  {
    ...strict,
    title: "phctl API profile",
    description:
      "how a service differs from phctl's route table: operation paths and methods, list envelope, queue id",
  },
);
export type ApiProfileDocument = Static<typeof ApiProfileDocument>;

/** Where the schema is published, and its file under schemas/. */
export const API_PROFILE_SCHEMA_FILE = "schemas/api-profile.schema.json";

/** The schema as a standalone JSON Schema document (draft 2020-12). */
export function apiProfileSchema(): Record<string, unknown> {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://phctl.example/schemas/v1/api-profile.schema.json",
    ...(JSON.parse(JSON.stringify(ApiProfileDocument)) as Record<string, unknown>),
  };
}

/**
 * The schema the loader validates with: the published one, except that `operations` is
 * one override schema for any key instead of a property per operation id (compiling 139
 * copies costs a quarter of a second at every start); unknown operation ids are the
 * loader's own check (profile.ts `profileProblems`, with a did-you-mean).
 */
export function apiProfileValidationSchema(): Record<string, unknown> {
  const schema = apiProfileSchema();
  const props = schema.properties as Record<string, Record<string, unknown>>;
  const ops = props.operations;
  const one = Object.values(ops.properties as Record<string, Record<string, unknown>>)[0];
  props.operations = {
    type: "object",
    description: ops.description,
    additionalProperties: { ...one, description: "method and path of one operation" },
  };
  return schema;
}

export function renderApiProfileSchema(): string {
  return `${JSON.stringify(apiProfileSchema(), null, 2)}\n`;
}
