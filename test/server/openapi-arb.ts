/**
 * fast-check arbitraries built from the JSON Schemas of the OpenAPI document: values that
 * fit a schema (biased toward `hints`, values known to name live objects, so requests get
 * past "not found"), and mutations that break a request in one place (a wrong type, a
 * missing required field, an unknown field, a value outside an enumeration or pattern).
 */
import fc from "fast-check";

export type Json = Record<string, any>;
/** Values worth trying per property or parameter name. */
export type Hints = Readonly<Record<string, readonly unknown[]>>;

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const dates = fc.date({
  min: new Date("2024-01-01T00:00:00Z"),
  max: new Date("2027-12-31T00:00:00Z"),
  noInvalidDate: true,
});

function stringArb(s: Json): fc.Arbitrary<string> {
  if (s.format === "date") return dates.map(isoDay);
  if (s.format === "date-time") return dates.map((d) => d.toISOString());
  const max = Math.min(s.maxLength ?? 24, 24);
  const min = s.minLength ?? 0;
  const base =
    typeof s.pattern === "string"
      ? fc.stringMatching(new RegExp(s.pattern))
      : fc.string({ minLength: min, maxLength: Math.max(min, max) });
  return base.filter(
    (v) => v.length >= min && (s.maxLength === undefined || v.length <= s.maxLength),
  );
}

/** Values that fit `schema`; `name` picks the hints. */
export function arbOf(schema: Json, name: string, hints: Hints): fc.Arbitrary<unknown> {
  const own = hints[name];
  const generic = genericArb(schema, name, hints);
  return own && own.length > 0
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...own) }, { weight: 1, arbitrary: generic })
    : generic;
}

function genericArb(s: Json, name: string, hints: Hints): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const branches = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (branches) return fc.oneof(...branches.map((b) => genericArb(b, name, hints)));
  switch (s.type) {
    case "string":
      return stringArb(s);
    case "integer":
      return integerArb(s);
    case "number":
      return fc.double({ min: -10, max: 1000, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(arbOf(s.items as Json, `${name}[]`, hints), {
        minLength: s.minItems ?? 0,
        maxLength: Math.max(s.minItems ?? 0, 3),
      });
    case "object":
      return objectArb(s, hints);
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

/**
 * Integers of a schema: mostly small ones, sometimes its bounds, and, when it documents no
 * upper bound, huge ones (a server that multiplies a page number must still answer).
 */
function integerArb(s: Json): fc.Arbitrary<number> {
  const min = typeof s.minimum === "number" ? s.minimum : undefined;
  const max = typeof s.maximum === "number" ? s.maximum : undefined;
  const small = fc.integer({ min: min ?? -3, max: Math.min(max ?? 400, Math.max(min ?? 0, 400)) });
  const edges = [min, max ?? 1e18, max === undefined ? Number.MAX_SAFE_INTEGER : undefined];
  const wide = edges.filter((x): x is number => x !== undefined);
  return fc.oneof(
    { weight: 4, arbitrary: small },
    { weight: 1, arbitrary: fc.constantFrom(...wide) },
  );
}

function objectArb(s: Json, hints: Hints): fc.Arbitrary<Json> {
  const props = (s.properties ?? {}) as Record<string, Json>;
  if (Object.keys(props).length === 0 && s.patternProperties) {
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), {
      maxKeys: 2,
    });
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, v] of Object.entries(props)) model[k] = arbOf(v, k, hints);
  return fc.record(model, { requiredKeys: (s.required ?? []) as string[] });
}

/** A value of another JSON type than the schema wants (null where null is not allowed). */
function wrongValue(s: Json): unknown {
  const types = new Set<string>();
  const collect = (x: Json) => {
    if (typeof x.type === "string") types.add(x.type);
    for (const b of (x.anyOf ?? x.oneOf ?? []) as Json[]) collect(b);
    if (x.enum) types.add("string");
  };
  collect(s);
  if (!types.has("null")) return null;
  if (!types.has("string")) return "text";
  return 12.5;
}

/** A string the schema rejects, or undefined when it takes any string. */
function badString(s: Json): string | undefined {
  if (Array.isArray(s.enum)) return "no-such-value";
  if (s.format === "date" || s.format === "date-time" || s.anyOf) return "foo 1";
  if (typeof s.pattern === "string") return "!! not valid !!";
  if (s.type === "integer" || s.type === "number") return "ten";
  if (s.type === "boolean") return "maybe";
  if (typeof s.maxLength === "number") return "x".repeat(s.maxLength + 1);
  return undefined;
}

/**
 * Texts an integer query parameter must refuse: past its bounds, not finite, and integers
 * not written in decimal digits (`1e3` is 1000 to JavaScript, and `1e309` is Infinity).
 */
function badIntegers(s: Json): string[] {
  if (s.type !== "integer") return [];
  const out = ["1e309", "Infinity", "-Infinity", "NaN", "1e3", "0x10", "1.5", "1e20"];
  if (typeof s.maximum === "number") out.push(String(s.maximum + 1));
  if (typeof s.minimum === "number") out.push(String(s.minimum - 1));
  return out;
}

export type Mutation =
  | { kind: "body"; body: unknown }
  | { kind: "query"; name: string; value: string | undefined }
  | { kind: "param"; name: string; value: string };

/** Ways to break one valid request of an operation (body, query, path parameters). */
export function mutations(
  body: Json | undefined,
  bodySchema: Json | undefined,
  query: Json[],
  params: Json[],
): Mutation[] {
  const out: Mutation[] = [];
  if (bodySchema) {
    const b = body && typeof body === "object" && !Array.isArray(body) ? body : {};
    out.push({ kind: "body", body: { ...b, zzUnknown: 1 } }, { kind: "body", body: [] });
    for (const [k, v] of Object.entries((bodySchema.properties ?? {}) as Record<string, Json>))
      out.push({ kind: "body", body: { ...b, [k]: wrongValue(v) } });
    for (const k of (bodySchema.required ?? []) as string[]) {
      const rest = { ...b };
      delete rest[k];
      out.push({ kind: "body", body: rest });
    }
  }
  for (const q of query) {
    const bad = badString(q.schema as Json);
    if (bad !== undefined) out.push({ kind: "query", name: q.name as string, value: bad });
    for (const v of badIntegers(q.schema as Json))
      out.push({ kind: "query", name: q.name as string, value: v });
    if (q.required) out.push({ kind: "query", name: q.name as string, value: undefined });
  }
  for (const p of params) {
    const s = p.schema as Json;
    const bad = s.type === "integer" ? "not-a-number" : (badString(s) ?? "..");
    out.push({ kind: "param", name: p.name as string, value: bad });
  }
  return out;
}
