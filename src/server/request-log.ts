/**
 * The request log: what tests and benchmarks count (method, url, operation, status, fault,
 * time). Off unless asked for (`requestLog` / `phctl serve --request-log [N]`), and bounded:
 * it keeps the most recent `size` requests, each URL cut at `MAX_LOGGED_URL` characters, so
 * a long-running sandbox stays flat in memory.
 *
 * The entries live in a plain array (`entries`) because tests read and clear it in place
 * (`filter`, `slice`, `length = 0`). Dropping one old entry per request would copy the
 * whole array each time once it is large (V8 cannot trim large arrays in place), so the
 * oldest entries go in blocks of `size / 16`: the log holds between 15/16 of `size` and
 * `size` entries once full, and a request costs O(1) amortised.
 */
import type { OperationId } from "../api/routes.js";

/** One line of the request log. */
export interface RequestLogEntry {
  seq: number;
  method: string;
  url: string;
  operation: OperationId | null;
  status: number;
  fault: string | null;
  ms: number;
  /**
   * Id of the parent organization of the token that made the request; null when the
   * request carried no known token. `/_control/requests` shows a caller only its own.
   */
  parentOrgId: number | null;
}

/**
 * Longest URL an entry keeps, characters; a longer one is cut, with its length said
 * (`…(N characters)`). Node takes URLs up to its 16 KiB header limit, so a full log of such
 * URLs held 160 MB at the default size; cut, at most about 20 MB.
 */
export const MAX_LOGGED_URL = 2_000;

/**
 * `url` as the log keeps it. A cut is copied: V8's `slice` keeps the whole string alive
 * behind the part.
 */
export function loggedUrl(url: string): string {
  if (url.length <= MAX_LOGGED_URL) return url;
  const cut = `${url.slice(0, MAX_LOGGED_URL)}…(${url.length} characters)`;
  return Buffer.from(cut, "utf8").toString("utf8");
}

/** Default number of entries kept (`requestLogSize`). */
export const DEFAULT_REQUEST_LOG_SIZE = 10_000;

export class RequestLog {
  /** The kept entries, oldest first. Readable and clearable in place (tests do both). */
  readonly entries: RequestLogEntry[] = [];
  private seq = 0;
  private readonly block: number;

  constructor(
    readonly enabled: boolean,
    readonly size: number = DEFAULT_REQUEST_LOG_SIZE,
  ) {
    if (!Number.isInteger(size) || size < 1) {
      throw new Error(`requestLogSize must be an integer ≥ 1 (got ${size})`);
    }
    this.block = Math.max(1, Math.ceil(size / 16));
  }

  /** How many requests were logged since the start (also those no longer kept). */
  get total(): number {
    return this.seq;
  }

  add(entry: Omit<RequestLogEntry, "seq">): void {
    if (!this.enabled) return;
    if (this.entries.length >= this.size) {
      this.entries.splice(0, this.entries.length - this.size + this.block);
    }
    this.entries.push({ seq: ++this.seq, ...entry, url: loggedUrl(entry.url) });
  }

  /** The entries a caller may read: its parent organization's, or every one (null). */
  visibleTo(parentOrgId: number | null): RequestLogEntry[] {
    return parentOrgId === null
      ? [...this.entries]
      : this.entries.filter((e) => e.parentOrgId === parentOrgId);
  }

  /** Forget the entries of one parent organization, or every entry (null). */
  clear(parentOrgId: number | null): void {
    if (parentOrgId === null) {
      this.entries.length = 0;
      return;
    }
    let kept = 0;
    for (const e of this.entries) if (e.parentOrgId !== parentOrgId) this.entries[kept++] = e;
    this.entries.length = kept;
  }
}
