/**
 * How normalisation keeps a declared repository small (there may be 100,000s): enum words
 * shared, and the source position as three fields made into a Source when asked.
 */
import { RepoStatus, Tristate } from "../api/schemas.js";
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
  readonly #file: string;
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
    this.#file = at.file;
    this.#line = at.line;
    this.#column = at.column;
  }

  get source(): Source {
    return { file: this.#file, line: this.#line, column: this.#column };
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
