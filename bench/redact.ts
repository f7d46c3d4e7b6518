/**
 * Prints the redactor's cost over a 20,000-entry plan (bench/redact-run.ts):
 *
 *   node -e "import('vite').then((v) => v.runnerImport('./bench/redact.ts'))" -- [--entries N] [--runs N]
 */
import { redactBench } from "./redact-run.js";

const flag = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

console.log(redactBench({ entries: flag("entries", 20_000), runs: flag("runs", 5) }));
