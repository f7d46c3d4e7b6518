/**
 * Request validation: two ajv instances, chosen by the part of the request a schema is for.
 *
 * - Bodies are JSON, so their types are what the client sent: no coercion. `null` where
 *   the schema does not allow it, `"3"` for an integer, `false` for a string or `"alice"`
 *   for a list are 400 naming the field — ajv's `coerceTypes` would have turned them into
 *   `false`, `3`, `"false"` and `["alice"]` and the request would have done something.
 * - Query strings and path parameters are text: `?page=2` is the integer 2, `?all=true`
 *   the boolean, and one `?tiers=x` a list of one (`coerceTypes: "array"`). An integer in
 *   the query is decimal digits within its schema's bounds (`textIntegerErrors`), and so
 *   is an integer path parameter (`/pipelines/0x10` is no pipeline, not pipeline 16).
 *
 * Both fill in schema defaults (`useDefaults`) and report every error at once. Validators
 * are compiled on first use: compiling ~140 routes' schemas up front would cost most of a
 * second of startup.
 */
import type { FastifyInstance, FastifySchemaValidationError } from "fastify";
import { Ajv, type Options, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { AjvError } from "./validation-errors.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const COMMON: Options = {
  removeAdditional: false,
  useDefaults: true,
  allErrors: true,
  strict: false,
  // Errors carry their schema, so a pattern's `description` can word the message.
  verbose: true,
  // The route table's schemas are ours and tested: compiling the meta-schema to check them
  // again costs ~25 ms on the first request.
  validateSchema: false,
};

function ajvWith(options: Options): Ajv {
  const ajv = new Ajv({ ...COMMON, ...options });
  addFormats(ajv);
  return ajv;
}

/** The ajv instances of one server (exported for tests of the two behaviours). */
export function requestValidators(): { body: Ajv; text: Ajv } {
  return { body: ajvWith({ coerceTypes: false }), text: ajvWith({ coerceTypes: "array" }) };
}

/** A decimal integer as a query string writes it; ajv's coercion also takes `1e3`, `0x10`, ` 1`. */
const DECIMAL_INTEGER = /^-?[0-9]+$/;

interface IntSchema {
  type?: unknown;
  minimum?: number;
  maximum?: number;
}

/**
 * ajv-shaped errors for integer query and path parameters not written in decimal digits: ajv's
 * coercion reads `Infinity`, `1e309` (Infinity) and `1e3` as numbers (`+text`), which
 * let a non-finite page through to the answer as `null`. Range is ajv's own check.
 */
export function textIntegerErrors(schema: unknown, data: unknown): AjvError[] {
  const props = (schema as { properties?: Record<string, IntSchema> }).properties ?? {};
  const query = (data ?? {}) as Record<string, unknown>;
  const out: AjvError[] = [];
  for (const [name, s] of Object.entries(props)) {
    const v = query[name];
    if (s.type !== "integer" || v === undefined) continue;
    const texts = Array.isArray(v) ? v : [v];
    if (texts.every((t) => typeof t !== "string" || DECIMAL_INTEGER.test(t))) continue;
    out.push({
      instancePath: `/${name}`,
      keyword: "type",
      params: { type: "integer" },
      message: "must be integer",
      parentSchema: s,
      data: v,
    });
  }
  return out;
}

/** Install the validator compiler: strict bodies, coerced query strings and path parameters. */
export function installValidation(app: FastifyInstance): void {
  const ajv = requestValidators();
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const instance = httpPart === "body" ? ajv.body : ajv.text;
    let compiled: ValidateFunction | undefined;
    const validate = (data: unknown) => {
      compiled ??= instance.compile(schema);
      const texts = httpPart === "body" ? [] : textIntegerErrors(schema, data);
      const valid = compiled(data) && texts.length === 0;
      // The parameters refused for their text replace what ajv said of their coerced value.
      const named = new Set(texts.map((e) => e.instancePath));
      const others = (compiled.errors ?? []).filter((e) => !named.has(e.instancePath));
      const errors = [...texts, ...others];
      validate.errors = (errors.length > 0 ? errors : null) as
        FastifySchemaValidationError[] | null;
      return valid;
    };
    validate.errors = null as FastifySchemaValidationError[] | null;
    return validate;
  });
}
