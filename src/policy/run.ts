/**
 * One rule on one input: fail closed. A rule passes only when its expression gives `true`;
 * `false` is a violation with the rule's message, and anything else (a missing field, a
 * runtime type error, a result that is not a bool, a cost over the limit) is a violation
 * saying "could not evaluate: …" — whatever the enforcement, never a pass.
 */
import { COST_LIMIT, type CostSizes } from "./cost.js";
import { clipMessage } from "./position.js";
import type { CompiledRule } from "./types.js";

/** The outcome of one rule on one input. */
export type RuleOutcome =
  { pass: true } | { pass: false; message: string; evaluationError?: string };

/** What went wrong, on one line, said for a policy author (never a megabyte long). */
const firstLine = (e: unknown) =>
  clipMessage(
    indexMessage(
      String(e instanceof Error ? ((e as { summary?: string }).summary ?? e.message) : e).split(
        "\n",
      )[0],
    ),
  );

/**
 * The CEL library's index error says "size undefined" for an empty list (it prints
 * `length || size`): the index and the list's real size instead.
 */
export function indexMessage(message: string): string {
  const m = /^No such key: index out of bounds, index (-?\d+) (?:< 0|>= size (\S+))$/.exec(message);
  if (!m) return message;
  const [, index, size] = m;
  if (size === undefined) return `index ${index} is out of range: a list's first index is 0`;
  const n = /^\d+$/.test(size) ? Number(size) : 0;
  return `index ${index} is out of range: the list ${n === 0 ? "is empty" : `has ${n} item${n === 1 ? "" : "s"} (index 0 to ${n - 1})`}`;
}

export function runRule(
  rule: CompiledRule,
  vars: Record<string, unknown>,
  sizes: () => CostSizes,
): RuleOutcome {
  const fail = (why: string): RuleOutcome => ({
    pass: false,
    message: `could not evaluate: ${why}`,
    evaluationError: why,
  });
  const cost = rule.fixedCost ?? rule.cost(sizes());
  if (cost > COST_LIMIT)
    return fail(
      `rule ${rule.name} exceeds the evaluation cost limit (${cost.toLocaleString("en-US")} > ${COST_LIMIT.toLocaleString("en-US")} steps)`,
    );
  let result: unknown;
  try {
    result = rule.check(vars);
  } catch (e) {
    return fail(firstLine(e));
  }
  if (result === true) return { pass: true };
  if (result !== false) return fail(`the expression gave ${typeof result}, not a bool`);
  let message: string;
  try {
    message = rule.message(vars);
  } catch (e) {
    message = `rule ${rule.name} does not hold (messageExpression: ${firstLine(e)})`;
  }
  return { pass: false, message };
}
