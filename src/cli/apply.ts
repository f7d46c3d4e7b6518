/**
 * `phctl apply [PATH… | plan.json] …`: plan (or re-check a saved plan against its manifests
 * and live state), check the safety rails, show the plan and ask on a terminal
 * (`--auto-approve` elsewhere), then walk the plan's DAG with progress, journal every event,
 * verify, and end with a summary. Exit 0 when everything was done, 1 when anything failed,
 * was refused, or the run stopped (outage, journal not writable).
 *
 * Built for unattended CI: it takes a lock beside its journal (one apply at a time), first
 * waits on the queued jobs earlier runs left open (never sending them again), carries the
 * welcome mails earlier runs owe, and stops starting actions when the service stays away
 * past the outage timeout or the journal cannot be written.
 */
import { createInterface } from "node:readline/promises";
import type { Command } from "commander";
import { userError } from "../errors.js";
import type { ApplyReporter } from "../engine/apply-events.js";
import type { PlanEntry } from "../engine/plan.js";
import { processTerminal } from "../render/live-line.js";
import { HumanReporter, JsonReporter } from "../render/progress.js";
import { flowOf } from "./read-progress.js";
import { COLOR, PLAIN, useColor, type Style } from "../render/style.js";
import { deletesBlock } from "../render/text.js";
import { terminalWidth } from "../render/width.js";
import { connect, type GlobalOptions } from "./config.js";
import { loadOrFail } from "./plan-common.js";
import { redactValue } from "../secrets.js";
import { serviceOf } from "../manifest/settings.js";
import { CONCURRENCY, parseNumberFlag } from "./flags.js";
import { outageTimeoutOption } from "./outage-timeout.js";
import { prepareSaved, type SavedPlanRun } from "./saved-plan.js";
import { execute, type ApplyFlags } from "./apply-run.js";
import {
  failedResult,
  failureLines,
  keepFailures,
  newResult,
  writeResult,
} from "./apply-result.js";
import type { ApplyOutcome } from "../engine/apply-outcome.js";
import { readReviewed, type ReviewedPlan } from "./reviewed-plan.js";
import { checkAppliedFlags, checkAppliedSince, recordApplied } from "./apply-applied.js";
import { journalFileOf } from "./run-journal.js";

type Globals = GlobalOptions & { color?: boolean };

function concurrencyOf(flag: string | undefined, fallback: number): number {
  return flag === undefined ? fallback : parseNumberFlag("--concurrency", flag, CONCURRENCY);
}

/** Ask on the terminal, the plan's deletes repeated just above the question. */
async function confirm(entries: readonly PlanEntry[], style: Style): Promise<boolean> {
  const deletes = deletesBlock(redactValue(entries), style, terminalWidth(process.stdout));
  if (deletes.length > 0) process.stdout.write(`\n${deletes.join("\n")}\n`);
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await rl.question("\nApply these changes? Only 'yes' is accepted: ");
    return answer.trim() === "yes";
  } finally {
    rl.close();
  }
}

/**
 * stdout written in batches: what `out` gets is kept and written 50 ms after the
 * first of a batch, on `flush()`, and at exit. One write per event cost ~0.02 ms of CPU per
 * action at tens of thousands of actions.
 */
function batchedStdout(): { out: (s: string) => void; flush: () => void } {
  let pending = "";
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const s = pending;
    pending = "";
    process.stdout.write(s);
  };
  process.once("exit", flush);
  return {
    out: (s: string) => {
      pending += s;
      timer ??= setTimeout(flush, 50).unref();
    },
    flush,
  };
}

