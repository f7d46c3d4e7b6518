/**
 * The body of `phctl apply` once the manifests are loaded and the client connected:
 *
 * 1. take the lock beside the journal (a second apply refuses, naming the holder);
 * 2. record the welcome mails a person settled (`--welcome-sent`), wait on the queued jobs
 *    earlier runs left open (never sending them again) and learn the side effects (welcome
 *    mails) they owe or may not have carried out;
 * 3. plan — fresh, or re-check the saved plan against live state — with those facts;
 * 4. the safety rails, the plan shown, the confirmation;
 * 5. the walk (apply-walk.ts), every event journaled; it stops starting actions when the
 *    service stays away past the outage timeout, refuses the token, or the journal cannot be
 *    written, and ends with a summary.
 */
import type { ApiClient } from "../api/client.js";
import { PhctlError } from "../errors.js";
import { planGraph } from "../engine/apply.js";
import type { ApplyReporter } from "../engine/apply-events.js";
import { checkRails } from "../engine/guards.js";
import { isExecutable, nodeId } from "../engine/graph.js";
import { Journal, settleJobs, type InFlightJob } from "../engine/journal.js";
import { acquireLock, describeTakeover } from "../engine/lock.js";
import { policyCounts, type Plan, type PlanEntry } from "../engine/plan.js";
import { runPlanWithLive } from "../engine/run-plan.js";
import type { PlanPolicies } from "../engine/policy-check.js";
import type { LiveObject } from "../kinds/kind.js";
import type { DesiredState, Diagnostic } from "../manifest/types.js";
import type { HumanReporter } from "../render/progress.js";
import { clientReadProgress } from "./read-progress.js";
import { PLAIN, plural, type Style } from "../render/style.js";
import { renderText } from "../render/text.js";
import { terminalWidth } from "../render/width.js";
import { wrapText } from "../render/wrap.js";
import { checkJournalFree, factsOf, journalFileOf, journalOf } from "./run-journal.js";
import type { SavedPlanRun } from "./saved-plan.js";
import type { ApplyOutcome } from "../engine/apply-outcome.js";
import { checkReviewed, type ReviewedPlan } from "./reviewed-plan.js";
import { changesDigest } from "../engine/reviewed.js";
import { walk } from "./apply-walk.js";
import { settleWelcomes } from "./apply-welcome.js";
import { redactValue } from "../secrets.js";
import { refuseOnDenial } from "./policy-verdict.js";

export interface ApplyFlags {
  autoApprove?: boolean;
  allowDelete?: boolean;
  allowMassRemoval?: boolean;
  allowNoAdmin?: boolean;
  concurrency?: string;
  target: string[];
  resume?: boolean;
  journal?: string;
  reviewed?: string;
  applied?: string;
  commit?: string;
  result?: string;
  showTickets?: boolean;
  /** Usernames whose welcome mail a person says is sent (settles an unknown one). */
  welcomeSent?: string[];
}

export interface ExecuteOptions {
  flags: ApplyFlags;
  api: ApiClient;
  apiUrl: string;
  state: DesiredState;
  diagnostics: Diagnostic[];
  /** The organization's policies: a denial stops the apply before anything is sent. */
  policies?: PlanPolicies;
  saved: SavedPlanRun | undefined;
  /** `--reviewed`: the plan reviewed on the pull request; the fresh plan must match it. */
  reviewed?: ReviewedPlan | undefined;
  /** Filled in as the apply goes (`--result`). */
  result: ApplyOutcome;
  json: boolean;
  style: Style;
  verbose: boolean;
  ui: ApplyReporter;
  human: HumanReporter;
  out: (s: string) => void;
  /** Ask (or not) before applying; false cancels. `reviewed`: a saved plan; `entries`: the plan's. */
  confirm: (reviewed: boolean, entries: readonly PlanEntry[]) => Promise<boolean>;
}

export async function execute(x: ExecuteOptions): Promise<void> {
  const { flags: o, state, json } = x;
  // Notes for people, wrapped to the terminal (never inside a word).
  const note = (s: string) => {
    if (json) return;
    const lines = wrapText(`phctl: ${s}`, { width: terminalWidth(process.stderr), hang: 7 });
    process.stderr.write(`${lines.join("\n")}\n`);
  };
  const file = journalFileOf(o.journal, state);
  const lock = acquireLock(file, `phctl apply (pid ${process.pid})`);
  if (lock.tookOverFrom) note(describeTakeover(lock));
  try {
    await run(x, file, note);
  } finally {
    lock.release();
  }
}

