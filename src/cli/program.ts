/**
 * The commander program: global options and one file per command. Commands print through
 * src/cli and src/render only; everything else returns data or throws typed errors.
 */
import { Command } from "commander";
import { VERSION } from "../version.js";
import { registerServe } from "./serve.js";
import { registerApi } from "./api.js";
import { registerValidate } from "./validate.js";
import { registerSchema } from "./schema.js";
import { registerPlan } from "./plan.js";
import { registerDrift } from "./drift.js";
import { registerApply } from "./apply.js";
import { registerComment } from "./comment.js";
import { registerExport } from "./export.js";
import { registerDoctor } from "./doctor.js";

export function buildProgram(): Command {
  const program = new Command("phctl")
    .description(
      "Manage the project-hosting service as code: validate, plan, apply, drift, export — and a reference server.",
    )
    .version(VERSION)
    .option("--api-url <url>", "administration API base URL (env PHCTL_API_URL)")
    .option("--token-file <file>", "file holding the bearer token (else env PHCTL_TOKEN)")
    .option("--git-api-url <url>", "delivery-metrics API base URL (token in env PHCTL_GIT_TOKEN)")
    .option("-v, --verbose", "more detail on errors and API calls")
    .option("--no-color", "no colour (also NO_COLOR)")
    .option("--json", "structured log lines for CI")
    .option(
      "--api-profile <file>",
      "API profile: the service's paths and envelopes where they differ (else apiProfile: in phctl.yaml)",
    )
    .exitOverride()
    .configureOutput({
      writeErr: (s) => process.stderr.write(s),
      writeOut: (s) => process.stdout.write(s),
    })
    .showHelpAfterError("(run phctl --help for usage)");
  registerServe(program);
  registerApi(program);
  registerValidate(program);
  registerSchema(program);
  registerPlan(program);
  registerDrift(program);
  registerApply(program);
  registerComment(program);
  registerExport(program);
  registerDoctor(program);
  for (const c of program.commands) c.exitOverride();
  return program;
}
