/** "Did you mean …?" suggestions for misspelt keys, enum values and names. */

/** Damerau-Levenshtein distance (optimal string alignment), capped at `max + 1`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, rows[i - 2][j - 2] + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    rows.push(row);
    if (i > 0 && best > max) return max + 1;
  }
  return rows[a.length][b.length];
}

/** The closest candidate, if close enough to be a likely typo; undefined otherwise. */
export function closest(input: string, candidates: Iterable<string>): string | undefined {
  const lower = input.toLowerCase();
  const max = Math.max(1, Math.min(3, Math.floor(input.length / 3)));
  let best: string | undefined;
  let bestDistance = max + 1;
  for (const c of candidates) {
    if (c === input) return undefined;
    const d = c.toLowerCase() === lower ? 0 : editDistance(lower, c.toLowerCase(), max);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** `did you mean X?` for the closest candidate, or undefined. */
export function didYouMean(input: string, candidates: Iterable<string>): string | undefined {
  const c = closest(input, candidates);
  return c === undefined ? undefined : `did you mean ${c}?`;
}