async function run(x: ExecuteOptions, file: string, note: (s: string) => void): Promise<void> {
  const { flags: o, api, apiUrl, state, ui, out, json, saved, reviewed, result: outcome } = x;
  // 1. What earlier runs left: open jobs (waited on, never re-sent), owed side effects.
  checkJournalFree(file, apiUrl);
  const previous = settleWelcomes(file, journalOf(file, apiUrl), o.welcomeSent ?? [], note);
  let open: InFlightJob[] = [];
  if (previous && previous.inFlight.length > 0) {
    const n = previous.inFlight.length;
    note(
      `waiting on ${plural(n, "queued job")} an earlier apply left open (${file}); none is sent again`,
    );
    open = (await settleJobs(api, new Journal(file, previous), ui)).open;
    if (open.length > 0)
      note(
        `${plural(open.length, "queued job")} of an earlier apply ${open.length === 1 ? "is" : "are"} still open: ${open
          .slice(0, 5)
          .map((j) => `${j.queueId} (${j.action} ${j.key})`)
          .join(", ")}; their entries are held back and the next apply waits on them again`,
      );
  }
  const facts = factsOf(previous);
  const interrupted = o.resume && previous?.status === "running" ? previous : undefined;
  if (o.resume && !interrupted) note("no interrupted apply to resume; applying afresh");
  if (interrupted)
    note(
      `resuming the apply interrupted at ${interrupted.updatedAt}: ${plural(interrupted.done.length, "action")} done`,
    );
  const carried = interrupted?.done ?? [];
  const targets = o.target.length > 0 ? o.target : (interrupted?.plan.targets ?? []);

  // 2. The plan: fresh, or the saved one re-checked against the objects it touches.
  // Reading live state shows progress: a live line on a terminal, JSON events on stderr in CI
  // (apply's own events, on stdout, start at the plan).
  const fresh = (t: readonly string[], scope?: readonly string[]) =>
    clientReadProgress({
      command: "apply",
      what: "live state",
      api,
      json,
      // --no-color (or NO_COLOR) made the plan's style plain: the live line follows.
      ...(x.style === PLAIN ? { color: false } : {}),
    }).around(() =>
      runPlanWithLive({
        api,
        state,
        apiUrl,
        diagnostics: x.diagnostics,
        facts,
        ...(x.policies ? { policies: x.policies } : {}),
        ...(t.length > 0 ? { targets: t } : {}),
        ...(scope ? { scope } : {}),
      }),
    );
  let plan: Plan;
  let live: Map<string, LiveObject>;
  if (reviewed) {
    // Scoped like the reviewed plan: what the pull request touched, nothing else.
    const now = await fresh(reviewed.plan.targets ?? [], reviewed.plan.scope);
    const inPlace = checkReviewed(reviewed, now.plan, apiUrl, facts.owed);
    if (inPlace.length > 0)
      note(
        `${plural(inPlace.length, "reviewed change")} ${inPlace.length === 1 ? "is" : "are"} already in place and not sent: ${inPlace.slice(0, 5).join(", ")}${inPlace.length > 5 ? ", …" : ""}`,
      );
    note(`the merged commit plans what was reviewed (${reviewed.file}); applying it`);
    plan = now.plan;
    live = now.live;
  } else if (saved && !interrupted) {
    const now = await saved.recheck(apiUrl, fresh, facts.owed);
    plan = now.plan;
    live = now.live;
  } else {
    const keys = saved ? [...new Set(saved.plan.entries.map((e) => e.key))] : targets;
    const now = await fresh(keys);
    plan = now.plan;
    live = now.live;
  }
  // A mail whose answer an earlier run never got (lost, or the run was killed while it was
  // out) is not planned again: the plan's warning names it, with what a person should do —
  // shown with the plan, said on stderr when no plan is shown, in the JSON plan event in CI.
  const welcome = plan.warnings.filter((w) => w.key?.endsWith("/welcome")).map((w) => w.message);
  const warned = json && welcome.length > 0 ? { warnings: welcome } : {};
  const done = new Set(carried);
  const entries = plan.entries.filter((e) => !isExecutable(e) || !done.has(nodeId(e)));
  const alreadyDone = plan.entries.length - entries.length;
  outcome.planHash = changesDigest(plan.entries);

  // 3. Safety rails, then the DAG (a cycle is an error before anything is sent).
  // The pull request's plan knows which layer edit removes what (a deleted layer is only in
  // its base): the mass-removal rail names that layer, not another that selects the object.
  const prPlan = reviewed?.plan ?? saved?.plan;
  const refusals = checkRails(withBlame(entries, prPlan), live, state, {
    allowDelete: o.allowDelete === true,
    allowMassRemoval: o.allowMassRemoval === true,
    allowNoAdmin: o.allowNoAdmin === true,
    maxRemovals: state.config.maxRemovals,
    editedLayers: (prPlan?.layers ?? []).filter((l) => l.change !== undefined),
  });
  if (refusals.length > 0)
    throw new PhctlError("REFUSED", refusals.map((r) => r.message).join("\nphctl: "));
  // The organization's policies: a denial is shown (the plan with its violations) and stops
  // here, nothing sent; warnings are shown with the plan below. `extras`: what the JSON plan
  // event carries besides the counts (policy violations, welcome warnings).
  const extras = {
    ...warned,
    ...(plan.violations.length > 0 ? { violations: redactValue(plan.violations) } : {}),
  };
  if (policyCounts(plan.violations).deny > 0) {
    if (json) out(`${JSON.stringify({ event: "plan", ...plan.summary, ...extras })}\n`);
    else out(renderText(redactValue({ ...plan, entries }), textOptions(x)));
    refuseOnDenial(plan);
  }
  const graph = planGraph(entries);
  const notSent = entries.filter((e) => !isExecutable(e));
  x.human.notSent = notSent;

  if (graph.nodes.size === 0) {
    outcome.status = "no-changes";
    if (interrupted) new Journal(file, interrupted).finish();
    if (entries.length === 0) {
      // No plan is shown: its welcome warnings are said here, once (else the plan says them).
      for (const w of welcome) note(w);
      out(
        json
          ? `${JSON.stringify({ event: "plan", changes: 0, ...extras })}\n`
          : previous && previous.inFlight.length > 0 && open.length === 0
            ? `No changes left: the ${plural(previous.inFlight.length, "queued job")} of the earlier apply completed. Live state matches the manifests.\n`
            : "No changes. Live state matches the manifests.\n",
      );
      return;
    }
    if (json) out(`${JSON.stringify({ event: "plan", ...plan.summary, ...extras })}\n`);
    else {
      out(renderText(redactValue({ ...plan, entries }), textOptions(x)));
      out(
        `\nNothing to apply: ${plural(notSent.length, "ticket or blocked entry", "ticket and blocked entries")} ${notSent.length === 1 ? "is not an API operation" : "are not API operations"} (listed above; never sent).\n`,
      );
    }
    return;
  }

  // 4. Show the plan (masked, as every output: src/secrets.ts; what is sent keeps the real
  // values); ask on a terminal, unless approved (or a reviewed saved plan).
  if (json)
    out(
      `${JSON.stringify({ event: "plan", ...plan.summary, entries: entries.map((e) => ({ action: e.action, key: e.key })), ...extras })}\n`,
    );
  else out(renderText(redactValue({ ...plan, entries }), textOptions(x)));
  if (
    !(await x.confirm((saved !== undefined && !interrupted) || reviewed !== undefined, entries))
  ) {
    process.stderr.write("Apply cancelled: nothing was changed.\n");
    outcome.status = "refused";
    outcome.message = "cancelled at the confirmation";
    process.exitCode = 1;
    return;
  }
  if (!json) out("\n");

  // 5. Apply, journaling every event; the summary comes from the reporter.
  await walk(x, {
    file,
    plan,
    targets,
    entries,
    graph,
    live,
    carried,
    open,
    previous,
    facts,
    alreadyDone,
  });
}

/** How the plan is shown: the terminal's width, tickets inline with --show-tickets. */
function textOptions(x: ExecuteOptions) {
  return {
    style: x.style,
    verbose: x.verbose,
    width: terminalWidth(process.stdout),
    showTickets: x.flags.showTickets === true,
  };
}

/** The entries, each removal with the layer a reviewed (or saved) plan blames it on. */
function withBlame(entries: readonly PlanEntry[], plan: Plan | undefined): PlanEntry[] {
  const blamed = new Map<string, string>();
  for (const e of plan?.entries ?? [])
    if (e.action === "delete" && e.layer !== undefined) blamed.set(e.key, e.layer);
  if (blamed.size === 0) return [...entries];
  return entries.map((e) => {
    const layer = e.action === "delete" && e.layer === undefined ? blamed.get(e.key) : undefined;
    return layer === undefined ? e : { ...e, layer };
  });
}
