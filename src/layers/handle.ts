/**
 * Positions in an effective object. Its values come from several documents, so a path of the
 * effective object (`spec.git.repositories[3].enableForking`) is followed through each
 * contributor — list entries by their key, not their index — and answered by the first one
 * that has it: a schema error in a value a layer gave names the layer's line, a plan's changed
 * field the line its desired value came from. A path nobody wrote is the object's own nearest.
 */
import type { DocHandle, FieldPath } from "../manifest/positions.js";
import type { Source } from "../manifest/types.js";
import { byPrecedence, cutAtInherit, isMap, stepInto, type Contributor } from "./contributor.js";
import { lazySource } from "../manifest/lazy-source.js";
import { specPlace } from "./place.js";
import { setKey, tombstoneKey, type ListRule } from "./shape.js";

/** Who decides a place of an effective object: the winning contributor, where it says it. */
export interface Winner {
  contributor: Contributor;
  /** The path in the contributor's document. */
  at: FieldPath;
}

export class LayeredHandle implements DocHandle {
  constructor(
    private readonly own: DocHandle,
    private readonly kind: string,
    private readonly name: string,
    /** The effective document. */
    private readonly value: Record<string, unknown>,
    /** Contributors of `spec`, in precedence (the object's own first). */
    private readonly spec: Contributor[],
    /** Repository layers for one repository entry, in precedence. */
    private readonly repositoryLayers: (key: string) => Contributor[],
  ) {}

  get file(): string {
    return this.own.file;
  }

  get start(): Source {
    return this.own.start;
  }

  sourceAt(offset: number): Source {
    return this.own.sourceAt(offset);
  }

  /** Found when first read (lazy-source.ts): most positions normalise records are never. */
  at(path: FieldPath, which: "key" | "value" = "value"): Source {
    const p = [...path];
    return lazySource(() => this.atNow(p, which));
  }

  private atNow(path: FieldPath, which: "key" | "value"): Source {
    const w = this.winner(path);
    if (!w) return this.own.at(path, which);
    return w.contributor.layer
      ? layerAt(w.contributor.handle, w.at, which)
      : w.contributor.handle.at(w.at, which);
  }

  /** The contributor whose value is at `path` (undefined: nobody wrote it, or not under spec). */
  winner(path: FieldPath): Winner | undefined {
    if (path[0] !== "spec") return undefined;
    return this.ownWinner(path) ?? this.walk(path);
  }

  /**
   * The object's own document wins wherever it has a value (it comes first in precedence):
   * found by following `path` through it alone — no contributor built — when every list
   * step lands on the same entry in the own list as in the effective one. Undefined: ask walk.
   */
  private ownWinner(path: FieldPath): Winner | undefined {
    const own = this.spec[0];
    if (own.layer) return undefined;
    let mine: unknown = own.value;
    let node: unknown = this.value.spec;
    let place = specPlace(this.kind);
    const at: (string | number)[] = [...own.at];
    for (let s = 1; s < path.length; s++) {
      const seg = path[s];
      if (typeof seg === "number") {
        if (!Array.isArray(node) || !Array.isArray(mine)) return undefined;
        const rule = place.rule;
        const item: unknown = mine[seg];
        if (item === undefined || !sameEntry(rule, this.name, item, node[seg])) return undefined;
        // A tombstone before it shifts the own list's indices against the effective one's.
        for (let i = 0; i <= seg; i++) if (tombstoneKey(mine[i]) !== undefined) return undefined;
        if (rule.merge === "replace") return { contributor: own, at: [...at, ...path.slice(s)] };
        mine = item;
        node = node[seg];
        at.push(seg);
        continue;
      }
      const k = String(seg);
      // `admins: [a]` is `admins: { users: [a] }`: the list is at the level's own path.
      if (place.accessLevel && Array.isArray(mine)) {
        if (k !== "users") return undefined;
      } else {
        if (!isMap(mine)) return undefined;
        mine = mine[k];
        at.push(k);
      }
      node = isMap(node) ? node[k] : undefined;
      place = place.child(k);
      if (mine === undefined) return undefined;
    }
    return { contributor: { ...own, at, value: mine }, at };
  }

  /** `winner` by following every contributor down `path`. */
  private walk(path: FieldPath): Winner | undefined {
    const found = this.follow(path);
    if (!found) return undefined;
    const c = found.cs[0];
    return { contributor: c, at: [...c.at, ...path.slice(found.steps)] };
  }

