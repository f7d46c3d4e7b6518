/**
 * The paging helpers against a fake paged endpoint that behaves like the reference server
 * (clamps the limit, reports it, answers all=true in one page).
 */
import { describe, expect, it } from "vitest";
import { BIG_PAGE, collectAll, streamPages, type PageQuery } from "../../src/api/paging.js";

function fakeList(n: number, maxPageSize: number) {
  const items = Array.from({ length: n }, (_, i) => i + 1);
  const calls: PageQuery[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const fetch = async (q: PageQuery) => {
    calls.push(q);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, 5));
    inFlight--;
    if (q.all) return { pagination: { page: 1, limit: n, total: n, totalPages: 1 }, data: items };
    const limit = Math.min(q.limit ?? 10, maxPageSize);
    const page = q.page ?? 1;
    return {
      pagination: { page, limit, total: n, totalPages: Math.max(1, Math.ceil(n / limit)) },
      data: items.slice((page - 1) * limit, page * limit),
    };
  };
  return { items, calls, fetch, maxInFlight: () => maxInFlight };
}

describe("collectAll", () => {
  it("uses all=true where the route supports it: one request", async () => {
    const l = fakeList(250, 100);
    expect(await collectAll(l.fetch, { supportsAll: true })).toEqual(l.items);
    expect(l.calls).toEqual([{ all: true }]);
  });

  it("asks for a big page, reads the clamped limit, then fetches the rest concurrently", async () => {
    const l = fakeList(250, 100);
    expect(await collectAll(l.fetch, { supportsAll: false })).toEqual(l.items);
    expect(l.calls).toEqual([
      { page: 1, limit: BIG_PAGE },
      { page: 2, limit: 100 },
      { page: 3, limit: 100 },
    ]);
    expect(l.maxInFlight()).toBe(2);
  });

  it("takes an empty list and a single page in one request", async () => {
    const empty = fakeList(0, 100);
    expect(await collectAll(empty.fetch, { supportsAll: false })).toEqual([]);
    expect(empty.calls).toHaveLength(1);
  });
});

describe("streamPages", () => {
  it("yields page by page, one page ahead", async () => {
    const l = fakeList(25, 10);
    const seen: number[][] = [];
    for await (const page of streamPages(l.fetch, { pageSize: 10 })) seen.push(page);
    expect(seen.map((p) => p.length)).toEqual([10, 10, 5]);
    expect(seen.flat()).toEqual(l.items);
  });

  it("stops fetching when the consumer stops", async () => {
    const l = fakeList(100, 10);
    for await (const page of streamPages(l.fetch, { pageSize: 10 })) {
      expect(page).toHaveLength(10);
      break;
    }
    expect(l.calls.length).toBeLessThanOrEqual(2);
  });
});
