/**
 * Source positions of YAML nodes: a parsed document keeps how to find its nodes, and a field
 * path (`["spec", "git", "repositories", 1, "name"]`) is located by walking them — so every
 * diagnostic and every declared object names file, line and column without a second parse.
 * The fast reader's handles are in fast-events.ts, the full reader's in full-read.ts.
 */
import type { Source } from "./types.js";

export type FieldPath = readonly (string | number)[];

/** One parsed YAML document and how to find positions in it (by either reader). */
export interface DocHandle {
  /** Relative to the current directory, `/`-separated. */
  readonly file: string;
  /** Position of a character offset of the file's text. */
  sourceAt(offset: number): Source;
  /** Where the document starts (its first content, else its `---`). */
  readonly start: Source;
  at(path: FieldPath, which?: "key" | "value"): Source;
}
