/**
 * Files generated from one source and committed (editors and users read them): a test
 * fails when a committed copy is out of date; `npm run gen` rewrites them.
 */
import { publishedSchemas } from "./published-schemas.js";
import { renderValidators } from "./manifest/validator-gen.js";
import { VALIDATORS_FILE } from "./manifest/validator.js";

export interface GeneratedFile {
  /** Path relative to the repository root. */
  path: string;
  render(): string;
}

export const generatedFiles: GeneratedFile[] = [
  ...publishedSchemas.map((s) => ({ path: s.path, render: () => s.render() })),
  { path: VALIDATORS_FILE, render: renderValidators },
  // examples/ is a complete config directory, as `phctl export` writes one: copied anywhere,
  // its modelines still find their schemas.
  ...publishedSchemas
    .filter((s) => s.name === "manifest" || s.name === "config")
    .map((s) => ({
      path: s.path.replace(/^schemas\//, "examples/schemas/"),
      render: () => s.render(),
    })),
];
