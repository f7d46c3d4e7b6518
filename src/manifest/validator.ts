/**
 * Schema validation of one document (draft 2020-12, all errors). The validators are ajv's
 * standalone code, generated from the same schema objects that are written to schemas/ and
 * committed as schemas/validators.cjs (`npm run gen`; a test fails when it is stale):
 * compiling the schemas at every start cost more CPU than validating 10,000 documents.
 */
import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import type { Kind } from "./schema/index.js";

export type SchemaTarget = Kind | "Config";

/** Where the generated validators live, relative to the repository root. */
export const VALIDATORS_FILE = "schemas/validators.cjs";

let validators: Record<SchemaTarget, ValidateFunction> | undefined;

/** Validate `data` against a kind's schema (or phctl.yaml's). */
export function validateAgainst(target: SchemaTarget, data: unknown): ErrorObject[] {
  // src/manifest and dist/manifest are both two levels below the repository root.
  validators ??= createRequire(import.meta.url)(`../../${VALIDATORS_FILE}`) as Record<
    SchemaTarget,
    ValidateFunction
  >;
  const v = validators[target];
  return v(data) ? [] : [...(v.errors ?? [])];
}
