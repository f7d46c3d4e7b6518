/**
 * ajv errors → diagnostics people can act on: one per problem, at the offending key or
 * value, with the field path, the allowed values and a "did you mean" hint. Alternatives
 * (anyOf) report only the branch that fits the value's shape.
 */
import type { ErrorObject } from "ajv";
import { makeDiagnostic, formatPath, type DiagnosticExtra } from "./diagnostics.js";
import { closest, didYouMean } from "./hints.js";
import type { DocHandle, FieldPath } from "./positions.js";
import type { Diagnostic } from "./types.js";

const SHAPE_KEYWORDS = new Set(["type", "const", "enum"]);

/** Drop `if` and `propertyNames` noise; for each failed anyOf keep the errors of the branch that fits best. */
export function pruneAlternatives(errors: readonly ErrorObject[]): ErrorObject[] {
  // `if` fails by design; `propertyNames` repeats the error of the name's own pattern.
  let list = errors.filter((e) => e.keyword !== "if" && e.keyword !== "propertyNames");
  const alternatives = list
    .filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf")
    .sort((a, b) => b.schemaPath.length - a.schemaPath.length);
  for (const alt of alternatives) {
    const prefix = `${alt.schemaPath}/`;
    const subs = list.filter((e) => e.schemaPath.startsWith(prefix));
    const branches = new Map<string, ErrorObject[]>();
    for (const e of subs) {
      const branch = e.schemaPath.slice(prefix.length).split("/")[0] ?? "";
      branches.set(branch, [...(branches.get(branch) ?? []), e]);
    }
    const plausible = [...branches.values()]
      .filter(
        (errs) =>
          !errs.some((e) => e.instancePath === alt.instancePath && SHAPE_KEYWORDS.has(e.keyword)),
      )
      .sort((a, b) => a.length - b.length);
    const best = plausible[0];
    list = list.filter((e) => !subs.includes(e) && (best === undefined || e !== alt));
    if (best) list.push(...best);
  }
  return list;
}

/** JSON pointer → path segments (array indices as numbers, following the data). */
function segments(pointer: string, data: unknown): (string | number)[] {
  if (pointer === "") return [];
  const out: (string | number)[] = [];
  let cur = data;
  for (const raw of pointer.slice(1).split("/")) {
    const seg = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(cur)) {
      out.push(Number(seg));
      cur = cur[Number(seg)];
    } else {
      out.push(seg);
      cur =
        cur !== null && typeof cur === "object" ? (cur as Record<string, unknown>)[seg] : undefined;
    }
  }
  return out;
}

const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  boolean: "true or false",
  integer: "a whole number",
  number: "a number",
  array: "a list",
  object: "a mapping",
  null: "null",
};

const FORMAT_WORDS: Record<string, string> = {
  email: "an e-mail address",
  hostname: "a domain name",
  uri: "a URL",
  date: "a date (YYYY-MM-DD)",
  "date-time": "an ISO 8601 date-time",
};

const shown = (v: unknown) => {
  const s = typeof v === "string" ? JSON.stringify(v) : String(JSON.stringify(v));
  return s.length > 60 ? `${s.slice(0, 57)}…"` : s;
};

function typeHint(expected: string[], value: unknown): string | undefined {
  if (value === null) return "the value is empty";
  if (expected.includes("boolean") && typeof value === "string")
    return /^(y|yes|n|no|on|off|true|false)$/i.test(value)
      ? "write true or false, without quotes"
      : undefined;
  if (expected.includes("string") && (typeof value === "number" || typeof value === "boolean"))
    return `quote it: "${String(value)}"`;
  if (expected.includes("array") && typeof value === "string") return `write a list: [${value}]`;
  return undefined;
}

interface Described {
  path: FieldPath;
  which: "key" | "value";
  /** Where to point when the field itself is missing. */
  anchor?: FieldPath;
  code: string;
  message: string;
  hint?: string | undefined;
}

