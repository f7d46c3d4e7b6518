/**
 * Files generated from one source and committed (editors and users read them): a test
 * fails when a committed copy is out of date; `npm run gen` rewrites them.
 */
import { renderOpenApi } from "./api/openapi.js";
import { API_PROFILE_SCHEMA_FILE, renderApiProfileSchema } from "./api/profile-schema.js";
import { renderSchema, SCHEMA_FILES, type SchemaName } from "./manifest/schema/index.js";
import { Plan } from "./engine/plan.js";
import { renderValidators } from "./manifest/validator-gen.js";
import { VALIDATORS_FILE } from "./manifest/validator.js";

export interface GeneratedFile {
  /** Path relative to the repository root. */
  path: string;
  render(): string;
}

export const generatedFiles: GeneratedFile[] = [
  { path: "schemas/openapi.yaml", render: () => renderOpenApi() },
  { path: API_PROFILE_SCHEMA_FILE, render: renderApiProfileSchema },
  ...(Object.keys(SCHEMA_FILES) as SchemaName[]).map((name) => ({
    path: `schemas/${SCHEMA_FILES[name]}`,
    render: () => renderSchema(name),
  })),
  {
    path: "schemas/plan.schema.json",
    render: () =>
      `${JSON.stringify({ $schema: "http://json-schema.org/draft-07/schema#", ...Plan }, null, 2)}\n`,
  },
  { path: VALIDATORS_FILE, render: renderValidators },
  // examples/ is a complete config directory, as `phctl export` writes one: copied anywhere,
  // its modelines still find their schemas.
  ...(["manifest", "config"] as const).map((name) => ({
    path: `examples/schemas/${SCHEMA_FILES[name]}`,
    render: () => renderSchema(name),
  })),
];
