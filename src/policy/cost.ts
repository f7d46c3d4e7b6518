/**
 * The evaluation cost limit. The CEL library bounds an expression's size at parse time but
 * has no runtime budget, and a synchronous evaluation cannot be interrupted; so, as
 * Kubernetes estimates a CEL expression's cost from its AST and the sizes lists may have,
 * a rule's worst-case cost is computed from its AST before each evaluation, with the sizes
 * its input actually has: every node costs 1, and a comprehension (`all`, `exists`,
 * `exists_one`, `map`, `filter`) costs its body once per element of the largest list the
 * input holds (`users` comprehensions: once per user). A list derived from the input (a
 * filter, a map) is never longer than that; literals are bounded by the parser's limits. A
 * rule whose bound exceeds COST_LIMIT is not evaluated: it is a violation naming the rule
 * ("could not evaluate: …"), so nesting comprehensions over 20,000 repositories fails loud
 * instead of hanging CI.
 */
import type { ASTNode } from "@marcbachmann/cel-js";

/** Evaluation steps a rule may take on one object. */
export const COST_LIMIT = 1_000_000;

const COMPREHENSIONS = new Set(["all", "exists", "exists_one", "map", "filter"]);

/** Sizes the cost depends on: the input's largest list, and the number of users. */
export interface CostSizes {
  list: number;
  users: number;
}

type Cost = (s: CostSizes) => number;

const isNode = (x: unknown): x is ASTNode =>
  x !== null && typeof x === "object" && "op" in x && "args" in x;

function children(args: unknown): ASTNode[] {
  if (isNode(args)) return [args];
  if (Array.isArray(args)) return args.flatMap(children);
  return [];
}

/** The worst-case cost of evaluating `node`, as a function of the input's sizes. */
export function costOf(node: ASTNode): Cost {
  if (node.op === "rcall") {
    const [name, receiver, args] = node.args;
    if (COMPREHENSIONS.has(name)) {
      const onReceiver = costOf(receiver);
      const body = children(args).map(costOf);
      const overUsers = receiver.op === "id" && receiver.args === "users";
      return (s) => {
        const per = body.reduce((sum, c) => sum + c(s), 1);
        return 1 + onReceiver(s) + (overUsers ? s.users : s.list) * per;
      };
    }
  }
  const parts = children(node.args).map(costOf);
  if (parts.length === 0) return () => 1;
  return (s) => parts.reduce((sum, c) => sum + c(s), 1);
}

/** Whether the cost grows with the input at all (no need to measure it otherwise). */
export const constantCost = (c: Cost) =>
  c({ list: 0, users: 0 }) === c({ list: 1_000, users: 1_000 });

/** The length of the longest list (or map) in a value. */
export function largestList(v: unknown): number {
  if (Array.isArray(v)) {
    let n = v.length;
    for (const x of v) if (x !== null && typeof x === "object") n = Math.max(n, largestList(x));
    return n;
  }
  if (v !== null && typeof v === "object") {
    const values = Object.values(v as Record<string, unknown>);
    let n = values.length;
    for (const x of values)
      if (x !== null && typeof x === "object") n = Math.max(n, largestList(x));
    return n;
  }
  return 0;
}
