/**
 * How normalisation keeps a declared repository small (there may be 100,000s): enum words
 * shared, and the source position as three fields made into a Source when asked (a layered
 * object's, found only when read, lazy-source.ts, is kept as it is).
 */
import { RepoStatus, Tristate } from "../api/schemas.js";
import { isLazySource } from "./lazy-source.js";
import type { CommitBlockerState, RepositoryState, Source } from "./types.js";

/**
 * A declared repository whose source is kept as three fields and made into a Source when
 * asked for: 32 bytes less a repository than a Source object each (100,000s of them).
 */
export class DeclaredRepository implements RepositoryState {
  declare forkFrom?: string;
  declare forkFromKey?: string;
  declare commitBlocker?: CommitBlockerState;
  declare bundle?: Exclude<RepositoryState["bundle"], undefined>;
  /** The file, or a lazy source whole (not read: reading it finds it). */
  readonly #file: string | Source;
  readonly #line: number;
  readonly #column: number;

  constructor(
    public key: string,
    public name: string,
    public subgroup: string,
    public issueTracking: RepositoryState["issueTracking"],
    public mergeRequests: RepositoryState["mergeRequests"],
    public requiresDCO: boolean,
    public enableLFS: boolean,
    public enableForking: boolean,
    public status: RepositoryState["status"],
    public persistentStorage: boolean,
    at: Source,
  ) {
    const lazy = isLazySource(at);
    this.#file = lazy ? at : at.file;
    this.#line = lazy ? 0 : at.line;
    this.#column = lazy ? 0 : at.column;
  }

  get source(): Source {
    const f = this.#file;
    return typeof f === "string" ? { file: f, line: this.#line, column: this.#column } : f;
  }
}

/**
 * One string per enum word for every repository: each parsed value is a copy of its own
 * (24 bytes a field at 100,000s of repositories).
 */
const WORDS = new Map(
  [...(Tristate.enum as string[]), ...(RepoStatus.enum as string[])].map((w) => [w, w]),
);
export const word = <T extends string>(v: T): T => (WORDS.get(v) as T | undefined) ?? v;