export function registerApply(program: Command): void {
  program
    .command("apply")
    .description("make the live service match the manifests (or carry out a saved plan)")
    .argument(
      "[paths...]",
      "manifest files or directories; or a saved plan (plan.json), optionally with the manifests it was made from",
      [],
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
    .option("--resume", "finish an interrupted apply: its plan's keys, what it did left out")
    .option(
      "--show-tickets",
      "show each support-ticket letter under its entry in the plan (default: after the plan)",
    )
    .option(
      "--journal <file>",
      "the apply journal (default: journal in phctl.yaml, else .phctl/journal.jsonl beside phctl.yaml); keep it between CI runs",
    )
    .option(
      "--reviewed <plan.json>",
      "after merge: apply only if the merged commit plans exactly what this plan (reviewed on the pull request) does",
    )
    .option(
      "--applied <dir>",
      "with --reviewed: the config of the last commit an apply carried out (a checkout of it); refuse when the merged commit holds changes made since it that the reviewed plan did not show",
    )
    .option(
      "--commit <sha>",
      "record this commit as applied (applied.json beside the journal) when the apply ends with everything done, for the next plan's --applied",
    )
    .option(
      "--welcome-sent <username>",
      "the welcome mail of this user, which phctl may or may not have sent (its answer was lost), is settled: you checked it arrived, or sent it by hand; recorded in the journal, never sent or named again (repeatable)",
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option(
      "--result <file>",
      "write what the apply did as JSON (any outcome) for the CI step after it (phctl comment --outcome)",
    )
    .addOption(outageTimeoutOption())
    .addHelpText(
      "after",
      `
Examples:
  phctl apply examples/ --auto-approve          # embedded server, or PHCTL_API_URL
  phctl plan config/ --out plan.json && phctl apply plan.json   # refused if the manifests or live state moved
  phctl apply --target project/trusted-firmware-a
  phctl apply config/ --auto-approve --journal ci-cache/journal.jsonl
  phctl apply config/ --reviewed pr-plan.json --result apply.json   # CI after merge
  phctl apply config/ --reviewed pr-plan.json --applied ../applied/config --commit "$SHA"
  phctl apply config/ --welcome-sent jdoe       # her welcome arrived (or you sent it by hand)

A saved plan is applied without asking (it was reviewed when it was made). Every apply first
waits on the queued jobs earlier applies left open (recorded in the journal) and never sends
them again; a second apply of the same journal at once is refused (a lock beside it).`,
    )
    .action((paths: string[], o: ApplyFlags, cmd: Command) => apply(paths, o, cmd));
}

async function apply(paths: string[], o: ApplyFlags, cmd: Command): Promise<void> {
  const result = newResult();
  try {
    await applyWith(paths, o, cmd, result);
  } catch (e) {
    // The apply's own error is what the run ends with; a result file that cannot be
    // written is said on stderr beside it, never in its place.
    const failed = failedResult(result, e);
    if (o.result)
      try {
        writeResult(o.result, failed);
      } catch (w) {
        process.stderr.write(`phctl: ${resultNotWritten(w)}\n`);
      }
    tellCi(failed);
    throw e;
  }
  tellCi(result);
  if (o.result)
    try {
      writeResult(o.result, result);
    } catch (w) {
      throw userError("RESULT_NOT_WRITTEN", `the apply finished, but ${resultNotWritten(w)}`);
    }
}

/**
 * In CI the apply's own output is JSON lines: each failed object is also said for people —
 * a `::error` annotation on GitHub Actions, a plain line elsewhere — on stderr, masked.
 */
function tellCi(result: ApplyOutcome): void {
  const github = process.env.GITHUB_ACTIONS === "true";
  if (!github && process.env.CI !== "true") return;
  const lines = failureLines(result, github);
  if (lines.length > 0) process.stderr.write(`${lines.join("\n")}\n`);
}

function resultNotWritten(e: unknown): string {
  const why = e instanceof Error ? e.message : String(e);
  return `${why}: the --result file was not written (check its path; the journal in .phctl/ still has what was done)`;
}

function reviewedOf(o: ApplyFlags, saved: SavedPlanRun | undefined): ReviewedPlan | undefined {
  if (o.reviewed === undefined) return undefined;
  if (saved)
    throw userError(
      "BAD_ARGUMENTS",
      `--reviewed re-plans the manifests and compares; it does not take a saved plan too (${saved.file}): name the config directory`,
    );
  if (o.target.length > 0 || o.resume)
    throw userError(
      "BAD_FLAG",
      "--reviewed applies the reviewed plan's own scope: drop --target and --resume",
    );
  return readReviewed(o.reviewed);
}

async function applyWith(
  paths: string[],
  o: ApplyFlags,
  cmd: Command,
  result: ApplyOutcome,
): Promise<void> {
  const global = cmd.optsWithGlobals<Globals>();
  const saved: SavedPlanRun | undefined = prepareSaved(paths, o.target);
  const reviewed = reviewedOf(o, saved);
  checkAppliedFlags(o, saved);
  if (reviewed) result.planHash = reviewed.digest;
  const manifests = saved ? saved.paths : paths.length > 0 ? paths : ["."];
  if (saved?.note) process.stderr.write(`phctl: ${saved.note}\n`);
  const { state, diagnostics, files, policies, side } = await loadOrFail(manifests);
  saved?.checkManifests(manifests, files, state);

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
      ...serviceOf(state.config),
      // --outage-timeout (in `global`) wins over phctl.yaml's outageTimeout (serviceOf).
      client: { wait: { timeoutMs: state.config.queueTimeout } },
    },
  );
  // JSON lines go out in batches (one write, and so one redaction by the guard on stdout:
  // src/secrets.ts, per 50 ms, not per event).
  const stdout = json ? batchedStdout() : undefined;
  const out = stdout?.out ?? ((s: string) => process.stdout.write(s));
  const human = new HumanReporter({
    out,
    terminal: json ? undefined : processTerminal(),
    style,
    flow: () => flowOf(connection.client),
    width: () => terminalWidth(process.stdout),
    compact: process.stdout.isTTY === true && !json,
  });
  // Failed objects are kept for --result and the CI annotations (tellCi).
  const ui: ApplyReporter = keepFailures(result, json ? new JsonReporter(out).event : human.event);
  const apiUrl = connection.embedded ? "embedded" : connection.apiUrl;
  const journalFile = journalFileOf(o.journal, state);
  const note = (s: string) => process.stderr.write(`phctl: ${s}\n`);
  try {
    // Changes merged before and never applied: carried if reviewed, else refused (nothing sent).
    // (A full apply covers everything; a reviewed one is checked against --applied.)
    const checked =
      reviewed === undefined ||
      (o.applied !== undefined &&
        (await checkAppliedSince({
          dir: o.applied,
          paths: manifests,
          state,
          side,
          reviewed,
          journalFile,
          apiUrl,
          note,
        })));
    await execute({
      flags: o,
      api: connection.client,
      apiUrl,
      state,
      diagnostics,
      policies,
      saved,
      reviewed,
      result,
      json,
      style,
      verbose: global.verbose === true,
      ui,
      human,
      out,
      confirm: async (reviewed: boolean, entries: readonly PlanEntry[]) => {
        stdout?.flush();
        if (o.autoApprove || reviewed) return true;
        if (!process.stdin.isTTY)
          throw userError(
            "NEEDS_APPROVAL",
            "apply needs a confirmation and there is no terminal to ask on: review the plan, then pass --auto-approve",
          );
        return confirm(entries, style);
      },
    });
    if (o.commit !== undefined)
      recordApplied({ commit: o.commit, result, journalFile, apiUrl, checked, note });
  } finally {
    stdout?.flush();
    await connection.close();
  }
}
