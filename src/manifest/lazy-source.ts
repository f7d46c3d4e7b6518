/**
 * A source position found when first read. An effective object's position follows its
 * contributors (src/layers/handle.ts): cold, the 15,500 positions normalise records for the layered
 * config of bench/layers.ts at size M cost ≈ 150 ms of CPU, and most are never read —
 * `validate` reads none, a plan only those of what it changes. So a layered handle answers
 * with this: a `{ file, line, column }` whose three values are found at the first read of
 * any, then kept. A Proxy, so that it is one cheap object (≈ 0.5 µs; an object with its own
 * getters costs ≈ 2 µs to make) that a spread, JSON, `Object.keys`, `in` and a deep
 * comparison all see as the plain object it stands for. It cannot be written to (no source
 * is) nor structured-cloned (none is).
 */
import type { Source } from "./types.js";

/** What a lazy source stands on: how to find it, then what was found. */
class Pending {
  found: Source | undefined;
  constructor(public find: () => Source) {}
  /** util.inspect (console.log) finds this on the proxy's target: shown as the source. */
  [Symbol.for("nodejs.util.inspect.custom")](this: Pending | Source): Source {
    // Called on the proxy (which reads as the source), or else on this.
    const { file, line, column } = this instanceof Pending ? settled(this) : this;
    return { file, line, column };
  }
}

function settled(p: Pending): Source {
  if (!p.found) p.found = p.find();
  return p.found;
}

const FIELDS = ["file", "line", "column"];
/** Read on a lazy source: true (on anything else: undefined). */
const LAZY = Symbol("lazy source");
const isField = (k: string | symbol): k is keyof Source =>
  k === "file" || k === "line" || k === "column";

const HANDLER: ProxyHandler<Pending> = {
  get: (p, k) => (isField(k) ? settled(p)[k] : k === LAZY || Reflect.get(Object.prototype, k)),
  has: (_, k) => isField(k) || k in Object.prototype,
  ownKeys: () => [...FIELDS],
  getOwnPropertyDescriptor: (p, k) =>
    isField(k)
      ? { value: settled(p)[k], writable: false, enumerable: true, configurable: true }
      : undefined,
  getPrototypeOf: () => Object.prototype,
  set: () => false,
  defineProperty: () => false,
  deleteProperty: () => false,
};

/** A Source that `find` gives when first read (once). */
export const lazySource = (find: () => Source): Source =>
  new Proxy(new Pending(find), HANDLER) as unknown as Source;

/** Is `s` a lazy source (not read yet or read)? Reading this does not find it. */
export const isLazySource = (s: Source): boolean =>
  (s as unknown as { [LAZY]?: true })[LAZY] === true;