function describe(e: ErrorObject, data: unknown): Described {
  const p = segments(e.instancePath, data);
  const fp = (path: FieldPath) => formatPath(path) || "the document";
  const parent = (e.parentSchema ?? {}) as Record<string, unknown>;
  const value = e.data;
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required": {
      const path = [...p, String(params.missingProperty)];
      return {
        path,
        anchor: p,
        which: "key",
        code: "missing-field",
        message: `${fp(path)} is required`,
      };
    }
    case "additionalProperties": {
      const field = String(params.additionalProperty);
      const path = [...p, field];
      const props = (parent.properties ?? {}) as Record<string, { doNotSuggest?: boolean }>;
      const known = Object.keys(props).filter((k) => props[k]?.doNotSuggest !== true);
      const hint =
        didYouMean(field, known) ??
        (known.length ? `expected one of ${known.join(", ")}` : "no fields are allowed here");
      return {
        path,
        which: "key",
        code: "unknown-field",
        message: `${fp(path)} is not a known field`,
        hint,
      };
    }
    case "enum": {
      const allowed = (params.allowedValues as unknown[]).map(String);
      return {
        path: p,
        which: "value",
        code: "invalid-value",
        message: `${fp(p)} must be one of ${allowed.join(", ")}`,
        hint: typeof value === "string" ? didYouMean(value, allowed) : typeHint(["string"], value),
      };
    }
    case "const":
      return {
        path: p,
        which: "value",
        code: "invalid-value",
        message: `${fp(p)} must be ${shown(params.allowedValue)}`,
      };
    case "type": {
      const expected = String(params.type).split(",");
      const words = expected.map((t) => TYPE_WORDS[t] ?? t).join(" or ");
      return {
        path: p,
        which: "value",
        code: "wrong-type",
        message: `${fp(p)} must be ${words}`,
        hint: typeHint(expected, value),
      };
    }
    case "pattern": {
      const what =
        typeof parent.patternErrorMessage === "string"
          ? parent.patternErrorMessage
          : `must match ${String(params.pattern)}`;
      const examples =
        parent.examplesAreHints === true && Array.isArray(parent.examples)
          ? parent.examples.map(String)
          : [];
      const near = typeof value === "string" ? closest(value, examples) : undefined;
      return {
        path: p,
        which: "value",
        code: "invalid-format",
        message: `${fp(p)} ${what}, got ${shown(value)}`,
        hint: near === undefined ? undefined : `did you mean ${near}?`,
      };
    }
    case "format": {
      const what = FORMAT_WORDS[String(params.format)] ?? `a ${String(params.format)}`;
      return {
        path: p,
        which: "value",
        code: "invalid-format",
        message: `${fp(p)} must be ${what}, got ${shown(value)}`,
      };
    }
    case "minLength":
      return {
        path: p,
        which: "value",
        code: "out-of-range",
        message:
          params.limit === 1
            ? `${fp(p)} must not be empty`
            : `${fp(p)} must be at least ${String(params.limit)} characters`,
      };
    case "maxLength":
      return {
        path: p,
        which: "value",
        code: "out-of-range",
        message: `${fp(p)} must be at most ${String(params.limit)} characters${p.includes("labels") ? "" : " (it becomes part of API paths)"}, got ${String(value).length}`,
      };
    case "minItems":
      return {
        path: p,
        which: "value",
        code: "out-of-range",
        message: `${fp(p)} must list at least ${String(params.limit)} item${params.limit === 1 ? "" : "s"} (leave it out to match every one)`,
      };
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum": {
      const words = {
        minimum: "at least",
        maximum: "at most",
        exclusiveMinimum: "more than",
        exclusiveMaximum: "less than",
      }[e.keyword];
      return {
        path: p,
        which: "value",
        code: "out-of-range",
        message: `${fp(p)} must be ${words} ${String(params.limit)}`,
      };
    }
    case "not":
      return {
        path: p,
        which: "key",
        code: "not-allowed",
        message: `${fp(p)} ${typeof parent.errorMessage === "string" ? parent.errorMessage : "is not allowed here"}`,
      };
    case "anyOf":
    case "oneOf": {
      const branches = (Array.isArray(e.schema) ? e.schema : []) as { type?: unknown }[];
      const types = branches.flatMap((b) => (typeof b.type === "string" ? [b.type] : []));
      return {
        path: p,
        which: "value",
        code: "wrong-type",
        message: `${fp(p)} ${typeof parent.errorMessage === "string" ? parent.errorMessage : "does not match any allowed form"}`,
        hint: typeHint(types, value),
      };
    }
    default:
      return {
        path: p,
        which: "value",
        code: "invalid-value",
        message: `${fp(p)} ${e.message ?? "is invalid"}`,
      };
  }
}

/** Diagnostics for a document's schema errors; `subject` names the document's kind and name. */
export function schemaDiagnostics(
  errors: readonly ErrorObject[],
  data: unknown,
  handle: DocHandle,
  subject: Pick<DiagnosticExtra, "kind" | "name">,
): Diagnostic[] {
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const e of pruneAlternatives(errors)) {
    const d = describe(e, data);
    const at = d.anchor ? handle.at(d.anchor, "key") : handle.at(d.path, d.which);
    const key = `${at.line}:${at.column}:${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(
      makeDiagnostic("error", d.code, at, d.message, {
        ...subject,
        path: formatPath(d.path),
        hint: d.hint,
      }),
    );
  }
  return out;
}