  /**
   * Every document whose own list holds the entry at `path` (an entry of a keyed list of the
   * effective document), in precedence, each at its item: the places the entry comes from
   * (drift --adopt takes an entry gone live out of them, or writes a tombstone).
   */
  givers(path: FieldPath): Contributor[] {
    const found = path[0] === "spec" ? this.follow(path) : undefined;
    if (!found || found.steps < path.length) return [];
    // Repository layers reach an entry without holding it: their place is not an item.
    return found.cs.filter((c) => typeof c.at[c.at.length - 1] === "number");
  }

  /**
   * The contributors at `path`, in precedence, and how many steps of it were followed (fewer
   * than its length inside a plain list, whose winner holds the rest); undefined: none.
   */
  private follow(path: FieldPath): { cs: Contributor[]; steps: number } | undefined {
    let cs = this.spec;
    let node: unknown = this.value.spec;
    let place = specPlace(this.kind);
    // The highest `inherit: false` passed: repository layers below it do not count.
    let floor: Contributor | undefined;
    let s = 1;
    for (; s < path.length; s++) {
      const seg = path[s];
      if (Array.isArray(node) && typeof seg === "number") {
        const rule = place.rule;
        // A plain list is its winner's whole: positions inside it are the winner's.
        if (rule.merge === "replace") break;
        const item = node[seg];
        const keyOf = (x: unknown) =>
          rule.merge === "set" ? setKey(x) : rule.key(x as Record<string, unknown>, this.name);
        const key = keyOf(item);
        const next: Contributor[] = [];
        for (const c of cs) {
          if (!Array.isArray(c.value)) continue;
          const i = indexOfKey(c.value, place.dotted, keyOf).get(key);
          if (i !== undefined) next.push({ ...c, at: [...c.at, i], value: c.value[i] });
        }
        if (place.repositories)
          for (const c of this.repositoryLayers(key))
            if (floor === undefined || byPrecedence(c, floor) < 0) next.push(c);
        cs = cutAtInherit(next.sort(byPrecedence));
        node = item;
      } else {
        const k = String(seg);
        const next: Contributor[] = [];
        for (const c of cs) {
          const into = stepInto(c, this.kind, place.dotted, k);
          if (into.value !== undefined) next.push(into);
        }
        cs = cutAtInherit(next);
        node = isMap(node) ? node[k] : undefined;
        place = place.child(k);
      }
      const last = cs.at(-1);
      if (last && isMap(last.value) && last.value.inherit === false) floor = last;
      if (cs.length === 0) return undefined;
    }
    return { cs, steps: s };
  }
}

/**
 * A place in a layer's document, found once: every object the layer selects asks for the
 * same places (a layer of every user: 2,000 times `spec.values.services.git`).
 */
const layerSources = new WeakMap<DocHandle, Map<string, Source>>();
function layerAt(handle: DocHandle, at: FieldPath, which: "key" | "value"): Source {
  let byPath = layerSources.get(handle);
  if (!byPath) layerSources.set(handle, (byPath = new Map()));
  const id = `${which}\u0000${at.join("\u0000")}`;
  let found = byPath.get(id);
  if (!found) byPath.set(id, (found = handle.at(at, which)));
  return found;
}

/**
 * A contributor list's first index of each entry key (tombstones left out), made once per list
 * and place: finding every entry of a 20,000-entry list by a scan each was quadratic.
 */
const keyIndexes = new WeakMap<readonly unknown[], Map<string, Map<string, number>>>();
function indexOfKey(
  list: readonly unknown[],
  place: string,
  keyOf: (x: unknown) => string | undefined,
): Map<string, number> {
  let byPlace = keyIndexes.get(list);
  if (!byPlace) keyIndexes.set(list, (byPlace = new Map()));
  let index = byPlace.get(place);
  if (index) return index;
  index = new Map();
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (tombstoneKey(x) !== undefined) continue;
    const k = keyOf(x);
    if (k !== undefined && !index.has(k)) index.set(k, i);
  }
  byPlace.set(place, index);
  return index;
}

/** Are `a` (of the own list) and `b` (of the effective list) the same entry? */
function sameEntry(rule: ListRule, name: string, a: unknown, b: unknown): boolean {
  if (rule.merge === "keyed")
    return (
      isMap(a) &&
      isMap(b) &&
      tombstoneKey(a) === undefined &&
      rule.key(a, name) === rule.key(b, name)
    );
  return a === b;
}
