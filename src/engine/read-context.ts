/**
 * Shared live reads for one plan. Kinds ask for what they need (the project list, one
 * project's detail, its repositories…); each read happens once, however many kinds use
 * it, and all reads run concurrently under the client's shared limit. Counts the objects
 * read for the plan summary (`read 1,234 objects in 57 calls`).
 */
import type { ApiClient } from "../api/client.js";
import { ApiError } from "../api/errors.js";

export class ReadContext {
  private readonly memo = new Map<string, Promise<unknown>>();
  /** Objects read so far (list items and single records). */
  objects = 0;

  constructor(readonly api: ApiClient) {}

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
    this.objects += Array.isArray(value) ? value.length : 1;
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
