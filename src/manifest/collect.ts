/** Small helpers of normalisation: ordering, sets, protection, sources and references. */
import type { ValidDoc } from "./check.js";
import type { Reference, Source } from "./types.js";

export const byKey = <T extends { key: string }>(a: T, b: T) =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : 0;

export const sortedSet = (xs: readonly string[] | undefined) => [...new Set(xs ?? [])].sort();

export const isProtected = (d: ValidDoc) => {
  const v = d.value.metadata.annotations?.["phctl/protect"];
  return v === true || v === "true";
};

/** Where references to undeclared names were made. */
export class References {
  private readonly seen = new Map<string, Source[]>();
  add(name: string, at: Source): void {
    const list = this.seen.get(name);
    if (list) list.push(at);
    else this.seen.set(name, [at]);
  }
  without(declared: ReadonlySet<string>): Reference[] {
    return [...this.seen.entries()]
      .filter(([n]) => !declared.has(n))
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, sources]) => ({
        name,
        sources: [...sources].sort(
          (a, b) =>
            (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
            a.line - b.line ||
            a.column - b.column,
        ),
      }));
  }
}

/** Records the first source of each key. */
export class SourceMap {
  private readonly record: Record<string, Source> = Object.create(null) as Record<string, Source>;
  set(key: string, at: Source): void {
    if (!(key in this.record)) this.record[key] = at;
  }
  get(key: string): Source | undefined {
    return this.record[key];
  }
  /** Every key's source, in the order first recorded (files and documents are in a stable order). */
  toRecord(): Record<string, Source> {
    return this.record;
  }
}
