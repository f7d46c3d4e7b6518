/**
 * `phctl apply [PATH… | plan.json] …`: plan (or re-check a saved plan), check the safety
 * rails, show the plan and ask on a terminal (`--auto-approve` elsewhere), then walk the
 * plan's DAG with progress, journal every event to `.phctl/journal.jsonl`, verify, and end
 * with a summary. Exit 0 when everything was done, 1 when anything failed (after the
 * summary) or was refused. `--resume` first waits on the jobs an interrupted apply left.
 */
import { createInterface } from "node:readline/promises";
import type { Command } from "commander";
import { userError, PhctlError } from "../errors.js";
import { applyFailed, planGraph, runApply } from "../engine/apply.js";
import type { ApplyEvent, ApplyReporter } from "../engine/apply-events.js";
import { checkRails, staleObjects } from "../engine/guards.js";
import { isExecutable, nodeId } from "../engine/graph.js";
import {
  Journal,
  journalPath,
  planDigest,
  readJournal,
  resumeJobs,
  type ResumedFailures,
} from "../engine/journal.js";
import type { Plan } from "../engine/plan.js";
import type { LiveObject } from "../kinds/kind.js";
import { runPlanWithLive } from "../engine/run-plan.js";
import { HumanReporter, JsonReporter } from "../render/progress.js";
import { COLOR, PLAIN, useColor } from "../render/style.js";
import { renderText } from "../render/text.js";
import { connect, type GlobalOptions } from "./config.js";
import { loadOrFail } from "./plan-common.js";
import { manifestsOfPlan, readSavedPlan, splitArgs, staleError } from "./saved-plan.js";

interface ApplyFlags {
  autoApprove?: boolean;
  allowDelete?: boolean;
  allowMassRemoval?: boolean;
  allowNoAdmin?: boolean;
  concurrency?: string;
  target: string[];
  resume?: boolean;
}

type Globals = GlobalOptions & { color?: boolean };

function concurrencyOf(flag: string | undefined, fallback: number): number {
  if (flag === undefined) return fallback;
  const n = Number(flag);
  if (!Number.isInteger(n) || n < 1)
    throw userError("BAD_FLAG", `--concurrency must be a whole number ≥ 1 (got ${flag})`);
  return n;
}

async function confirm(): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await rl.question("\nApply these changes? Only 'yes' is accepted: ");
    return answer.trim() === "yes";
  } finally {
    rl.close();
  }
}

