/**
 * How deeply a CEL expression nests, checked before the library parses it. The library bounds
 * brackets and member chains (its `maxDepth`), but it reads a run of unary operators (`!!!…`,
 * `---…`) by recursion with no bound: 100,000 of them overflow the stack ("Maximum call stack
 * size exceeded"). A scan of the text — strings and comments skipped — finds such a run first,
 * so it is a load error at its column like any other.
 */

/** Levels of nesting an expression may have: brackets, member chains, unary operators. */
export const MAX_NESTING = 64;

/** What `-` after one of these is: a sign (unary), not a subtraction. */
const BEFORE_SIGN = new Set([..."([{,!-+*/%<>=&|?:"]);

/** Past the string literal whose quote is at `i` (raw: `r"…"`, triple: `"""…"""`). */
function skipString(e: string, i: number): number {
  const q = e[i];
  const raw = /[rR]/.test(e[i - 1] ?? "") && !/[A-Za-z0-9_]/.test(e[i - 2] ?? "");
  const close = e.startsWith(q.repeat(3), i) ? q.repeat(3) : q;
  for (let j = i + close.length; j < e.length; j++) {
    if (e[j] === "\\" && !raw) j++;
    else if (e.startsWith(close, j)) return j + close.length;
    else if (close.length === 1 && e[j] === "\n") return j;
  }
  return e.length;
}

/**
 * The first place `expression` nests MAX_NESTING unary operators in a row (with the whole
 * expression, one level more than the limit, as the library counts brackets), with
 * the message to give; undefined when it does not.
 */
export function nestingProblem(
  expression: string,
): { offset: number; message: string } | undefined {
  const e = expression;
  let run = 0;
  let previous = "";
  for (let i = 0; i < e.length; i++) {
    const c = e[i];
    if (c === " " || c === "\t" || c === "\n" || c === "\r") continue;
    if (c === "/" && e[i + 1] === "/") {
      const end = e.indexOf("\n", i);
      i = end === -1 ? e.length : end;
      continue;
    }
    if (c === '"' || c === "'") {
      i = skipString(e, i) - 1;
      run = 0;
      previous = c;
      continue;
    }
    const unary =
      (c === "!" && e[i + 1] !== "=") ||
      (c === "-" && (previous === "" || BEFORE_SIGN.has(previous)));
    run = unary ? run + 1 : 0;
    if (run >= MAX_NESTING) return { offset: i, message: nestedTooDeeply() };
    previous = c;
  }
  return undefined;
}

/** The one way nesting too deep is said, whichever check finds it. */
export const nestedTooDeeply = () => `nested too deeply, at most ${MAX_NESTING} levels`;
