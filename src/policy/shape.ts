/**
 * What CEL sees of a manifest, derived from the kind's JSON Schema (one schema source): the
 * CEL type of every field, for type-checking rules at load, and the view of a document rules
 * are evaluated on. The view is the document with the schema's defaults filled in, every
 * list and label map present (empty when not written), and so every mapping made only of
 * lists and such mappings (`spec.access` and its levels); shorthand lists of usernames written
 * as their mapping (`admins: [a]` is `admins: {users: [a]}`), tombstones dropped, integers
 * as CEL ints. Scalars without a default and other mappings (`spec.git`, `commitBlocker`)
 * stay absent when not written: test them with `has()`. `inherit`, a word of layering, is
 * never part of the view. A grant written `{ user: bob, expires: D }` is `bob` in its list,
 * and its date is in the mapping's `expires` map (`admins.expires["bob"] == D`).
 */
export type JsonSchema = Record<string, unknown>;

/** The shape of one value. */
export type Shape =
  | { t: "string"; grant?: "user" | "team" }
  | { t: "bool" | "int" | "double" | "dyn" }
  | { t: "list"; item: Shape }
  | { t: "map"; value: Shape }
  | ObjectShape;

export interface ObjectShape {
  t: "object";
  fields: Record<string, Shape>;
  /** Schema defaults of scalar fields. */
  defaults: Record<string, unknown>;
  /** A list written in place of the mapping is this field's value (access shorthand). */
  listField?: string;
  /** Only lists, maps and containers: present (empty) when not written. */
  container: boolean;
  /**
   * Lists of grants (`{ user: bob, expires: … }` or a name): the view lists their names and
   * adds `expires`, a map of name → last day, for the items that have one.
   */
  grantLists?: string[];
}

/** The field a mapping with grant lists gets in the view: name → `expires` (YYYY-MM-DD). */
export const EXPIRES_FIELD = "expires";

/**
 * `inherit: false` (src/manifest/schema/layering.ts) says how Defaults apply; merging drops it,
 * so it is no field of the view, and a mapping made of lists and `inherit` is a container.
 */
const INHERIT = "inherit";

const props = (s: JsonSchema) => s.properties as Record<string, JsonSchema> | undefined;

/** The shape a JSON Schema describes; `if/then/else` (tombstones) is its `else`. */
export function shapeOf(s: JsonSchema): Shape {
  if (s.else && typeof s.else === "object") {
    // A grant (src/manifest/schema/expires.ts): a name, or `{ user|team: name, expires }`.
    const then = s.then && typeof s.then === "object" ? props(s.then as JsonSchema) : undefined;
    if (then?.expires && (then.user || then.team))
      return { t: "string", grant: then.user ? "user" : "team" };
    return shapeOf(s.else as JsonSchema);
  }
  if (Array.isArray(s.anyOf)) {
    const branches = s.anyOf as JsonSchema[];
    const obj = branches.find((b) => b.type === "object" && props(b));
    const list = branches.find((b) => b.type === "array");
    if (obj && list && branches.length === 2) {
      const shape = shapeOf(obj) as ObjectShape;
      const listField = Object.entries(shape.fields).find(([, f]) => f.t === "list")?.[0];
      return listField ? { ...shape, listField } : shape;
    }
    return { t: "dyn" };
  }
  switch (s.type) {
    case "string":
      return { t: "string" };
    case "boolean":
      return { t: "bool" };
    case "integer":
      return { t: "int" };
    case "number":
      return { t: "double" };
    case "array":
      return { t: "list", item: s.items ? shapeOf(s.items as JsonSchema) : { t: "dyn" } };
    case "object": {
      const p = props(s);
      if (!p) {
        const pattern = s.patternProperties as Record<string, JsonSchema> | undefined;
        const only = pattern ? Object.values(pattern) : [];
        const value =
          only.length === 1
            ? shapeOf(only[0])
            : typeof s.additionalProperties === "object"
              ? shapeOf(s.additionalProperties as JsonSchema)
              : ({ t: "dyn" } as Shape);
        return { t: "map", value: value.t === "object" ? { t: "dyn" } : value };
      }
      // Open mappings (annotations: our keys and any other) are maps, not messages.
      if (s.patternProperties || s.additionalProperties !== false)
        return { t: "map", value: { t: "dyn" } };
      const fields: Record<string, Shape> = {};
      const defaults: Record<string, unknown> = {};
      for (const [k, f] of Object.entries(p)) {
        if (f.not !== undefined) continue; // a field the schema forbids here
        if (k === INHERIT && f.type === "boolean") continue; // a word of layering, not data
        fields[k] = shapeOf(f);
        if (f.default !== undefined) defaults[k] = f.default;
      }
      const grantLists = Object.keys(fields).filter((k) => {
        const f = fields[k];
        return f.t === "list" && f.item.t === "string" && f.item.grant !== undefined;
      });
      if (grantLists.length > 0 && !fields[EXPIRES_FIELD])
        fields[EXPIRES_FIELD] = { t: "map", value: { t: "string" } };
      const container = Object.values(fields).every(
        (f) => f.t === "list" || f.t === "map" || (f.t === "object" && f.container),
      );
      const shape: ObjectShape = { t: "object", fields, defaults, container };
      if (grantLists.length > 0) shape.grantLists = grantLists;
      return shape;
    }
    default:
      return { t: "dyn" };
  }
}