export function registerApply(program: Command): void {
  program
    .command("apply")
    .description("make the live service match the manifests (or carry out a saved plan)")
    .argument(
      "[paths...]",
      "manifest files or directories; or a saved plan (plan.json) and the manifests it was made from",
      ["."],
    )
    .option("--auto-approve", "do not ask for confirmation (needed without a terminal, e.g. in CI)")
    .option("--allow-delete", "carry out deletes of data-bearing objects (prune in phctl.yaml)")
    .option(
      "--allow-mass-removal",
      "allow removing more than maxRemovals of a project's or team's access, members or repositories",
    )
    .option(
      "--allow-no-admin",
      "allow a plan that leaves a project without an admin or a git group without a maintainer",
    )
    .option("--concurrency <n>", "requests in flight at once (default: phctl.yaml, else 8)")
    .option(
      "--target <key>",
      "apply only this key (or key prefix / glob) and what it needs (repeatable)",
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option("--resume", "finish an interrupted apply: wait on its queued jobs, do what is left")
    .addHelpText(
      "after",
      `
Examples:
  phctl apply examples/ --auto-approve          # embedded server, or PHCTL_API_URL
  phctl plan --out plan.json && phctl apply plan.json   # refused if live state moved since
  phctl apply --target project/trusted-firmware-a
  phctl apply --resume --auto-approve           # after an interrupted apply

A saved plan is applied without asking (it was reviewed when it was made).`,
    )
    .action((paths: string[], o: ApplyFlags, cmd: Command) => apply(paths, o, cmd));
}

async function apply(paths: string[], o: ApplyFlags, cmd: Command): Promise<void> {
  const { saved: savedFile, manifests } = splitArgs(paths);
  if (savedFile && o.target.length > 0)
    throw userError("BAD_FLAG", "--target cannot be used with a saved plan (it has its own keys)");
  const saved = savedFile ? readSavedPlan(savedFile) : undefined;
  if (manifests.length === 0) {
    manifests.push(saved ? manifestsOfPlan(saved) : ".");
    if (saved)
      process.stderr.write(
        `phctl: reading the manifests the saved plan was made from in ${manifests[0]} (name them after the plan file to choose)\n`,
      );
  }
  const { state, diagnostics } = await loadOrFail(manifests);
  const global = cmd.optsWithGlobals<Globals>();
  const json = global.json === true || process.env.CI === "true";
  const style = !json && useColor(process.stdout, global.color) ? COLOR : PLAIN;
  const connection = await connect(
    {
      ...global,
      ...(global.apiUrl || process.env.PHCTL_API_URL || !state.config.apiUrl
        ? {}
        : { apiUrl: state.config.apiUrl }),
      concurrency: concurrencyOf(o.concurrency, state.config.concurrency),
    },
    {
      ...(state.config.organization ? { organization: state.config.organization } : {}),
      client: { wait: { timeoutMs: state.config.queueTimeout } },
    },
  );
  const out = (s: string) => process.stdout.write(s);
  const human = new HumanReporter({
    out,
    ...(process.stderr.isTTY && !json ? { tty: (s: string) => process.stderr.write(s) } : {}),
    style,
  });
  const ui: ApplyReporter = json ? new JsonReporter(out).event : human.event;
  try {
    const api = connection.client;
    const apiUrl = connection.embedded ? "embedded" : connection.apiUrl;
    const file = journalPath();
    const previous = readJournal(file);
    const interrupted =
      previous?.status === "running" && previous.plan.apiUrl === apiUrl ? previous : undefined;

    // 1. An interrupted run: wait on its jobs (never re-sent), or refuse to start over them.
    let resumed: ResumedFailures = new Map();
    let resumedJobs = 0;
    let carried: string[] = [];
    let targets = o.target;
    if (o.resume && interrupted) {
      const jobs = interrupted.inFlight.length;
      resumedJobs = jobs;
      if (!json)
        process.stderr.write(
          `phctl: resuming the apply interrupted at ${interrupted.updatedAt}: ${interrupted.done.length} actions done, ${jobs} queued job${jobs === 1 ? "" : "s"} in flight\n`,
        );
      resumed = await resumeJobs(api, new Journal(file, interrupted), ui);
      carried = interrupted.done;
      if (targets.length === 0) targets = interrupted.plan.targets;
    } else if (o.resume) {
      process.stderr.write("phctl: no interrupted apply to resume; applying afresh\n");
    } else if (interrupted && interrupted.inFlight.length > 0) {
      throw userError(
        "INTERRUPTED",
        `an interrupted apply left ${interrupted.inFlight.length} queued jobs in flight (${file}): run phctl apply --resume to finish it without sending them again`,
      );
    }

    // 2. The plan: fresh, or the saved one re-checked against the objects it touches.
    let plan: Plan;
    const fresh = async (t: readonly string[]) =>
      runPlanWithLive({
        api,
        state,
        apiUrl,
        diagnostics,
        ...(t.length > 0 ? { targets: t } : {}),
      });
    let live: Map<string, LiveObject>;
    if (saved && !(o.resume && interrupted)) {
      if (saved.apiUrl !== apiUrl)
        throw userError(
          "WRONG_SERVICE",
          `the saved plan ${savedFile} was made against ${saved.apiUrl}, not ${apiUrl}`,
        );
      const keys = [...new Set(saved.entries.map((e) => e.key))];
      const now = await fresh(keys);
      const stale = staleObjects(saved, now.live, now.plan);
      if (stale.length > 0) throw staleError(savedFile!, stale);
      plan = saved;
      live = now.live;
    } else {
      const keys = saved ? [...new Set(saved.entries.map((e) => e.key))] : targets;
      const now = await fresh(keys);
      plan = now.plan;
      live = now.live;
    }
    const done = new Set(carried);
    const entries = plan.entries.filter((e) => !isExecutable(e) || !done.has(nodeId(e)));
    const alreadyDone = plan.entries.length - entries.length;

    // 3. Safety rails, then the DAG (a cycle is an error before anything is sent).
    const refusals = checkRails(entries, live, state, {
      allowDelete: o.allowDelete === true,
      allowMassRemoval: o.allowMassRemoval === true,
      allowNoAdmin: o.allowNoAdmin === true,
      maxRemovals: state.config.maxRemovals,
    });
    if (refusals.length > 0)
      throw new PhctlError("REFUSED", refusals.map((r) => r.message).join("\nphctl: "));
    const graph = planGraph(entries);
    const notSent = entries.filter((e) => !isExecutable(e));
    human.notSent = notSent;

    if (graph.nodes.size === 0 && resumed.size === 0) {
      if (interrupted && o.resume) new Journal(file, interrupted).finish();
      if (entries.length === 0) {
        const jobs = resumedJobs;
        out(
          json
            ? `${JSON.stringify({ event: "plan", changes: 0 })}\n`
            : jobs > 0
              ? `No changes left: the ${jobs} queued job${jobs === 1 ? "" : "s"} of the interrupted apply completed. Live state matches the manifests.\n`
              : "No changes. Live state matches the manifests.\n",
        );
        return;
      }
      if (json) out(`${JSON.stringify({ event: "plan", ...plan.summary })}\n`);
      else {
        out(renderText({ ...plan, entries }, { style, verbose: global.verbose === true }));
        out(
          `\nNothing to apply: ${notSent.length} ticket and blocked entries are not API operations (listed above; never sent).\n`,
        );
      }
      return;
    }

    // 4. Show the plan; ask on a terminal, unless approved (or a reviewed saved plan).
    const shown = { ...plan, entries };
    if (json)
      out(
        `${JSON.stringify({ event: "plan", ...plan.summary, entries: entries.map((e) => ({ action: e.action, key: e.key })) })}\n`,
      );
    else out(renderText(shown, { style, verbose: global.verbose === true }));
    const reviewed = saved !== undefined && !(o.resume && interrupted);
    if (!o.autoApprove && !reviewed) {
      if (!process.stdin.isTTY)
        throw userError(
          "NEEDS_APPROVAL",
          "apply needs a confirmation and there is no terminal to ask on: review the plan, then pass --auto-approve",
        );
      if (!(await confirm())) {
        process.stderr.write("Apply cancelled: nothing was changed.\n");
        process.exitCode = 1;
        return;
      }
    }
    if (!json) out("\n");

    // 5. Apply, journaling every event; the summary comes from the reporter.
    const journal = Journal.start(file, identity(plan, targets, savedFile), carried);
    const reporter = (e: ApplyEvent) => {
      journal.record(e);
      ui(e);
    };
    const result = await runApply({
      api,
      entries,
      graph,
      live,
      reporter,
      alreadyDone,
      preFailed: resumed,
      verify: { state, apiUrl },
    });
    if (applyFailed(result.summary)) process.exitCode = 1;
  } finally {
    await connection.close();
  }
}

/** What the journal records of the plan being applied. */
function identity(plan: Plan, targets: readonly string[], savedFile: string | undefined) {
  return {
    createdAt: plan.createdAt,
    apiUrl: plan.apiUrl,
    organization: plan.organization,
    digest: planDigest(plan.entries),
    // What a resumed run re-plans: the saved plan's keys, or the --target keys.
    targets: savedFile ? [...new Set(plan.entries.map((e) => e.key))] : [...targets],
    ...(savedFile ? { savedPlan: savedFile } : {}),
  };
}
