/**
 * Turn ajv validation errors of a request into the API's error answer: 400 with one
 * `{field, message}` per problem — or 422 when the body tries to change a field the spec
 * says is immutable (username, email, projectSlug, visibility, repoType), with the reason.
 */
import type { FieldError } from "../api/schemas.js";
import type { Static } from "@sinclair/typebox";

/** Fields that updates can never change, and why (API-SPEC.md). */
export const IMMUTABLE_FIELDS: Readonly<Record<string, string>> = {
  username: "the username cannot be changed after the user is created",
  email: "the email cannot be changed after the user is created",
  externalEmail: "the email cannot be changed after the user is created",
  projectSlug: "the project slug cannot be changed after creation",
  visibility:
    "the visibility of a project cannot be changed through the API; request it by support ticket",
  repoType: "the type of an artifact repository cannot be changed",
};

export interface AjvError {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
  /** With ajv's `verbose`: the schema holding the keyword, and the value checked. */
  parentSchema?: { description?: string; type?: unknown; minimum?: number; maximum?: number };
  data?: unknown;
}

export interface MappedValidation {
  status: 400 | 422;
  message: string;
  errors: Static<typeof FieldError>[];
}

function fieldOf(v: AjvError, part: string): string {
  const base = v.instancePath.replace(/^\//, "").replace(/\//g, ".");
  const extra =
    v.keyword === "additionalProperties"
      ? String(v.params.additionalProperty)
      : v.keyword === "required"
        ? String(v.params.missingProperty)
        : "";
  return [base, extra].filter(Boolean).join(".") || part;
}

/** The bounds of an integer schema, when it has both (query integers: schemas.ts `QueryInt`). */
function integerRange(v: AjvError): string | undefined {
  const s = v.parentSchema;
  if (s?.type !== "integer" || typeof s.minimum !== "number" || typeof s.maximum !== "number")
    return undefined;
  return ["type", "minimum", "maximum", "multipleOf"].includes(v.keyword)
    ? `must be an integer from ${s.minimum} to ${s.maximum}`
    : undefined;
}

function messageOf(v: AjvError): string {
  const range = integerRange(v);
  if (range) return range;
  switch (v.keyword) {
    case "additionalProperties":
      return "unknown field";
    case "required":
      return "is required";
    case "enum":
      return `must be one of ${(v.params.allowedValues as unknown[]).map(String).join(", ")}`;
    case "const":
      return `must be ${String(v.params.allowedValue)}`;
    case "pattern": {
      // A described pattern says what it wants in words, not as a regular expression.
      const said = v.parentSchema?.description;
      if (!said) return v.message ?? "is invalid";
      const got = JSON.stringify(v.data) ?? "";
      return `must be ${said} (got ${got.length > 60 ? `${got.slice(0, 57)}…` : got})`;
    }
    default:
      return v.message ?? "is invalid";
  }
}

/**
 * `queryNames`: query parameters as the client calls them, by the name validation saw (an
 * API profile's paging names are renamed before validation; its 400 names what was sent).
 */
export function mapValidation(
  errors: readonly AjvError[],
  context: string | undefined,
  method: string,
  queryNames?: Readonly<Record<string, string>>,
): MappedValidation {
  const part = context === "querystring" ? "query" : "body";
  const named = (field: string) => (part === "query" ? (queryNames?.[field] ?? field) : field);
  // anyOf/oneOf wrappers repeat what their branches already said.
  const relevant = errors.filter((v) => v.keyword !== "anyOf" && v.keyword !== "oneOf");
  const immutable = relevant.filter(
    (v) =>
      part === "body" &&
      method !== "POST" &&
      v.keyword === "additionalProperties" &&
      v.instancePath === "" &&
      String(v.params.additionalProperty) in IMMUTABLE_FIELDS,
  );
  if (immutable.length > 0) {
    const list = immutable.map((v) => {
      const field = String(v.params.additionalProperty);
      return { field, message: IMMUTABLE_FIELDS[field] };
    });
    return { status: 422, message: list.map((x) => x.message).join("; "), errors: list };
  }
  const seen = new Set<string>();
  const list: Static<typeof FieldError>[] = [];
  for (const v of relevant.length > 0 ? relevant : errors) {
    const e = { field: named(fieldOf(v, part)), message: messageOf(v) };
    const k = `${e.field}\u0000${e.message}`;
    if (!seen.has(k)) {
      seen.add(k);
      list.push(e);
    }
  }
  return {
    status: 400,
    message: `invalid ${part}: ${list.map((x) => `${x.field} ${x.message}`).join("; ")}`,
    errors: list,
  };
}
