/**
 * `phctl schema [NAME]`: print one of the schemas phctl publishes in schemas/ — manifests
 * (any kind, or one), phctl.yaml, a saved plan, an API profile, the API (OpenAPI).
 */
import type { Command } from "commander";
import { userError } from "../errors.js";
import { didYouMean } from "../manifest/hints.js";
import { publishedSchemas } from "../published-schemas.js";

const NAMES = publishedSchemas.map((s) => s.name);

export function registerSchema(program: Command): void {
  program
    .command("schema")
    .description(
      "print a schema phctl publishes: manifests (all kinds or one), phctl.yaml, a saved plan, an API profile, the API",
    )
    .argument("[name]", "which schema (listed below); a kind name for one kind", "manifest")
    .addHelpText(
      "after",
      `
Schemas (each is a file in schemas/ of the package; manifest is any kind):
  ${NAMES.join(", ")}

Examples:
  phctl schema > manifest.schema.json  # for editors: # yaml-language-server: $schema=…
  phctl schema Project                 # one kind
  phctl schema phctl.yaml              # the config file (also: config)
  phctl schema plan                    # what plan --out / --format json write`,
    )
    .action((name: string) => {
      const wanted = name.toLowerCase().replace(/^phctl\.ya?ml$/, "config");
      const schema = publishedSchemas.find((s) => s.name === wanted);
      if (!schema) {
        const hint = didYouMean(wanted, NAMES);
        throw userError(
          "UNKNOWN_SCHEMA",
          `no schema ${name}; expected one of ${NAMES.join(", ")}${hint ? ` (${hint})` : ""}`,
        );
      }
      process.stdout.write(schema.render());
    });
}
