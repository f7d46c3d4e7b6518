/**
 * Duplicate detection over long lists in little memory: items identified by a pair of
 * strings, each later item equal to an earlier one reported with that first one's index. One
 * Int32Array hash table of 2–4 slots an item (8 MB at 760,000 repositories, where a Map of
 * names per subgroup took about 30 MB the collector then had to find).
 */

/** FNV-1a over `a`, a separator and `b`. */
function hash(a: string, b: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < a.length; i++) h = Math.imul(h ^ a.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ 0x1f, 0x01000193);
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * For items 0 … n-1 with identity (a(i), b(i)): `onDuplicate(i, first)` for every item equal
 * to an earlier one, `first` being the earliest.
 */
export function eachDuplicate(
  n: number,
  a: (i: number) => string,
  b: (i: number) => string,
  onDuplicate: (i: number, first: number) => void,
): void {
  let size = 16;
  while (size < n * 2) size *= 2;
  const mask = size - 1;
  // Slot: 0 empty, else the index of the first item with that identity, plus one.
  const slots = new Int32Array(size);
  for (let i = 0; i < n; i++) {
    const ai = a(i);
    const bi = b(i);
    for (let s = hash(ai, bi) & mask; ; s = (s + 1) & mask) {
      const held = slots[s];
      if (held === 0) {
        slots[s] = i + 1;
        break;
      }
      const j = held - 1;
      if (b(j) === bi && a(j) === ai) {
        onDuplicate(i, j);
        break;
      }
    }
  }
}
