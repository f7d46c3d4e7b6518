/**
 * Shared live reads for one plan. Kinds ask for what they need (the project list, one
 * project's detail, its repositories…); each read happens once, however many kinds use
 * it, and all reads run concurrently under the client's shared limit. Counts the objects
 * read for the plan summary (`read 1,234 objects in 57 calls`), and per client for progress
 * (`readTally`: what the CLI's live line and JSON events poll while a plan or export reads).
 */
import type { ApiClient } from "../api/client.js";
import { ApiError } from "../api/errors.js";

/**
 * What the apply journal knows that the API cannot tell: the side effects (welcome mails)
 * an earlier apply planned and did not finish, and whether there is a journal at all.
 */
export interface JournalFacts {
  /** Keys of side effects owed by an earlier apply (planned again although live looks done). */
  readonly owed: ReadonlySet<string>;
  /**
   * Keys of side effects an earlier apply may or may not have carried out (their answer was
   * lost): never planned again, named in every plan until a person settles them.
   */
  readonly unknown?: ReadonlySet<string>;
  /** A journal of this service exists: what it does not list as owed was done. */
  readonly known: boolean;
  /**
   * When that journal was last written (ISO): an object made after it was made by an apply
   * the journal never saw, so the journal cannot know about its side effects.
   */
  readonly updatedAt?: string;
}

export const NO_JOURNAL: JournalFacts = { owed: new Set(), known: false };

/** Objects read so far through any ReadContext of one client. */
export interface ReadTally {
  readonly objects: number;
}

const tallies = new WeakMap<ApiClient, { objects: number }>();

function tallyOf(api: ApiClient): { objects: number } {
  // Unit tests build contexts over stand-ins that may not be objects.
  if (typeof api !== "object" || api === null) return { objects: 0 };
  let t = tallies.get(api);
  if (!t) {
    t = { objects: 0 };
    tallies.set(api, t);
  }
  return t;
}

/** The running count of objects read through `api` (for progress; read it, never keep a copy). */
export function readTally(api: ApiClient): ReadTally {
  return tallyOf(api);
}

export class ReadContext {
  private readonly memo = new Map<string, Promise<unknown>>();
  private readonly tally: { objects: number };
  /** Objects read so far (list items and single records). */
  objects = 0;

  constructor(
    readonly api: ApiClient,
    readonly facts: JournalFacts = NO_JOURNAL,
  ) {
    this.tally = tallyOf(api);
  }

  /** Run `read` once per name; later callers share the same promise. */
  once<T>(name: string, read: () => Promise<T>): Promise<T> {
    let p = this.memo.get(name) as Promise<T> | undefined;
    if (!p) {
      p = read();
      this.memo.set(name, p);
    }
    return p;
  }

  /** Count objects read (lists count their items). */
  count<T>(value: T): T {
    const n = Array.isArray(value) ? value.length : 1;
    this.objects += n;
    this.tally.objects += n;
    return value;
  }
}

/** `undefined` for a 404 (the object does not exist live), the error otherwise. */
export async function orAbsent<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return undefined;
    throw e;
  }
}
