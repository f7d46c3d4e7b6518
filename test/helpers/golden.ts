/** Golden files: compare with test/golden/<name>; `UPDATE_GOLDEN=1 npm test` rewrites them. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect } from "vitest";

export function expectGolden(name: string, actual: string): void {
  const file = join("test/golden", name);
  if (process.env.UPDATE_GOLDEN === "1" || !existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    if (process.env.UPDATE_GOLDEN !== "1")
      throw new Error(`golden file ${file} was missing; written — review and commit it`);
  }
  expect(actual).toBe(readFileSync(file, "utf8"));
}
