/**
 * A live read's fan-out (one call per user, per project) without every call pending at once.
 * `Promise.all(items.map(fn))` over 10,000 users made 10,000 API requests at once, each
 * waiting for a slot of the client with its closures and wire form (≈ 3.5 KB): a third of a
 * large plan's live heap in the middle of its read, which V8 then let grow to two or three
 * times that before collecting (peak RSS; bench/results.md, session 15). The API client's
 * limit still decides how many requests are sent; this only keeps enough of them queued to
 * keep it busy.
 */

/** How many of a fan-out's calls are started and not yet settled, at most. */
export const FAN_OUT = 256;

/**
 * `fn` of each item, results in the items' order, at most `limit` started and unsettled at
 * once. The first failure rejects the whole (as Promise.all does); no item is started after
 * it.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  fn: (item: T) => Promise<R>,
  limit = FAN_OUT,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i]);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  const workers: Promise<void>[] = [];
  for (let w = 0; w < Math.min(limit, items.length); w++) workers.push(worker());
  await Promise.all(workers);
  return out;
}
