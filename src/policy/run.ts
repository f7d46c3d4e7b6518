/**
 * One rule on one input: fail closed. A rule passes only when its expression gives `true`;
 * `false` is a violation with the rule's message, and anything else (a missing field, a
 * runtime type error, a result that is not a bool, a cost over the limit) is a violation
 * saying "could not evaluate: …" — whatever the enforcement, never a pass.
 */
import { COST_LIMIT, type CostSizes } from "./cost.js";
import type { CompiledRule } from "./types.js";

/** The outcome of one rule on one input. */
export type RuleOutcome =
  { pass: true } | { pass: false; message: string; evaluationError?: string };

const firstLine = (e: unknown) =>
  String(e instanceof Error ? ((e as { summary?: string }).summary ?? e.message) : e).split(
    "\n",
  )[0];

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
