/**
 * Pagination exactly as the spec: `page`, `limit`, `all`, default page size 10, the answer
 * `{pagination: {page, limit, total, totalPages}, data}`. Limits above the server's maximum
 * are clamped, and the clamped value is reported in `pagination.limit`. Validation has made
 * `page` and `limit` integers from 1 to 2^31-1 (schemas.ts `QueryInt`), so the offset of
 * any page is an exact integer, however far past the end it is.
 */
export const DEFAULT_PAGE_SIZE = 10;

export interface PageQuery {
  page?: number;
  limit?: number;
  all?: boolean;
}

export interface PageWindow {
  page: number;
  limit: number;
  offset: number;
  all: boolean;
}

export function pageWindow(q: PageQuery, maxPageSize: number): PageWindow {
  const page = q.page ?? 1;
  const limit = Math.min(q.limit ?? DEFAULT_PAGE_SIZE, maxPageSize);
  return { page, limit, offset: (page - 1) * limit, all: q.all === true };
}

/**
 * Build the paged answer. `fetch(limit, offset)` reads one window (limit -1 = no limit);
 * `total` is the full count. With `all`, one page holds everything.
 */
export function paged<T>(
  q: PageQuery,
  maxPageSize: number,
  total: number,
  fetch: (limit: number, offset: number) => T[],
) {
  const w = pageWindow(q, maxPageSize);
  if (w.all) {
    const data = fetch(-1, 0);
    return {
      pagination: { page: 1, limit: data.length, total: data.length, totalPages: 1 },
      data,
    };
  }
  const data = w.offset >= total ? [] : fetch(w.limit, w.offset);
  return {
    pagination: {
      page: w.page,
      limit: w.limit,
      total,
      totalPages: Math.max(1, Math.ceil(total / w.limit)),
    },
    data,
  };
}

/** Page an in-memory array (small lists). */
export function pagedArray<T>(q: PageQuery, maxPageSize: number, items: T[]) {
  return paged(q, maxPageSize, items.length, (limit, offset) =>
    limit < 0 ? items : items.slice(offset, offset + limit),
  );
}
