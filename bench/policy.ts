/**
 * Policy benchmark (issue 29; not part of `npm test`): 20 object rules over size L (2,000
 * projects, 20,000 repositories, 10,000 users); writes its figures into bench/results.md
 * (between the policy markers).
 *
 *   node -e "import('vite').then((v) => v.runnerImport('./bench/policy.ts'))" -- [S|M|L]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import type { Size } from "./generate.js";
import { measure } from "./policy-rules.js";

const size = (process.argv.find((a) => /^[SML]$/.test(a)) ?? "L") as Size;
const r = measure(size);
const block = [
  "<!-- begin policy -->",
  "",
  `## Policies: 20 object rules at size ${size}`,
  "",
  `${r.shape.projects} projects, ${r.shape.repos} repositories, ${r.shape.users} users, ${r.shape.teams} teams; 20 rules (8 repository, 6 project, 4 user, 2 team), in process, best of 3:`,
  "",
  `- loading the manifests (read, parse, schemas): ${r.load.toFixed(2)} s`,
  `- the policy pass (compile + evaluate ${r.violations} violations): ${r.policy.toFixed(3)} s (target: at most 0.5 s added to validate)`,
  `- Run ${new Date().toISOString().slice(0, 16)}Z on ${cpus()[0]?.model ?? "?"}, ${cpus().length} cores, Node ${process.version}.`,
  "",
  "<!-- end policy -->",
].join("\n");
const file = join(import.meta.dirname, "results.md");
const text = readFileSync(file, "utf8");
const re = /<!-- begin policy -->[\s\S]*<!-- end policy -->/;
writeFileSync(file, re.test(text) ? text.replace(re, block) : `${text.trimEnd()}\n\n${block}\n`);
process.stdout.write(`${block}\n`);
