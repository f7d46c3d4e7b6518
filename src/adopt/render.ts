/**
 * Plain values → YAML text for edits made in place: a scalar or a small collection on one
 * line (flow style, `[a, b]` and `{ a: 1 }` as the examples and export write them), larger
 * values as indented block lines. Only what `drift --adopt` writes: strings, numbers,
 * booleans, null, lists and maps of them. A string that holds a bidi control or another
 * hidden character is double-quoted with the escape visible (`"\u202e"`).
 */
import { stringify } from "yaml";
import { needsEscapes, yamlQuoted } from "../export/yaml-escape.js";

const isMapValue = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isScalarValue = (v: unknown) => !Array.isArray(v) && !isMapValue(v);

/** A string safe to write plain inside `[…]` or `{…}` (no indicator, no `: `, no `, `). */
const FLOW_PLAIN = /^[A-Za-z0-9_./@+*~$-][A-Za-z0-9_./@+*~:-]*$/;

/** One scalar as YAML; `inFlow`: inside `[…]` / `{…}`, where `,` and brackets end a plain scalar. */
export function scalarText(v: unknown, inFlow = false): string {
  if (typeof v === "string") {
    // A bidi control or another hidden character: double-quoted, escaped (`"\u202e"`).
    if (v.includes("\n") || needsEscapes(v)) return yamlQuoted(v);
    const plain = stringify(v, { lineWidth: 0 }).trimEnd();
    if (plain === v && (!inFlow || FLOW_PLAIN.test(v))) return v;
    return plain.startsWith("'") || plain.startsWith('"') ? plain : JSON.stringify(v);
  }
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return "null";
}

/** A value on one line: `[a, b]`, `{ a: 1, b: [x] }`, a scalar. */
export function flowText(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(flowText).join(", ")}]`;
  if (isMapValue(v)) {
    const pairs = Object.entries(v).map(([k, x]) => `${scalarText(k, true)}: ${flowText(x)}`);
    return pairs.length === 0 ? "{}" : `{ ${pairs.join(", ")} }`;
  }
  return scalarText(v, true);
}

/** A tombstone, `{ $remove: KEY }`: written inside a list of names as the README shows. */
const isTombstone = (v: unknown) =>
  isMapValue(v) && Object.keys(v).length === 1 && isScalarValue(v.$remove);

/**
 * Whether a value is written on one line: scalars, lists of scalars (and tombstones:
 * `[asmith, { $remove: bwong }]`), and maps of at most three scalars (`{ name: x, type:
 * docker }`); everything else is a block.
 */
export function isFlowable(v: unknown): boolean {
  if (isScalarValue(v)) return true;
  if (Array.isArray(v)) return v.every((x) => isScalarValue(x) || isTombstone(x));
  const values = Object.values(v as Record<string, unknown>);
  return values.length <= 3 && values.every(isScalarValue);
}

const pad = (n: number) => " ".repeat(n);

/**
 * A map or list as block lines at column `col` (each ending in a newline); nested blocks are
 * indented by `unit`. The first line carries the indentation like the others.
 */
export function blockLines(v: unknown, col: number, unit: number): string {
  if (Array.isArray(v)) return v.map((item) => seqItemLines(item, col, unit)).join("");
  if (!isMapValue(v)) return `${pad(col)}${scalarText(v)}\n`;
  return Object.entries(v)
    .map(([k, x]) => pairLines(k, x, col, unit))
    .join("");
}

/** `key: value` at column `col`, as one line or a key line followed by a block. */
export function pairLines(key: string, v: unknown, col: number, unit: number): string {
  const k = scalarText(key);
  if (isFlowable(v) || (Array.isArray(v) && v.length === 0))
    return `${pad(col)}${k}: ${flowText(v)}\n`;
  return `${pad(col)}${k}:\n${blockLines(v, col + unit, unit)}`;
}

/** `- item` at column `col`; a map item's later keys line up under its first. */
export function seqItemLines(v: unknown, col: number, unit: number): string {
  if (isFlowable(v)) return `${pad(col)}- ${flowText(v)}\n`;
  const body = blockLines(v, col + 2, unit);
  return `${pad(col)}- ${body.slice(col + 2)}`;
}
