/**
 * Reading whole paged lists (`{pagination: {page, limit, total, totalPages}, data}`) with as
 * few round trips as the server allows: `all=true` where the route supports it, otherwise
 * one request asking for a big page — the server clamps `limit` to its maximum and says so
 * in `pagination.limit` — and then every remaining page at once (the client's concurrency
 * limit bounds them). `streamPages` reads page by page, one page ahead, for lists too
 * large to hold.
 *
 * A list that changes while it is being read can show an item twice or miss one, as with
 * any offset paging; callers that need a snapshot re-read.
 */
import { DEFAULT_PROFILE, type ApiProfile } from "./profile.js";
import type { OperationId } from "./routes.js";
import { readPage } from "./strict.js";

/** Page size asked for when the route has no `all`: the server clamps it to its maximum. */
export const BIG_PAGE = 1000;

export interface PageQuery {
  page?: number;
  limit?: number;
  all?: boolean;
}

export interface PagedAnswer<T> {
  pagination?: { page: number; limit: number; total: number; totalPages: number };
  data: T[];
}

/** Fetch one page with the given paging parameters (merged into the caller's query). */
export type FetchPage<T> = (q: PageQuery) => Promise<PagedAnswer<T>>;

export interface PagingOptions {
  /** The route supports `all=true` (route table `paging.all`). */
  supportsAll: boolean;
  /** Page size to ask for (default BIG_PAGE; the server may clamp it). */
  pageSize?: number;
}

function totalPages(a: PagedAnswer<unknown>): number {
  return a.pagination ? Math.max(1, a.pagination.totalPages) : 1;
}

/** Every item of a paged list, in order. */
export async function collectAll<T>(fetch: FetchPage<T>, o: PagingOptions): Promise<T[]> {
  const first = await fetch(
    o.supportsAll ? { all: true } : { page: 1, limit: o.pageSize ?? BIG_PAGE },
  );
  const n = totalPages(first);
  if (n <= 1 || !first.pagination) return first.data;
  const limit = first.pagination.limit;
  const rest = await Promise.all(
    Array.from({ length: n - 1 }, (_, i) => fetch({ page: i + 2, limit })),
  );
  return [first.data, ...rest.map((r) => r.data)].flat();
}

/**
 * Pages one at a time, fetching the next while the caller works on the current one. Uses
 * explicit pages even where `all=true` exists, so memory stays at two pages.
 */
export async function* streamPages<T>(
  fetch: FetchPage<T>,
  o: Pick<PagingOptions, "pageSize">,
): AsyncGenerator<T[], void, undefined> {
  const first = await fetch({ page: 1, limit: o.pageSize ?? BIG_PAGE });
  const n = totalPages(first);
  const limit = first.pagination?.limit ?? o.pageSize ?? BIG_PAGE;
  let next: Promise<PagedAnswer<T>> | undefined = n >= 2 ? fetch({ page: 2, limit }) : undefined;
  // A rejected prefetch must not go unhandled if the consumer stops early.
  next?.catch(() => undefined);
  yield first.data;
  for (let p = 2; p <= n && next; p++) {
    const current: PagedAnswer<T> = await next;
    next = p < n ? fetch({ page: p + 1, limit }) : undefined;
    next?.catch(() => undefined);
    yield current.data;
  }
}

/**
 * One page of a paged operation as the client reads it: the profile's envelope checked
 * (strict.ts) and turned into the canonical shape. An answer that does not fit throws a
 * `ResponseShapeError` naming the operation and field — it is never read as an empty list.
 * `checkItems: false` checks the envelope only (`phctl api --paginate` prints raw items).
 */
export function asPaged(
  op: OperationId,
  body: unknown,
  profile: ApiProfile = DEFAULT_PROFILE,
  checkItems = true,
): PagedAnswer<unknown> {
  return readPage(op, body, profile, checkItems);
}
