/**
 * The keywords the manifest schemas are written with. Annotations understood by editors
 * (yaml-language-server / vscode-json-languageservice): `patternErrorMessage`,
 * `errorMessage`, `deprecationMessage`, `doNotSuggest`; the loader reads them too. Every
 * property carries a `title` (its key: an editor titles a hover with the nearest schema's
 * title), a `description` and `examples` (test/editor/schema-docs.test.ts holds them to it).
 */
import {
  Type,
  type SchemaOptions,
  type Static,
  type TObject,
  type TProperties,
  type TSchema,
  type TUnsafe,
} from "@sinclair/typebox";
import { StringEnum } from "../../api/schemas.js";

/** Extra annotation keywords (editor conventions, and phctl's own last) that ajv must accept. */
export const ANNOTATION_KEYWORDS = [
  "patternErrorMessage",
  "errorMessage",
  "deprecationMessage",
  "doNotSuggest",
  "examplesAreHints",
] as const;

interface Annotations extends SchemaOptions {
  patternErrorMessage?: string;
  errorMessage?: string;
  deprecationMessage?: string;
  doNotSuggest?: boolean;
  /**
   * phctl's own: the examples are a catalogue (SPDX ids), so a malformed value gets "did you
   * mean" among them. Other examples only illustrate and are never offered as a correction.
   */
  examplesAreHints?: boolean;
}

export { StringEnum };

/** The values of an API enum (`enum`, or a union of string literals). */
export function enumValues(s: TSchema): string[] {
  const e = (s as { enum?: unknown }).enum;
  if (Array.isArray(e)) return e.map(String);
  const anyOf = (s as { anyOf?: { const?: unknown }[] }).anyOf;
  if (Array.isArray(anyOf)) return anyOf.map((b) => String(b.const));
  throw new Error("not an enum schema");
}

/** An API enum from src/api/schemas.ts reused in a manifest, with its own annotations. */
export function enumFrom<T extends TSchema>(s: T, opts: Annotations = {}): TUnsafe<Static<T>> {
  const values = enumValues(s);
  return Type.Unsafe<Static<T>>({ ...oneOfMessage(values), ...opts, type: "string", enum: values });
}

/**
 * An enum's message for editors, in the CLI's words (schema-errors.ts says the same from the
 * allowed values): yaml-language-server shows `errorMessage` instead of its own.
 */
export const oneOfMessage = (values: readonly string[]) => ({
  errorMessage: `must be one of ${values.join(", ")}`,
});

/** What an editor shows for a property: what it does, and at least one example value. */
export function about(description: string, ...examples: unknown[]) {
  return { description, examples };
}

const shownDefault = (v: unknown) => (typeof v === "string" && v !== "" ? v : JSON.stringify(v));

/**
 * A property as editors show it: titled with its key, and its `default` (the one source of
 * it) said at the end of its description unless the description already speaks of it.
 */
function titled(key: string, s: TSchema): TSchema {
  const { description, default: dflt } = s as { description?: string; default?: unknown };
  const said =
    description !== undefined && dflt !== undefined && !/\bdefault\b/i.test(description)
      ? `${description} Default: ${shownDefault(dflt)}.`
      : description;
  return { title: key, ...s, ...(said !== undefined ? { description: said } : {}) };
}

/** An object that rejects unknown keys — every object of every manifest. */
export function Strict<T extends TProperties>(props: T, opts: Annotations = {}): TObject<T> {
  const withTitles = Object.fromEntries(
    Object.entries(props).map(([k, s]) => [k, titled(k, s)]),
  ) as T;
  return Type.Object(withTitles, { ...opts, additionalProperties: false });
}
