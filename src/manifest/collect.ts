/** Small helpers of normalisation: ordering, sets, protection, sources and references. */
import type { ValidDoc } from "./check.js";
import type { ProjectState, Reference, Source, SourceLookup } from "./types.js";

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

/**
 * Records the first source of each key. A Map, not an object: its entries share the key
 * strings the objects hold (an object's property names are interned copies), about half
 * the memory at 100,000s of keys.
 */
export class SourceMap {
  private readonly map = new Map<string, Source>();
  set(key: string, at: Source): void {
    if (!this.map.has(key)) this.map.set(key, at);
  }
  get(key: string): Source | undefined {
    return this.map.get(key);
  }
  /** Every key's source, in the order first recorded (files and documents are in a stable order). */
  toMap(): ReadonlyMap<string, Source> {
    return this.map;
  }
}

/**
 * The sources of a desired state: most keys from a SourceMap; a repository's from the
 * repository itself, found through its project (the repositories are sorted by key) — at
 * 100,000s of repositories, no entry of their own (a Map entry is about 50 bytes a key).
 */
export class DeclaredSources implements SourceLookup {
  readonly #projects: ReadonlyMap<string, ProjectState>;

  constructor(
    private readonly map: ReadonlyMap<string, Source>,
    projects: readonly ProjectState[],
  ) {
    this.#projects = new Map(projects.map((p) => [p.slug, p]));
  }

  get(key: string): Source | undefined {
    return this.map.get(key) ?? this.repository(key);
  }

  private repository(key: string): Source | undefined {
    const slash = key.indexOf("/", 8);
    if (!key.startsWith("project/") || slash < 0 || !key.startsWith("/repo/", slash)) return;
    const repos = this.#projects.get(key.slice(8, slash))?.git?.repositories;
    if (!repos) return undefined;
    let lo = 0;
    let hi = repos.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const k = repos[mid].key;
      if (k === key) return repos[mid].source;
      if (k < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  *[Symbol.iterator](): Iterator<[string, Source]> {
    yield* this.map;
    for (const p of this.#projects.values())
      for (const r of p.git?.repositories ?? []) yield [r.key, r.source];
  }
}
