/**
 * `kind: Policy` documents → compiled policies, once at load: every expression parsed and
 * type-checked against the selected kind's schema and the policy's params, enforcement
 * bindings and exceptions checked. Problems are diagnostics at the expression's
 * file:line:col (a type error carries the caret excerpt and a did-you-mean).
 */
import type { Environment, ParseError, TypeCheckResult } from "@marcbachmann/cel-js";
import type { ValidDoc } from "../manifest/check.js";
import { formatPath, makeDiagnostic } from "../manifest/diagnostics.js";
import { didYouMean } from "../manifest/hints.js";
import type { FieldPath } from "../manifest/positions.js";
import type { Diagnostic } from "../manifest/types.js";
import { constantCost, costOf, COST_LIMIT, largestList, type CostSizes } from "./cost.js";
import { checkEnv, evaluationEnv, fieldNames } from "./env.js";
import { exceptionDiagnostics, exceptionInfo } from "./exceptions.js";
import { nestedTooDeeply, nestingProblem } from "./nesting.js";
import { caret, clipMessage, diskText, locateOffset, type TextOf } from "./position.js";
import { constantPattern, matchesCalls, patternProblem, withRe2 } from "./re2.js";
import type { CompiledPolicy, CompiledRule } from "./types.js";

export interface CompileOptions {
  /** Today, for exceptions (default: the clock). */
  now?: Date;
  /** The manifests' texts, to place a position inside an expression (default: the disk). */
  text?: TextOf;
}

export interface CompileResult {
  policies: CompiledPolicy[];
  /** Errors (the policy is left out) and warnings (exceptions that expire or expired). */
  diagnostics: Diagnostic[];
}

type PolicyDoc = ValidDoc<"Policy">;

interface Compiled {
  run: (vars: Record<string, unknown>) => unknown;
  cost: ReturnType<typeof costOf>;
}

/** One expression: parsed and checked to give `type`; a diagnostic otherwise. */
function compileExpression(
  doc: PolicyDoc,
  env: Environment,
  path: FieldPath,
  expression: string,
  want: "bool" | "string",
  text: TextOf,
  out: Diagnostic[],
  params: Record<string, unknown>,
): Compiled | undefined {
  const at = doc.handle.at(path, "value");
  const where = { kind: "Policy", name: doc.name, path: formatPath(path) };
  let result: TypeCheckResult;
  const deep = nestingProblem(expression);
  try {
    result = deep
      ? {
          valid: false,
          error: { summary: deep.message, range: { start: deep.offset } } as ParseError,
        }
      : env.check(expression);
  } catch (e) {
    result = { valid: false, error: e as ParseError };
  }
  const error = result.error;
  if (!result.valid) {
    const offset = error?.range?.start ?? 0;
    const summary = limitMessage(
      clipMessage((error?.summary ?? error?.message ?? "invalid expression").split("\n")[0]),
    );
    const key = /^No such key: (.+)$/.exec(summary)?.[1];
    const hint = key
      ? didYouMean(key, fieldNames(env))
      : celHint(summary, expression.slice(offset, error?.range?.end ?? offset + 1), scopeOf(doc));
    const d = makeDiagnostic(
      "error",
      "policy-expression",
      locateOffset(at, expression, offset, text(at.file)),
      `rule ${ruleName(doc, path)}: ${String(path[path.length - 1])}: ${summary}`,
      { ...where, hint },
    );
    d.excerpt = caret(expression, offset, (error?.range?.end ?? offset + 1) - offset);
    out.push(d);
    return undefined;
  }
  if (result.type !== want && result.type !== "dyn") {
    out.push(
      makeDiagnostic(
        "error",
        "policy-expression",
        at,
        `rule ${ruleName(doc, path)}: ${String(path[path.length - 1])} gives ${result.type ?? "nothing"}; it must give a ${want}`,
        where,
      ),
    );
    return undefined;
  }
  // matches() runs on RE2: a constant pattern RE2 refuses is an error here, at its column.
  const original = evaluationEnv().parse(expression);
  const calls = matchesCalls(original.ast, expression);
  let refused = false;
  for (const c of calls) {
    const pattern = constantPattern(c.pattern, params);
    const problem = pattern === undefined ? undefined : patternProblem(pattern);
    if (problem === undefined) continue;
    refused = true;
    const offset = c.pattern.range.start;
    const d = makeDiagnostic(
      "error",
      "policy-expression",
      locateOffset(at, expression, offset, text(at.file)),
      `rule ${ruleName(doc, path)}: ${String(path[path.length - 1])}: ${problem}`,
      where,
    );
    d.excerpt = caret(expression, offset, c.pattern.range.end - offset);
    out.push(d);
  }
  if (refused) return undefined;
  const parsed = calls.length > 0 ? evaluationEnv().parse(withRe2(expression, calls)) : original;
  return { run: parsed, cost: costOf(parsed.ast) };
}

/**
 * The library's structural limits said for a policy author: `Exceeded maxDepth (64)` is
 * nesting too deep, as a run of unary operators is (nesting.ts).
 */
function limitMessage(summary: string): string {
  if (/^Exceeded maxDepth\b/.test(summary)) return nestedTooDeeply();
  const nodes = /^Exceeded maxAstNodes \((\d+)\)/.exec(summary);
  if (nodes)
    return `too large, at most ${Number(nodes[1]).toLocaleString("en-US")} operands and operators; split it into several rules`;
  return summary;
}

/** The variables a rule of each scope may read. */
const VARIABLES = {
  object: "object, users, params",
  change: "change, users, params",
  live: "object, params",
};
const scopeOf = (doc: PolicyDoc) => doc.value.spec.scope ?? "object";

