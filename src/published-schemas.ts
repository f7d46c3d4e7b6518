/**
 * The schemas phctl publishes in schemas/, by the name `phctl schema NAME` takes: the
 * manifests (all kinds, each kind), phctl.yaml, a saved plan, a report, the live objects policy
 * rules see, an API profile and the API
 * itself. `npm run gen` writes each (src/generated.ts), and a test holds the committed
 * copies to these renderings, so what `phctl schema` prints is what the package ships.
 */
import { renderOpenApi } from "./api/openapi.js";
import { API_PROFILE_SCHEMA_FILE, renderApiProfileSchema } from "./api/profile-schema.js";
import { Plan } from "./engine/plan.js";
import { Report } from "./report/types.js";
import { renderSchema, SCHEMA_FILES, type SchemaName } from "./manifest/schema/index.js";
import { renderLiveSchema } from "./policy/live-schema.js";

/** One published schema: its name, its file (from the package root) and its text. */
export interface PublishedSchema {
  name: string;
  path: string;
  render(): string;
}

/** Every published schema, in the order `phctl schema --help` lists them. */
export const publishedSchemas: readonly PublishedSchema[] = [
  ...(Object.keys(SCHEMA_FILES) as SchemaName[]).map((name) => ({
    name,
    path: `schemas/${SCHEMA_FILES[name]}`,
    render: () => renderSchema(name),
  })),
  {
    name: "plan",
    path: "schemas/plan.schema.json",
    render: () =>
      `${JSON.stringify({ $schema: "http://json-schema.org/draft-07/schema#", ...Plan }, null, 2)}\n`,
  },
  {
    name: "report",
    path: "schemas/report.schema.json",
    render: () =>
      `${JSON.stringify({ $schema: "http://json-schema.org/draft-07/schema#", ...Report }, null, 2)}\n`,
  },
  { name: "live", path: "schemas/live.schema.json", render: renderLiveSchema },
  { name: "api-profile", path: API_PROFILE_SCHEMA_FILE, render: renderApiProfileSchema },
  { name: "openapi", path: "schemas/openapi.yaml", render: () => renderOpenApi() },
];