/** The view of `v` (see the file comment); `undefined` stays undefined. */
export function view(shape: Shape, v: unknown): unknown {
  if (v === undefined || v === null) return v;
  switch (shape.t) {
    case "int":
      return typeof v === "number" && Number.isInteger(v) ? BigInt(v) : v;
    case "list":
      if (!Array.isArray(v)) return v;
      return v
        .filter((x) => !(x !== null && typeof x === "object" && "$remove" in x))
        .map((x) => view(shape.item, x));
    case "map": {
      if (typeof v !== "object" || Array.isArray(v)) return v;
      if (shape.value.t === "string" || shape.value.t === "bool") return v;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>))
        out[k] = view(shape.value, x);
      return out;
    }
    case "object":
      return viewObject(shape, v);
    case "dyn":
      return dynView(v);
    case "string":
      // A grant written as a mapping is its name in the view (its date: the parent's `expires`).
      return shape.grant && typeof v === "object" ? (v as Record<string, unknown>)[shape.grant] : v;
    case "bool":
    case "double":
      return v;
  }
}

function viewObject(shape: ObjectShape, v: unknown): unknown {
  if (Array.isArray(v) && shape.listField) v = { [shape.listField]: v };
  if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
  const src = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, f] of Object.entries(shape.fields)) {
    const x = src[k] === undefined ? shape.defaults[k] : src[k];
    if (x !== undefined) out[k] = view(f, x);
    else if (f.t === "list") out[k] = [];
    else if (f.t === "map") out[k] = {};
    else if (f.t === "object" && f.container) out[k] = viewObject(f, {});
  }
  if (shape.grantLists) out[EXPIRES_FIELD] = expiresOf(shape, src);
  return out;
}

/** name → last day, of the grants of a mapping's grant lists written with `expires`. */
function expiresOf(shape: ObjectShape, src: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of shape.grantLists ?? []) {
    const list = src[k];
    const item = shape.fields[k];
    if (!Array.isArray(list) || item.t !== "list" || item.item.t !== "string") continue;
    const by = item.item.grant;
    for (const x of list as unknown[]) {
      if (x === null || typeof x !== "object" || !by) continue;
      const o = x as Record<string, unknown>;
      if (typeof o[by] === "string" && typeof o.expires === "string") out[o[by]] = o.expires;
    }
  }
  return out;
}

/** Integers as CEL ints in values of unknown shape (params, live objects, plan entries). */
export function dynView(v: unknown): unknown {
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(dynView);
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = dynView(x);
    return out;
  }
  return v;
}

/** The CEL type name of a shape; object shapes are registered as `name` (and its fields below). */
export function celType(
  shape: Shape,
  name: string,
  register: (name: string, fields: Record<string, string>) => void,
): string {
  switch (shape.t) {
    case "list":
      return `list<${celType(shape.item, `${name}.item`, register)}>`;
    case "map":
      return `map<string, ${celType(shape.value, `${name}.value`, register)}>`;
    case "object": {
      const fields: Record<string, string> = {};
      for (const [k, f] of Object.entries(shape.fields))
        fields[k] = celType(f, `${name}.${k}`, register);
      register(name, fields);
      return name;
    }
    case "string":
    case "bool":
    case "int":
    case "double":
    case "dyn":
      return shape.t;
  }
}

/** The shape of a value (params): what rules may read of it. */
export function shapeOfValue(v: unknown): Shape {
  if (typeof v === "string") return { t: "string" };
  if (typeof v === "boolean") return { t: "bool" };
  if (typeof v === "number") return Number.isInteger(v) ? { t: "int" } : { t: "double" };
  if (Array.isArray(v)) {
    const items = v.map(shapeOfValue);
    const same = items.every((i) => i.t === items[0]?.t && i.t !== "object" && i.t !== "list");
    return { t: "list", item: items.length > 0 && same ? items[0] : { t: "dyn" } };
  }
  if (v !== null && typeof v === "object") {
    const fields: Record<string, Shape> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) fields[k] = shapeOfValue(x);
    return { t: "object", fields, defaults: {}, container: false };
  }
  return { t: "dyn" };
}
