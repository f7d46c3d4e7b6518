/**
 * Colours and value formats shared by the text renderers: the action marks, the terminal
 * styles (on for a terminal unless NO_COLOR or --no-color), counts and durations written one
 * way everywhere, and which entries destroy data or access.
 */
import type { Action, PlanEntry } from "../engine/plan.js";

/** The mark of each action in the plan's lines (`+ ~ - !`). */
export const ACTION_SYMBOL: Readonly<Record<Action, string>> = {
  create: "+",
  update: "~",
  delete: "-",
  ticket: "!",
  blocked: "!",
};

/** Colour for terminal output: on for a TTY unless NO_COLOR or --no-color; a no-op otherwise. */
export interface Style {
  green: (s: string) => string;
  yellow: (s: string) => string;
  red: (s: string) => string;
  magenta: (s: string) => string;
  bold: (s: string) => string;
  dim: (s: string) => string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;

export const COLOR: Style = {
  green: wrap(32, 39),
  yellow: wrap(33, 39),
  red: wrap(31, 39),
  magenta: wrap(35, 39),
  bold: wrap(1, 22),
  dim: wrap(2, 22),
};

const id = (s: string) => s;
export const PLAIN: Style = { green: id, yellow: id, red: id, magenta: id, bold: id, dim: id };

/** Should output to this stream be coloured? (`NO_COLOR` wins, then the flag, then isTTY.) */
export function useColor(
  stream: { isTTY?: boolean },
  flag: boolean | undefined,
  env = process.env,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (flag === false) return false;
  return stream.isTTY === true;
}

/** A value as it appears in a plan: JSON for everything, `(none)` for absent. */
export function formatValue(v: unknown): string {
  if (v === undefined) return "(none)";
  return JSON.stringify(v);
}

/** `1234` → `1,234`: every count phctl prints is written this way. */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** `1` → `1 ticket`, `1234` → `1,234 tickets`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** `450 ms`, `12.3 s`, `2 m 05 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} m ${String(s % 60).padStart(2, "0")} s`;
}

/**
 * `file:line` of an entry's source and, when that is a Defaults layer's document, its name
 * (`defaults/access.yaml:1, Defaults security`): the document whose values or edit cause it.
 */
export function entryWhere(e: {
  source: { file: string; line: number } | null;
  layer?: string | undefined;
}): string {
  const at = formatSource(e.source);
  return at && e.layer ? `${at}, Defaults ${e.layer}` : at;
}

/** `file:line` of a source, or "". */
export function formatSource(s: { file: string; line: number } | null | undefined): string {
  return s ? `${s.file}:${s.line}` : "";
}

/**
 * Where a changed field's value comes from, when its entry's line does not say it: a Defaults
 * layer's `file:line, Defaults NAME` (unless the entry's line names that layer at that line),
 * another file's `file:line`, or `line N` of the entry's file (the entry names its first
 * changed field's line; every other field shows its own).
 */
export function fieldWhere(
  c: { source?: { file: string; line: number }; layer?: string },
  e: { source: { file: string; line: number } | null; layer?: string | undefined },
): string | undefined {
  if (!c.source) return undefined;
  const same = c.source.file === e.source?.file && c.source.line === e.source.line;
  if (c.layer)
    return same && e.layer === c.layer
      ? undefined
      : `${formatSource(c.source)}, Defaults ${c.layer}`;
  if (c.source.file !== e.source?.file) return formatSource(c.source);
  return c.source.line !== e.source.line ? `line ${c.source.line}` : undefined;
}

/** A value no rendering needs to show on a created object: absent, null, "", [] or {}. */
export function isEmptyValue(v: unknown): boolean {
  if (v === undefined || v === null || v === "") return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === "object" && Object.keys(v).length === 0;
}

/** How an entry removes data or access, for people; undefined when it does not. */
export type Destruction = "deleted" | "removed" | "archived" | "destructive";

const ACCESS_KINDS = new Set(["ProjectAccess", "ProjectTeamAccess", "TeamMember"]);

/**
 * Deletions and access removals (the engine flags them `destructive`) and archives (an
 * update that sets `status` to "archived", or `archived` to true): what a reviewer must see
 * before anything else.
 */
export function destruction(e: PlanEntry): Destruction | undefined {
  const archives =
    e.action === "update" &&
    e.changes.some(
      (c) =>
        (c.field === "status" && c.after === "archived" && c.before !== "archived") ||
        (c.field === "archived" && c.after === true && c.before !== true),
    );
  if (archives) return "archived";
  if (!e.destructive) return undefined;
  if (e.action === "delete") return ACCESS_KINDS.has(e.kind) ? "removed" : "deleted";
  return "destructive";
}

/**
 * A blocked entry's why, naming its field once: `field: reason`, or the reason alone when
 * it already names the field (`externalEmail is immutable: …`).
 */
export function blockedText(b: { field: string; reason: string }): string {
  const name = b.field.split(".").at(-1) ?? b.field;
  const named = new RegExp(`(^|[^\\w])${name.replace(/[^\w]/g, "\\$&")}($|[^\\w])`).test(b.reason);
  return named ? b.reason : `${b.field}: ${b.reason}`;
}
