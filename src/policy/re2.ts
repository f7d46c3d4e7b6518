/**
 * CEL's `matches()` as the CEL specification defines it: RE2 syntax, a partial match, linear
 * time in the input whatever the pattern. The CEL library runs it with JavaScript's
 * backtracking engine, where `"^(a+)+\\1$"` on 35 characters takes minutes and no cost limit
 * can bound one call. So rules run `matches()` on re2js (a pure-JavaScript port of RE2/J:
 * synchronous, no WebAssembly to load or free, bundles like any module), through the one
 * rewrite below; patterns RE2 refuses — backreferences, lookaround — are errors: at load when
 * the pattern is a constant (a literal or a param), at evaluation otherwise (the rule then
 * "could not evaluate", which is never a pass). No process-wide engine setting is involved:
 * phctl's own regular expressions keep V8's engine and its speed.
 *
 * re2js (300 kB, with Unicode tables built at its load) is loaded at the first pattern, not
 * with the policy engine: most policies use no `matches()`, and `validate` of them would pay
 * for it at every start (bench/startup.ts). In the CLI's bundles (scripts/bundle.js) it is a
 * bundle of its own, `bundle-vendor-re2js.cjs`, loaded with its code cache through the
 * bundle's `require` (src/cli/bundle-load.ts); elsewhere Node's `require` loads the package.
 */
import { createRequire } from "node:module";
import type { ASTNode } from "@marcbachmann/cel-js";
import type * as Re2js from "re2js";
import type { RE2JS } from "re2js";
import { clipMessage } from "./position.js";

/** `true` in the CLI's bundles (esbuild's `define`), undeclared elsewhere. */
declare const PHCTL_BUNDLED: boolean | undefined;

let engine: typeof RE2JS | undefined;

/** re2js's RE2JS, loaded the first time a pattern is compiled. */
function re2js(): typeof RE2JS {
  if (engine) return engine;
  const mod =
    typeof PHCTL_BUNDLED !== "undefined" && PHCTL_BUNDLED
      ? // The bundle's wrapper `require` (bundle-load.ts): the sibling bundle with its cache.
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        (require("./bundle-vendor-re2js.cjs") as typeof Re2js)
      : (createRequire(import.meta.url)("re2js") as typeof Re2js);
  engine = mod.RE2JS;
  return engine;
}

/** The name rules' `matches()` calls are evaluated under (as long as `matches`: offsets keep). */
export const RE2_FUNCTION = "re2test";

/** Compiled patterns, most recently used last; bounded so that dynamic patterns cannot grow it. */
const compiled = new Map<string, RE2JS>();
const CACHE_SIZE = 512;

/** Why RE2 refuses `pattern`, said for a policy author; undefined when it compiles. */
export function patternProblem(pattern: string): string | undefined {
  try {
    compile(pattern);
    return undefined;
  } catch (e) {
    return problemOf(pattern, e);
  }
}

function problemOf(pattern: string, e: unknown): string {
  const why = clipMessage(
    e instanceof Error ? e.message.replace(/^error parsing regexp: /, "") : String(e),
  );
  const lookaround = /\(\?<?[=!]/.test(pattern);
  const backref = /\\[1-9]|\\k</.test(pattern);
  const hint =
    lookaround || backref
      ? `: matches() uses RE2 syntax, which has no ${backref ? "backreferences" : "lookaround"} (they make matching exponential); match the parts separately, e.g. a.matches(x) && !a.matches(y)`
      : "";
  const shown = pattern.length > 80 ? `${pattern.slice(0, 77)}...` : pattern;
  return `invalid RE2 pattern \`${shown.replace(/\n/g, "\\n")}\`: ${why}${hint}`;
}

function compile(pattern: string): RE2JS {
  let re = compiled.get(pattern);
  if (re) {
    compiled.delete(pattern);
    compiled.set(pattern, re);
    return re;
  }
  re = re2js().compile(pattern);
  compiled.set(pattern, re);
  if (compiled.size > CACHE_SIZE) compiled.delete(compiled.keys().next().value as string);
  return re;
}

/** `s.matches(pattern)`: does RE2 find `pattern` anywhere in `s`? Throws on an invalid pattern. */
export function re2Matches(s: string, pattern: string): boolean {
  let re: RE2JS;
  try {
    re = compile(pattern);
  } catch (e) {
    throw new Error(problemOf(pattern, e));
  }
  return re.matcher(s).find();
}

/** A `matches()` call found in an expression: where its name is, and its pattern argument. */
export interface MatchesCall {
  /** Offset of the name `matches` in the expression. */
  nameAt: number;
  pattern: ASTNode;
}

const isNode = (x: unknown): x is ASTNode =>
  x !== null && typeof x === "object" && "op" in x && "args" in x;

/** Every `x.matches(p)` call of a parsed expression (`text`: its source), in source order. */
export function matchesCalls(ast: ASTNode, text: string): MatchesCall[] {
  const out: MatchesCall[] = [];
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) {
      for (const y of x) walk(y);
      return;
    }
    if (!isNode(x)) return;
    if (x.op === "rcall") {
      const [name, receiver, args] = x.args;
      if (name === "matches" && args.length === 1) {
        const from = (receiver as { end?: number }).end ?? x.range.start;
        const to = (args[0] as { start?: number }).start ?? x.range.end;
        const at = text.slice(from, to).search(/matches\s*\(\s*$/);
        if (at >= 0) out.push({ nameAt: from + at, pattern: args[0] });
      }
    }
    walk(x.args);
  };
  walk(ast);
  return out.sort((a, b) => a.nameAt - b.nameAt);
}

/** The pattern's value when it is a constant: a string literal, or `params.NAME` holding a string. */
export function constantPattern(
  node: ASTNode,
  params: Record<string, unknown>,
): string | undefined {
  if (node.op === "value") return typeof node.args === "string" ? node.args : undefined;
  if (node.op === ".") {
    const [on, name] = node.args;
    if (on.op === "id" && on.args === "params") {
      const v = params[name];
      return typeof v === "string" ? v : undefined;
    }
  }
  return undefined;
}

/** `text` with every `matches(` call of `calls` renamed to RE2_FUNCTION (same length). */
export function withRe2(text: string, calls: readonly MatchesCall[]): string {
  let out = text;
  for (const c of calls)
    out = `${out.slice(0, c.nameAt)}${RE2_FUNCTION}${out.slice(c.nameAt + RE2_FUNCTION.length)}`;
  return out;
}
