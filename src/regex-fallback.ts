/**
 * A policy's `matches()` runs the author's pattern with JavaScript's backtracking engine,
 * which no cost limit can bound: `"^(a+)+$"` against 32 a's and a "!" takes minutes and hangs
 * CI. V8 can switch a pattern to its linear-time engine once it backtracks too much; this
 * turns that on. The CLI does it first thing (src/cli/main.ts), before any bundle loads: V8
 * refuses a code cache made under other flags, and the build makes the caches through the
 * same entry point, so both sides run with it. Patterns phctl writes itself never backtrack
 * that far, so nothing else changes. Patterns the linear engine cannot run (backreferences,
 * lookbehind) keep the backtracking one.
 */
import { setFlagsFromString } from "node:v8";

const DONE = Symbol.for("phctl.regexLinearFallback");

/** Turn on V8's linear-time fallback for regular expressions, once per process. */
export function boundRegexBacktracking(): void {
  const g = globalThis as { [DONE]?: true };
  if (g[DONE]) return;
  g[DONE] = true;
  setFlagsFromString("--enable-experimental-regexp-engine-on-excessive-backtracks");
}
