/**
 * Examples of the OpenAPI document, made from the schemas themselves: a value per property
 * name from one dictionary (a user alice of acme, a project web-portal, …), the first value
 * of an enumeration, one item per array. Each example must validate against its schema
 * (test/api/openapi-validate.test.ts); a pattern no dictionary value fits throws, so a new
 * pattern cannot slip through with a wrong example.
 */
import { SHA, SHARED_EXAMPLES, WHEN, WORDS } from "./openapi-words.js";

type Json = Record<string, unknown>;

/** Strings tried, in order, when a pattern rejects the dictionary's word. */
const FALLBACKS = ["web-portal", "alice", SHA, "1.0.0", "a"];

function stringExample(s: Json, name: string): string {
  if (s.format === "date") return "2026-02-01";
  if (s.format === "date-time") return "2026-02-01T09:30:00Z";
  const timestamp = typeof s.description === "string" && s.description.startsWith("ISO 8601");
  const word = WORDS[name] ?? (timestamp ? WHEN : undefined);
  const candidates = [word, ...FALLBACKS].filter((c): c is string => c !== undefined);
  if (typeof s.pattern !== "string") return candidates[0];
  const re = new RegExp(s.pattern, "u");
  const fit = candidates.find((c) => re.test(c));
  if (fit === undefined)
    throw new Error(`no example for ${name || "a string"} matching ${s.pattern}`);
  return fit;
}

function numberExample(s: Json, name: string): number {
  const byName: Record<string, number> = { page: 1, limit: 10, total: 1, totalPages: 1, value: 3 };
  const n = byName[name] ?? (typeof s.minimum === "number" ? Math.max(s.minimum, 1) : 42);
  return s.type === "integer" ? Math.round(n) : n;
}

/** Deep merge of object examples (allOf). */
function merge(a: unknown, b: unknown): unknown {
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) return b;
  const out: Json = { ...(a as Json) };
  for (const [k, v] of Object.entries(b as Json)) out[k] = merge(out[k], v);
  return out;
}

/** An example value of a JSON schema; `name` is the property it is the value of. */
export function exampleOf(schema: unknown, name = "", refs: Json = {}): unknown {
  const s = schema as Json;
  if (typeof s.$ref === "string") return exampleOf(refs[s.$ref.split("/").pop()!], name, refs);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum.includes(WORDS[name]) ? WORDS[name] : s.enum[0];
  if (Array.isArray(s.allOf))
    return s.allOf.reduce<unknown>((acc, x) => merge(acc, exampleOf(x, name, refs)), {});
  const branches = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (branches) {
    const real = branches.find((b) => b.type !== "null") ?? branches[0];
    return exampleOf(real, name, refs);
  }
  switch (s.type) {
    case "string":
      return stringExample(s, name);
    case "integer":
    case "number":
      return numberExample(s, name);
    case "boolean":
      return !/^(folder|requiresDCO|enableLFS|excludeTags|legacy)$/.test(name);
    case "null":
      return null;
    case "array":
      return [exampleOf(s.items, name, refs)];
    case "object": {
      const props = (s.properties ?? {}) as Json;
      const out: Json = {};
      for (const [k, v] of Object.entries(props)) out[k] = exampleOf(v, k, refs);
      // A commit's id is its sha.
      if (typeof out.shortId === "string" && typeof out.id === "string") out.id = SHA;
      return out;
    }
    default:
      return {};
  }
}

/** Set every envelope code to the answer's HTTP status (`status.code`, a queued `code`). */
export function withCode(example: unknown, code: number): unknown {
  if (Array.isArray(example)) return example.map((e) => withCode(e, code));
  if (typeof example !== "object" || example === null) return example;
  const e = { ...(example as Json) };
  if (typeof e.status === "object" && e.status !== null && "code" in e.status)
    e.status = { ...(e.status as Json), code };
  if (typeof e.code === "number" && "description" in e) {
    e.code = 201;
    e.description = "the change is queued";
  }
  return e;
}

/** The error envelope's example: a shared answer's, or one saying `message`. */
export function errorExample(status: number, message: string, shared = false): Json {
  return (shared && SHARED_EXAMPLES[status]) || { status: { code: status, message } };
}
