/**
 * Named methods generated from the route table: `ops.git.repos.create(args)` is
 * `call("git.repos.create", args)`, with the same types. The nesting follows the dots of
 * the operation ids, so there is nothing to keep in sync by hand.
 */
import type { ArgsOf, ResponseOf } from "./op-types.js";
import { operations, type OperationId } from "./routes.js";

/** The method of one operation. */
export type OperationMethod<K extends OperationId> = (...args: ArgsOf<K>) => Promise<ResponseOf<K>>;

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (
  x: infer I,
) => void
  ? I
  : never;
type Nest<Path extends string, V> = Path extends `${infer Head}.${infer Rest}`
  ? { readonly [P in Head]: Nest<Rest, V> }
  : { readonly [P in Path]: V };

/** Every operation as a nested method (`ops.users.git.create`, `ops.licenses.list`, …). */
export type OperationMethods = UnionToIntersection<
  { [K in OperationId]: Nest<K, OperationMethod<K>> }[OperationId]
>;

/** Build the nested methods over a generic `call`. */
export function buildMethods(
  call: (op: OperationId, ...args: unknown[]) => Promise<unknown>,
): OperationMethods {
  const root: Record<string, unknown> = {};
  for (const [op] of operations) {
    const parts = op.split(".");
    let node = root;
    for (const p of parts.slice(0, -1)) {
      const child = node[p];
      if (typeof child === "function")
        throw new Error(`operation id ${op} nests under the operation ${p}`);
      node = (child as Record<string, unknown> | undefined) ?? (node[p] = {});
    }
    const leaf = parts[parts.length - 1];
    if (leaf in node) throw new Error(`operation id ${op} collides with a namespace`);
    node[leaf] = (...args: unknown[]) => call(op, ...args);
  }
  return root as OperationMethods;
}
