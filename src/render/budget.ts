/**
 * Fitting a rendering into a character budget without cutting anything in half: lists keep
 * whole items and end with a tail that counts and names what was left out; parts of a
 * document share a budget so that each gets at least its short form. Pure arithmetic.
 */

/** One list item: its full text, and the short name a cut tail uses for it. */
export interface Item {
  text: string;
  name: string;
}

/**
 * The tail of a cut list for `left` items left out; `names` is "" or a comma-separated
 * list of some of their names (ending with `…` when not all are named).
 */
export type Tail = (left: number, names: string) => string;

/** The length of `fitList`'s shortest form (the tail alone, naming nothing). */
export function fitListMin(items: readonly Item[], sep: string, tail: Tail): number {
  const all = joinedLength(items, sep);
  return Math.min(all, tail(items.length, "").length);
}

function joinedLength(items: readonly Item[], sep: string): number {
  let n = 0;
  for (const [i, it] of items.entries()) n += it.text.length + (i > 0 ? sep.length : 0);
  return n;
}

/**
 * As many whole items as fit in `budget` (joined by `sep`), then the tail naming as many
 * of the rest as fit; `nameShare` of the budget is kept for those names when they need
 * it. At most `budget` characters when `budget ≥ fitListMin(…)`.
 */
export function fitList(
  items: readonly Item[],
  budget: number,
  sep: string,
  tail: Tail,
  nameShare = 0,
): string {
  const n = items.length;
  if (joinedLength(items, sep) <= budget) return items.map((i) => i.text).join(sep);
  const prefix = [0];
  for (let i = 0; i < n; i++)
    prefix.push(prefix[i] + items[i].text.length + (i > 0 ? sep.length : 0));
  const namesAfter = new Array<number>(n + 1).fill(0);
  for (let i = n - 1; i >= 0; i--) namesAfter[i] = namesAfter[i + 1] + items[i].name.length + 2;
  const keep = (k: number) => Math.min(namesAfter[k], Math.floor(budget * nameShare));
  let k = n - 1;
  for (; k > 0; k--) {
    if (prefix[k] + sep.length + tail(n - k, "").length + keep(k) <= budget) break;
  }
  k = Math.max(0, k);
  const head = items.slice(0, k).map((i) => i.text);
  const bare = tail(n - k, "").length;
  const overhead = tail(n - k, "x").length - 1 - bare; // what naming anything adds (": ")
  let room = budget - (k > 0 ? prefix[k] + sep.length : 0) - bare - overhead;
  const names: string[] = [];
  for (let i = k; i < n; i++) {
    const name = items[i].name;
    const last = i === n - 1;
    const cost = name.length + (names.length > 0 ? 2 : 0) + (last ? 0 : 3); // ", …" reserve
    if (cost > room) break;
    names.push(name);
    room -= name.length + (names.length > 1 ? 2 : 0);
  }
  const named = names.length === 0 ? "" : `${names.join(", ")}${names.length < n - k ? ", …" : ""}`;
  return [...head, tail(n - k, named)].join(sep);
}

/** A part of a document competing for a shared budget. */
export interface Claim {
  /** Length of its full rendering. */
  full: number;
  /** Length of its shortest rendering (always granted). */
  min: number;
  /** Share of what is left after the minimums, relative to the other claims. */
  weight: number;
}

/**
 * Budgets for claims sharing `total`: each gets its minimum, then what is left is shared
 * by weight among those not yet full (water-filling); nothing is given beyond `full`.
 */
export function share(claims: readonly Claim[], total: number): number[] {
  const got = claims.map((c) => Math.min(c.min, c.full));
  let left = total - got.reduce((a, b) => a + b, 0);
  for (;;) {
    const open = claims.map((_c, i) => i).filter((i) => got[i] < claims[i].full);
    const weight = open.reduce((a, i) => a + claims[i].weight, 0);
    if (left <= 0 || open.length === 0 || weight <= 0) return got;
    let given = 0;
    for (const i of open) {
      const want = claims[i].full - got[i];
      const add = Math.min(want, Math.max(1, Math.floor((left * claims[i].weight) / weight)));
      const take = Math.min(add, left - given);
      got[i] = got[i] + take;
      given += take;
    }
    left -= given;
    if (given === 0) return got;
  }
}
