/**
 * `phctl plan [PATH…]`: read live state, diff, print the plan (text, markdown, json);
 * `--out` stores it for `apply`; `--detailed-exitcode` exits 2 when something differs;
 * `--base DIR` plans only what the change from that config touches and separates it from
 * drift already present (src/cli/plan-base.ts); `--full` with it plans everything;
 * `--applied DIR` with it also shows what was merged earlier and never applied. A plan that
 * breaks a deny rule of the organization's policies exits 1, the plan still shown.
 */
import type { Command } from "commander";
import { userError } from "../errors.js";
import { renderJson } from "../render/json.js";
import type { GlobalOptions } from "./config.js";
import { redactValue } from "../secrets.js";
import { outageTimeoutOption } from "./outage-timeout.js";

interface PlanOptions {
  out?: string;
  format: string;
  detailedExitcode?: boolean;
  target: string[];
  base?: string;
  applied?: string;
  full?: boolean;
  journal?: string;
  showTickets?: boolean;
}

export function registerPlan(program: Command): void {
  program
    .command("plan")
    .description(
      "show what apply would change: live state read from the API, diffed with the manifests",
    )
    .argument("[paths...]", "manifest files or directories", ["."])
    .option(
      "--out <file>",
      "also store the plan (JSON, with live-state fingerprints) for `phctl apply FILE`",
    )
    .option("--concurrency <n>", "reads in flight at once (default: phctl.yaml, else 8)")
    .addOption(outageTimeoutOption())
    .option("--format <format>", "text, markdown (pull-request comment) or json", "text")
    .option("--detailed-exitcode", "exit 0 when nothing differs, 2 when something does")
    .option(
      "--target <key>",
      "plan only this key (or key prefix / glob) and what it needs (repeatable)",
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option(
      "--journal <file>",
      "the apply journal to read (welcome mails earlier applies owe); default: phctl.yaml's, else .phctl/journal.jsonl beside it",
    )
    .option(
      "--base <dir>",
      "the config this change starts from (a checkout of the target branch): plan only what the change touches, and separate it from drift already present",
    )
    .option(
      "--applied <dir>",
      "with --base: the config of the last commit an apply carried out (a checkout of it): also plan what was merged since and never applied, shown apart",
    )
    .option("--full", "with --base: plan everything, not only what the change touches")
    .option(
      "--show-tickets",
      "text: show each support-ticket letter under its entry (default: after the plan)",
    )
    .addHelpText(
      "after",
      `
Examples:
  phctl plan examples/                         # against the embedded server, or PHCTL_API_URL
  phctl plan --format markdown > plan.md       # a pull-request comment
  phctl plan --out plan.json && phctl apply plan.json
  phctl plan --target project/trusted-firmware-a
  phctl plan . --base ../main-checkout --format markdown   # a pull request: what it changes
  phctl plan . --base ../main-checkout --full              # everything, split the same way
  phctl plan . --base ../main-checkout --applied ../applied-checkout   # and what was merged, never applied`,
    )
    .action(async (paths: string[], o: PlanOptions, cmd: Command) => {
      // Loaded when the command runs: `validate` and `--help` need none of the engine.
      const { bindToManifests, checkFormat, makePlan, render } = await import("./plan-common.js");
      const { writeAtomically } = await import("../fs/write-atomically.js");
      const format = checkFormat(o.format);
      for (const flag of ["full", "applied"] as const)
        if (o[flag] !== undefined && !o.base)
          throw userError(
            "BAD_FLAG",
            `--${flag} goes with --base (without --base, plan plans everything)`,
          );
      const global = cmd.optsWithGlobals<GlobalOptions & { color?: boolean }>();
      const run = o.base
        ? await (
            await import("./plan-base.js")
          ).makeBasePlan(
            paths,
            { base: o.base, full: o.full === true, targets: o.target, applied: o.applied },
            cmd,
          )
        : await makePlan(paths, cmd, o.target);
      await run.close();
      // Live values (and a manifest's) may hold a credential: the plan is masked before it
      // is shown or stored, and the saved plan's digest is of the masked entries it holds
      // (apply masks its fresh plan the same way before comparing: saved-plan.ts).
      const plan = bindToManifests(redactValue(run.plan), {
        paths,
        files: run.files,
        ...(run.state.config.source ? { config: run.state.config.source.file } : {}),
        ...(o.out ? { planFile: o.out } : {}),
      });
      if (o.out) writeAtomically(o.out, renderJson(plan));
      process.stdout.write(
        render(plan, format, {
          ...(global.verbose ? { verbose: true } : {}),
          ...(global.color === false ? { color: false } : {}),
          ...(o.out ? { artifactHint: o.out } : {}),
          ...(o.showTickets ? { showTickets: true } : {}),
        }),
      );
      if (o.out && format === "text")
        process.stderr.write(
          `phctl: plan saved to ${o.out}; apply it with: phctl apply ${o.out}\n`,
        );
      if (o.detailedExitcode && plan.entries.length > 0) process.exitCode = 2;
      // A broken deny rule fails the plan (1 wins over --detailed-exitcode's 2).
      const { failOnDenial } = await import("./policy-verdict.js");
      failOnDenial(plan, (line) => process.stderr.write(`phctl: ${line}\n`));
    });
}
