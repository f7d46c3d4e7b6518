/** `npm run gen`: rewrite every generated file from its source. */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generatedFiles } from "./generated.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
for (const f of generatedFiles) {
  const target = join(root, f.path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, f.render());
  process.stdout.write(`wrote ${f.path}\n`);
}
