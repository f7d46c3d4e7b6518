/**
 * `phctl drift [PATH…]`: the plan, for a scheduled job. Exit 0 in sync, 2 when live state
 * differs from the manifests (pending ticket and blocked entries included), 1 on error.
 * The report names every drifted object and field.
 */
import type { Command } from "commander";
import type { GlobalOptions } from "./config.js";

export function registerDrift(program: Command): void {
  program
    .command("drift")
    .description("report drift: exit 0 in sync, 2 when live state moved away from the manifests")
    .argument("[paths...]", "manifest files or directories", ["."])
    .option("--concurrency <n>", "reads in flight at once (default: phctl.yaml, else 8)")
    .option("--format <format>", "text, markdown or json", "text")
    .addHelpText(
      "after",
      `
Examples:
  phctl drift examples/                       # nightly: exit 2 pages someone
  phctl drift --format json > drift.json`,
    )
    .action(async (paths: string[], o: { format: string }, cmd: Command) => {
      // Loaded when the command runs: `validate` and `--help` need none of the engine.
      const { checkFormat, makePlan, render } = await import("./plan-common.js");
      const format = checkFormat(o.format);
      const global = cmd.optsWithGlobals<GlobalOptions & { color?: boolean }>();
      const run = await makePlan(paths, cmd);
      await run.close();
      const { plan } = run;
      process.stdout.write(
        render(plan, format, {
          ...(global.verbose ? { verbose: true } : {}),
          ...(global.color === false ? { color: false } : {}),
        }),
      );
      if (plan.entries.length > 0) {
        if (format === "text") {
          process.stderr.write(
            `phctl: drift: ${plan.entries.length} difference${plan.entries.length === 1 ? "" : "s"} between the manifests and live state\n`,
          );
        }
        process.exitCode = 2;
      }
    });
}
