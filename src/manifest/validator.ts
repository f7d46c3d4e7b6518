/**
 * Schema validation of one document with ajv (draft 2020-12, all errors), compiled once
 * per schema from the same objects that are written to schemas/.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { ANNOTATION_KEYWORDS } from "./schema/common.js";
import { configSchema, kindSchema, manifestSchema, type Kind } from "./schema/index.js";

// ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

function instance(): Ajv2020 {
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
    addFormats(ajv);
    ajv.addVocabulary([...ANNOTATION_KEYWORDS]);
  }
  return ajv;
}

function validator(name: string, schema: () => Record<string, unknown>): ValidateFunction {
  let v = compiled.get(name);
  if (!v) {
    v = instance().compile(schema());
    compiled.set(name, v);
  }
  return v;
}

export type SchemaTarget = Kind | "Config" | "Manifest";

/** Validate `data` against a kind's schema (or phctl.yaml's, or the dispatching one). */
export function validateAgainst(target: SchemaTarget, data: unknown): ErrorObject[] {
  const v =
    target === "Config"
      ? validator("config", configSchema)
      : target === "Manifest"
        ? validator("manifest", manifestSchema)
        : validator(target, () => kindSchema(target));
  return v(data) ? [] : [...(v.errors ?? [])];
}
