/**
 * Outage benchmark (bench/outage-run.ts has the cases): the built CLI against services that
 * hang — accept and never answer, send headers and stall the body, a git host that never
 * answers, a service that swallows requests for a while — over several trials each,
 * reporting the longest time past `--outage-timeout`. Writes block `outage` of
 * results.md (`--no-write` to only print).
 *
 *   npm run build
 *   node -e "import('vite').then((v) => v.runnerImport('./bench/outage.ts'))" -- --trials 4 --timeout 5
 *
 * Flags: `--trials N` (4), `--timeout S` (--outage-timeout, 5), `--outage S` (how long the
 * swallow lasts, 3), `--cases a,b` (default: all of CASES), `--no-write`.
 */
import { writeBlock } from "./block.js";
import {
  CASES,
  outageTable,
  runOutage,
  type OutageCase,
  type OutageOptions,
} from "./outage-run.js";

function flag(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

async function main(argv: string[]): Promise<void> {
  const o: OutageOptions = {
    trials: Number(flag(argv, "--trials") ?? 4),
    timeoutS: Number(flag(argv, "--timeout") ?? 5),
    outageS: Number(flag(argv, "--outage") ?? 3),
    cases: (flag(argv, "--cases")?.split(",") as OutageCase[] | undefined) ?? CASES,
  };
  const results = await runOutage(o);
  const lines = outageTable(o, results);
  console.log(lines.join("\n"));
  for (const r of results)
    for (const t of r.trials)
      if (t.code !== r.wantCode) console.log(`${r.name}: exit ${t.code}: ${t.said}`);
  if (!argv.includes("--no-write")) writeBlock("outage", { results }, lines);
}

await main(process.argv.slice(1).filter((a) => a !== "--"));
