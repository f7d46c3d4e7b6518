/**
 * An ajv error of a response checker (strict.ts) as a `Mismatch` people can act on: the
 * deepest field that failed, what its schema wants in words, and what came.
 */
import type { ErrorObject } from "ajv";
import type { OperationId } from "./routes.js";
import { describeValue, type Mismatch } from "./shape-error.js";

const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
  array: "an array",
  object: "an object",
  null: "null",
};

/** What a schema wants, in words (`a string or null`, `one of open, completed`). */
export function expectedOf(schema: unknown): string {
  if (typeof schema !== "object" || schema === null) return "a value";
  const s = schema as { enum?: unknown[]; const?: unknown; anyOf?: unknown[]; type?: unknown };
  if (Array.isArray(s.enum)) {
    const values = s.enum.map(String);
    const shown = values.slice(0, 6).join(", ");
    return `one of ${shown}${values.length > 6 ? ", …" : ""}`;
  }
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.anyOf)) return [...new Set(s.anyOf.map(expectedOf))].join(" or ");
  if (Array.isArray(s.type)) return s.type.map((t) => TYPE_WORDS[String(t)] ?? t).join(" or ");
  if (typeof s.type === "string") return TYPE_WORDS[s.type] ?? s.type;
  return "a value";
}

/** The instance path an error is about (a missing field's own path for `required`). */
function pathOf(e: ErrorObject): string {
  if (e.keyword !== "required") return e.instancePath;
  const missing = String((e.params as { missingProperty?: unknown }).missingProperty);
  return `${e.instancePath}/${missing.replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

/**
 * The error to report: the first, except that a failed alternative (`anyOf`, as every
 * nullable field is) is reported by its deepest branch error when one reaches into the
 * value (an object that lacks a field), else as the alternative itself.
 */
function pick(errors: readonly ErrorObject[]): ErrorObject {
  const alt = errors.find((e) => e.keyword === "anyOf");
  if (!alt) return errors[0];
  const deeper = errors.find(
    (e) =>
      e !== alt &&
      pathOf(e).length > alt.instancePath.length &&
      pathOf(e).startsWith(`${alt.instancePath}/`),
  );
  return deeper ?? alt;
}

const lastField = (pointer: string) => pointer.slice(pointer.lastIndexOf("/") + 1);

/** The mismatch of a failed check of the value at `base` (a JSON pointer). */
export function mismatchOfErrors(
  operation: OperationId,
  errors: readonly ErrorObject[],
  base: string,
): Mismatch {
  const e = pick(errors);
  const path = `${base}${pathOf(e)}`;
  if (e.keyword === "required") {
    const missing = String((e.params as { missingProperty?: unknown }).missingProperty);
    const parent = e.parentSchema as { properties?: Record<string, unknown> } | undefined;
    const holder = e.data;
    return {
      operation,
      path,
      expected: expectedOf(parent?.properties?.[missing]),
      got: "nothing",
      ...(typeof holder === "object" && holder !== null && !Array.isArray(holder)
        ? { had: Object.keys(holder) }
        : {}),
    };
  }
  const schema = e.keyword === "anyOf" ? { anyOf: e.schema } : e.parentSchema;
  return {
    operation,
    path,
    expected: expectedOf(schema),
    got: describeValue(e.data, lastField(path)),
  };
}
