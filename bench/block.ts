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

/** When and where a row was measured (kept beside its figures in a block's data). */
export interface RunStamp {
  when: string;
  load: string;
  machine: string;
}

/**
 * The rows of block `name` with `row` put at `key` and stamped (the time, the load average
 * since `loadBefore`, the machine): what a size × latency benchmark keeps per run.
 */
export function stampRow<T extends object>(
  name: string,
  key: string,
  row: T,
  loadBefore: string,
  machine: string,
): Record<string, T & RunStamp> {
  const rows = readRows<T & RunStamp>(name);
  rows[key] = {
    ...row,
    when: new Date().toISOString().slice(0, 16) + "Z",
    load: `${loadBefore} → ${loadAverage()}`,
    machine,
  };
  return rows;
}

/**
 * `--size S|M|L` and numeric flags (`--runs 3`) over `defaults`; anything else is an error
 * naming the flag.
 */
export function sizeFlags<T extends { size: string } & Record<string, string | number>>(
  argv: readonly string[],
  defaults: T,
  sizes: readonly string[],
): T {
  const o: Record<string, string | number> = { ...defaults };
  const args = argv.filter((a) => a !== "--");
  for (let i = 0; i < args.length; i += 2) {
    const [flag, v] = [args[i], args[i + 1] ?? ""];
    const key = flag.replace(/^--/, "");
    if (key === "size") {
      if (!sizes.includes(v.toUpperCase())) throw new Error(`--size must be ${sizes.join(", ")} (got ${v})`); // prettier-ignore
      o.size = v.toUpperCase();
      continue;
    }
    const n = Number(v);
    if (!flag.startsWith("--") || typeof defaults[key] !== "number" || !Number.isFinite(n) || n < 0)
      throw new Error(`bad flag ${flag} ${v}`);
    o[key] = n;
  }
  return o as T;
}
