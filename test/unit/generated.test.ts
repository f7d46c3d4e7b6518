import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generatedFiles } from "../../src/generated.js";

describe("generated files", () => {
  for (const f of generatedFiles) {
    it(`${f.path} is up to date (npm run gen)`, () => {
      expect(readFileSync(f.path, "utf8")).toBe(f.render());
    });
  }
});
