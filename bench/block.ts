/**
 * A named block of bench/results.md (`<!-- begin NAME -->` … `<!-- end NAME -->`) that a
 * benchmark owns: replaced in place when it is there, appended otherwise; everything else in
 * the file is kept. The block keeps its rows as JSON (`<!-- data … -->`) so a run replaces
 * only its own rows (e.g. `before` and `after` side by side).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const RESULTS = join(import.meta.dirname, "results.md");

const pattern = (name: string) =>
  new RegExp(`<!-- begin ${name} -->[\\s\\S]*?<!-- end ${name} -->\\n?`);

/** The rows kept in block `name` of `file`, by label. */
export function readRows<T>(name: string, file = RESULTS): Record<string, T> {
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const block = pattern(name).exec(text)?.[0] ?? "";
  const data = /<!-- data (\{.*\}) -->/.exec(block)?.[1];
  return data ? (JSON.parse(data) as Record<string, T>) : {};
}

/** Write block `name` (its markdown lines) with `rows` as its data, then prettier the file. */
export function writeBlock(
  name: string,
  rows: Record<string, unknown>,
  lines: string[],
  file = RESULTS,
): void {
  const text = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmark results\n";
  const block = [
    `<!-- begin ${name} -->`,
    `<!-- data ${JSON.stringify(rows)} -->`,
    "",
    ...lines,
    "",
    `<!-- end ${name} -->`,
    "",
  ].join("\n");
  const re = pattern(name);
  writeFileSync(
    file,
    re.test(text) ? text.replace(re, () => block) : `${text.trimEnd()}\n\n${block}`,
  );
  try {
    execFileSync(join(import.meta.dirname, "../node_modules/.bin/prettier"), ["--write", file], {
      stdio: "ignore",
    });
  } catch {
    console.error("prettier not available: results.md left unformatted");
  }
}

/** The machine's load (1, 5 and 15 minute averages) as `uptime` shows it. */
export function loadAverage(): string {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
}
