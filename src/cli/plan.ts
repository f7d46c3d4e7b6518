/**
 * `phctl plan [PATH…]`: read live state, diff, print the plan (text, markdown, json);
 * `--out` stores it for `apply`; `--detailed-exitcode` exits 2 when something differs;
 * `--base DIR` separates what this change does from drift already present.
 */
import type { Command } from "commander";
import type { Plan } from "../engine/plan.js";
import { renderJson } from "../render/json.js";
import type { GlobalOptions } from "./config.js";

interface PlanOptions {
  out?: string;
  format: string;
  detailedExitcode?: boolean;
  target: string[];
  base?: string;
  journal?: string;
}

/** Keys+actions of `base` entries also in `head`: drift that was there before this change. */
export function markDrift(head: Plan, base: Plan): Plan {
  const before = new Set(base.entries.map((e) => `${e.action} ${e.key}`));
  const drift = head.entries.filter((e) => before.has(`${e.action} ${e.key}`)).map((e) => e.key);
  return { ...head, drift: [...new Set(drift)].sort() };
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
      "the apply journal to read (welcome mails earlier applies owe); default: phctl.yaml's, else .phctl/journal.jsonl",
    )
    .option(
      "--base <dir>",
      "plan this base config too: separate this change from drift already present",
    )
    .addHelpText(
      "after",
      `
Examples:
  phctl plan examples/                         # against the embedded server, or PHCTL_API_URL
  phctl plan --format markdown > plan.md       # a pull-request comment
  phctl plan --out plan.json && phctl apply plan.json
  phctl plan --target project/trusted-firmware-a
  phctl plan . --base ../main-checkout --format markdown`,
    )
    .action(async (paths: string[], o: PlanOptions, cmd: Command) => {
      // Loaded when the command runs: `validate` and `--help` need none of the engine.
      const { bindToManifests, checkFormat, makePlan, render, writeAtomically } =
        await import("./plan-common.js");
      const format = checkFormat(o.format);
      const global = cmd.optsWithGlobals<GlobalOptions & { color?: boolean }>();
      const run = await makePlan(paths, cmd, o.target);
      let plan = bindToManifests(run.plan, {
        paths,
        files: run.files,
        ...(run.state.config.source ? { config: run.state.config.source.file } : {}),
        ...(o.out ? { planFile: o.out } : {}),
      });
      await run.close();
      if (o.base) {
        const base = await makePlan([o.base], cmd, o.target);
        await base.close();
        plan = markDrift(plan, base.plan);
      }
      if (o.out) writeAtomically(o.out, renderJson(plan));
      process.stdout.write(
        render(plan, format, {
          ...(global.verbose ? { verbose: true } : {}),
          ...(global.color === false ? { color: false } : {}),
          ...(o.out ? { artifactHint: o.out } : {}),
        }),
      );
      if (o.out && format === "text")
        process.stderr.write(
          `phctl: plan saved to ${o.out}; apply it with: phctl apply ${o.out}\n`,
        );
      if (o.detailedExitcode && plan.entries.length > 0) process.exitCode = 2;
    });
}
