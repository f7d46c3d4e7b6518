/** `phctl schema [KIND]`: print the JSON Schema of manifests, one kind, or phctl.yaml. */
import type { Command } from "commander";
import { userError } from "../errors.js";
import { didYouMean } from "../manifest/hints.js";
import { renderSchema, SCHEMA_FILES, type SchemaName } from "../manifest/schema/index.js";

const NAMES = Object.keys(SCHEMA_FILES) as SchemaName[];

export function registerSchema(program: Command): void {
  program
    .command("schema")
    .description(
      "print the JSON Schema (draft 2020-12) of manifests, of one kind, or of phctl.yaml",
    )
    .argument("[kind]", `one of ${NAMES.join(", ")}; manifest is any kind`, "manifest")
    .addHelpText(
      "after",
      `
Examples:
  phctl schema > manifest.schema.json  # for editors: # yaml-language-server: $schema=…
  phctl schema Project                 # one kind
  phctl schema phctl.yaml              # the config file (also: config)`,
    )
    .action((kind: string) => {
      const wanted = kind.toLowerCase().replace(/^phctl\.ya?ml$/, "config");
      const name = NAMES.find((n) => n === wanted);
      if (!name) {
        const hint = didYouMean(wanted, NAMES);
        throw userError(
          "UNKNOWN_SCHEMA",
          `no schema ${kind}; expected one of ${NAMES.join(", ")}${hint ? ` (${hint})` : ""}`,
        );
      }
      process.stdout.write(renderSchema(name));
    });
}