/**
 * What to write instead, for the mistakes people bring from other languages: `and`, `or`,
 * `not`, `=`; and the variables in scope for an unknown one.
 */
function celHint(summary: string, at: string, scope: keyof typeof VARIABLES): string | undefined {
  if (/^Unknown variable/.test(summary))
    return `${scope === "object" ? "an" : "a"} ${scope} rule reads ${VARIABLES[scope]}`;
  const word = /^[A-Za-z]+/.exec(at)?.[0];
  const ops: Record<string, string> = { and: "&&", or: "||", not: "!" };
  if (word && word in ops) return `CEL writes ${word} as ${ops[word]}`;
  if (/^Unexpected character: '?='?/.test(summary) && at.startsWith("="))
    return "CEL compares with ==";
  return undefined;
}

const ruleName = (doc: PolicyDoc, path: FieldPath) =>
  doc.value.spec.rules[path[2] as number]?.name ?? "?";

function compileOne(doc: PolicyDoc, text: TextOf, now: Date, out: Diagnostic[]) {
  const spec = doc.value.spec;
  const errors = out.length;
  const where = { kind: "Policy", name: doc.name };
  const scope = spec.scope ?? "object";
  const kind = spec.select.kind;
  const params = spec.params ?? {};
  if (params === null || typeof params !== "object" || Array.isArray(params)) {
    out.push(
      makeDiagnostic(
        "error",
        "policy-params",
        doc.handle.at(["spec", "params"], "value"),
        "params must be a mapping (name: value)",
        where,
      ),
    );
    return undefined;
  }
  (spec.bindings ?? []).forEach((b, i) => {
    if (b.select.kind !== kind)
      out.push(
        makeDiagnostic(
          "error",
          "policy-binding",
          doc.handle.at(["spec", "bindings", i, "select", "kind"], "value"),
          `a binding selects ${b.select.kind}, the policy ${kind}`,
          { ...where, hint: `bindings choose among the policy's own objects: kind: ${kind}` },
        ),
      );
  });
  const env = checkEnv(scope, kind, params);
  const paramsList = largestList(params);
  const rules: CompiledRule[] = [];
  const seen = new Set<string>();
  spec.rules.forEach((r, i) => {
    const base = ["spec", "rules", i];
    if (seen.has(r.name))
      out.push(
        makeDiagnostic(
          "error",
          "policy-rule",
          doc.handle.at([...base, "name"], "value"),
          `a second rule named ${r.name}`,
          where,
        ),
      );
    seen.add(r.name);
    const check = compileExpression(
      doc,
      env,
      [...base, "expression"],
      r.expression,
      "bool",
      text,
      out,
      params,
    );
    const msg =
      r.messageExpression !== undefined
        ? compileExpression(
            doc,
            env,
            [...base, "messageExpression"],
            r.messageExpression,
            "string",
            text,
            out,
            params,
          )
        : undefined;
    if (!check || (r.messageExpression !== undefined && !msg)) return;
    const fixed = r.message ?? `rule ${r.name} does not hold`;
    // A comprehension may iterate the params' lists as well as the input's.
    const cost =
      paramsList === 0
        ? check.cost
        : (s: CostSizes) => check.cost({ ...s, list: Math.max(s.list, paramsList) });
    const least = cost({ list: 0, users: 0 });
    if (least > COST_LIMIT) {
      out.push(
        makeDiagnostic(
          "error",
          "policy-cost",
          doc.handle.at([...base, "expression"], "value"),
          `rule ${r.name}: over the evaluation cost limit on its params alone (${least.toLocaleString("en-US")} > ${COST_LIMIT.toLocaleString("en-US")} steps)`,
          {
            ...where,
            hint: "nest fewer comprehensions over params lists, or shorten the lists",
          },
        ),
      );
      return;
    }
    rules.push({
      name: r.name,
      source: doc.handle.at([...base, "expression"], "value"),
      check: check.run,
      message: msg ? (vars) => String(msg.run(vars)) : () => fixed,
      cost,
      ...(constantCost(cost) ? { fixedCost: least } : {}),
    });
  });
  const exceptions = (spec.exceptions ?? []).map((e, i) =>
    exceptionInfo(e, doc.handle.at(["spec", "exceptions", i]), now),
  );
  exceptionDiagnostics(doc, exceptions, seen, out);
  if (out.slice(errors).some((d) => d.severity === "error")) return undefined;
  const policy: CompiledPolicy = {
    name: doc.name,
    scope,
    select: spec.select,
    enforcement: spec.enforcement ?? "deny",
    bindings: (spec.bindings ?? []).map((b) => ({ select: b.select, enforcement: b.enforcement })),
    params,
    rules,
    exceptions,
    source: doc.handle.start,
    selectSource: doc.handle.at(["spec", "select"]),
    digest: JSON.stringify(spec),
    selected: [],
  };
  if (spec.description !== undefined) policy.description = spec.description;
  return policy;
}

/** Compile every `kind: Policy` document of `docs` (other kinds are ignored). */
export function compilePolicies(
  docs: readonly ValidDoc[],
  opts: CompileOptions = {},
): CompileResult {
  const now = opts.now ?? new Date();
  const text = opts.text ?? diskText();
  const diagnostics: Diagnostic[] = [];
  const policies: CompiledPolicy[] = [];
  const names = new Map<string, PolicyDoc>();
  for (const d of docs) {
    if (d.kind !== "Policy") continue;
    // A second policy of one name is the identity rule's to report (src/manifest/rules).
    if (names.has(d.name)) continue;
    names.set(d.name, d);
    const p = compileOne(d, text, now, diagnostics);
    if (p) policies.push(p);
  }
  return { policies, diagnostics };
}
