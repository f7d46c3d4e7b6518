/**
 * Schema validation of one document (draft 2020-12, all errors). The validators are ajv's
 * standalone code, generated from the same schema objects that are written to schemas/ and
 * committed as schemas/validators.cjs (`npm run gen`; a test fails when it is stale):
 * compiling the schemas at every start cost more CPU than validating 10,000 documents.
 *
 * In the CLI's bundles (scripts/bundle.js) the same file is bundle-validators.cjs, loaded
 * through the bundle's own `require`, which is src/cli/bundle-load.ts's: with its V8 code
 * cache, a first validation costs ≈ 10 ms of CPU instead of ≈ 50 (1 MB of generated code to
 * compile; bench/startup.ts).
 */
import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import type { Kind } from "./schema/index.js";

export type SchemaTarget = Kind | "Config";

/** Where the generated validators live, relative to the repository root. */
export const VALIDATORS_FILE = "schemas/validators.cjs";

/** `true` in the CLI's bundles (esbuild's `define`), undeclared elsewhere. */
declare const PHCTL_BUNDLED: boolean | undefined;

let validators: Record<SchemaTarget, ValidateFunction> | undefined;

function loadValidators(): Record<SchemaTarget, ValidateFunction> {
  if (typeof PHCTL_BUNDLED !== "undefined" && PHCTL_BUNDLED)
    // The bundle's wrapper `require` (bundle-load.ts): the sibling bundle with its cache.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require("./bundle-validators.cjs") as Record<SchemaTarget, ValidateFunction>;
  // src/manifest and dist/manifest are both two levels below the repository root.
  return createRequire(import.meta.url)(`../../${VALIDATORS_FILE}`) as Record<
    SchemaTarget,
    ValidateFunction
  >;
}

/** Validate `data` against a kind's schema (or phctl.yaml's). */
export function validateAgainst(target: SchemaTarget, data: unknown): ErrorObject[] {
  validators ??= loadValidators();
  const v = validators[target];
  return v(data) ? [] : [...(v.errors ?? [])];
}
