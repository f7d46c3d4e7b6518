/**
 * What `plan`, `drift` and `apply` share: load the manifests (diagnostics printed, exit 1 on
 * errors), connect (embedded server by default), make the plan with progress shown while
 * live state is read, and render it for the terminal's width.
 */
import type { Command } from "commander";
import { userError } from "../errors.js";
import { collapseLayered, formatDiagnostic } from "../manifest/diagnostics.js";
import type { ChangeSide } from "../engine/change-touch.js";
import { loadManifests } from "../pipeline/load.js";
import type { DesiredState, Diagnostic } from "../manifest/types.js";
import type { LoadResult } from "../pipeline/types.js";
import type { ApiClient } from "../api/client.js";
import type { Plan } from "../engine/plan.js";
import { ReadContext, type JournalFacts } from "../engine/read-context.js";
import { runPlan } from "../engine/run-plan.js";
import { renderJson } from "../render/json.js";
import { renderMarkdown } from "../render/markdown.js";
import type { ReadProgress } from "../render/read-progress.js";
import { clientReadProgress } from "./read-progress.js";
import { COLOR, PLAIN, useColor } from "../render/style.js";
import { renderText } from "../render/text.js";
import { terminalWidth } from "../render/width.js";
import { connect, type GlobalOptions } from "./config.js";
import { serviceOf } from "../manifest/settings.js";
import { describeManifests, entriesDigest } from "./plan-identity.js";
import { factsOf, journalFileOf, journalOf } from "./run-journal.js";
import type { PlanPolicies } from "../engine/policy-check.js";
import { planPoliciesOf } from "./plan-policies.js";
import { configRootOf } from "./owners-file.js";

export const PLAN_FORMATS = ["text", "markdown", "json"] as const;
export type PlanFormat = (typeof PLAN_FORMATS)[number];

export function checkFormat(format: string): PlanFormat {
  if (!(PLAN_FORMATS as readonly string[]).includes(format)) {
    throw userError(
      "BAD_FLAG",
      `--format must be one of ${PLAN_FORMATS.join(", ")} (got ${format})`,
    );
  }
  return format as PlanFormat;
}

/** A load that passed: the state, its diagnostics, files and policies. */
export interface Loaded {
  state: DesiredState;
  diagnostics: Diagnostic[];
  files: string[];
  /** The organization's policies and the object rules' violations (for the plan). */
  policies: PlanPolicies;
  /** The config as one side of a change (src/engine/change-touch.ts). */
  side: ChangeSide;
}

/** Load and validate; print every diagnostic to stderr; refuse on errors. */
export async function loadOrFail(paths: string[]): Promise<Loaded> {
  return checkLoaded(await loadManifests(paths), paths);
}

/** Print a load's diagnostics to stderr; refuse when it found no manifests or errors. */
export function checkLoaded(loaded: LoadResult, paths: readonly string[]): Loaded {
  const { state, diagnostics, files } = loaded;
  for (const d of collapseLayered(diagnostics)) process.stderr.write(`${formatDiagnostic(d)}\n`);
  if (files.length === 0)
    throw userError("NO_MANIFESTS", `no manifest files (*.yaml, *.yml) in ${paths.join(" ")}`);
  if (!state) {
    const errors = diagnostics.filter((d) => d.severity === "error").length;
    throw userError(
      "INVALID_MANIFESTS",
      `${errors} error${errors === 1 ? "" : "s"} in the manifests; nothing was planned`,
    );
  }
  const side = { state, layers: loaded.layers, policies: loaded.policies };
  const policies = planPoliciesOf(loaded, undefined, configRootOf(state, paths));
  return { state, diagnostics, files, policies, side };
}

export interface PlanRun {
  plan: Plan;
  state: DesiredState;
  /** The files the manifests were loaded from (relative to the working directory). */
  files: string[];
  close(): Promise<void>;
  connection: Awaited<ReturnType<typeof connect>>;
}

/** A connection to the service a config names, and what its apply journal knows. */
export interface Service {
  connection: Awaited<ReturnType<typeof connect>>;
  /** As plans record it: the URL, or "embedded". */
  apiUrl: string;
  facts: JournalFacts;
}

/** Connect for `state` (phctl.yaml's URL and concurrency unless flags say otherwise). */
export async function openService(state: DesiredState, cmd: Command): Promise<Service> {
  const global = cmd.optsWithGlobals<GlobalOptions & { journal?: string }>();
  // Reads in flight at once: --concurrency, else phctl.yaml's `concurrency`.
  global.concurrency ??= state.config.concurrency;
  const withConfigUrl: GlobalOptions =
    global.apiUrl || process.env.PHCTL_API_URL || !state.config.apiUrl
      ? global
      : { ...global, apiUrl: state.config.apiUrl };
  const connection = await connect(withConfigUrl, serviceOf(state.config));
  try {
    const apiUrl = connection.embedded ? "embedded" : connection.apiUrl;
    // What the apply journal knows (welcome mails earlier applies owe), read only.
    const facts = factsOf(journalOf(journalFileOf(global.journal, state), apiUrl));
    return { connection, apiUrl, facts };
  } catch (e) {
    await connection.close();
    throw e;
  }
}

/**
 * Progress of `command`'s live reads through `api`: a live line on a terminal, JSON events
 * on stderr with --json or CI=true (stdout keeps the plan), nothing otherwise.
 */
export function readProgress(
  command: string,
  what: string,
  api: ApiClient,
  global: GlobalOptions & { color?: boolean },
): ReadProgress {
  return clientReadProgress({
    command,
    what,
    api,
    json: global.json === true || process.env.CI === "true",
    ...(global.color !== undefined ? { color: global.color } : {}),
  });
}

/**
 * Load, connect, plan. The caller closes the connection (apply keeps using it). `liveRules`:
 * run the policies' live rules over the live objects too (drift). `alongside`: called once
 * the config is loaded, before anything is read; the config it returns is planned against
 * the same live reads (read once), without reference checks (drift --adopt: the last applied
 * commit's config).
 */
export async function makePlan(
  paths: string[],
  cmd: Command,
  targets?: string[],
  o: {
    liveRules?: boolean;
    alongside?: (state: DesiredState) => Promise<DesiredState | undefined>;
  } = {},
): Promise<PlanRun & { alongside?: Plan }> {
  const { state, diagnostics, files, policies } = await loadOrFail(paths);
  const other = o.alongside ? await o.alongside(state) : undefined;
  const { connection, apiUrl, facts } = await openService(state, cmd);
  try {
    const api = connection.client;
    const rc = new ReadContext(api, facts);
    const [plan, alongside] = await readProgress(
      cmd.name(),
      "live state",
      api,
      cmd.optsWithGlobals(),
    ).around(() =>
      Promise.all([
        runPlan({
          api,
          state,
          apiUrl,
          diagnostics,
          facts,
          rc,
          policies: { ...policies, live: o.liveRules === true },
          ...(targets && targets.length > 0 ? { targets } : {}),
        }),
        other
          ? runPlan({ api, state: other, apiUrl, facts, rc, checkReferences: false })
          : undefined,
      ]),
    );
    return {
      plan,
      state,
      files,
      connection,
      close: () => connection.close(),
      ...(alongside ? { alongside } : {}),
    };
  } catch (e) {
    await connection.close();
    throw e;
  }
}

export function render(
  plan: Plan,
  format: PlanFormat,
  o: {
    verbose?: boolean;
    color?: boolean;
    artifactHint?: string;
    showTickets?: boolean;
    /** `drift`: the markdown is headed as drift (differences, or in sync). */
    mode?: "plan" | "drift";
  },
): string {
  switch (format) {
    case "json":
      return renderJson(plan);
    case "markdown":
      return renderMarkdown(plan, {
        ...(o.artifactHint ? { artifactHint: o.artifactHint } : {}),
        ...(o.mode ? { mode: o.mode } : {}),
      });
    case "text":
      return renderText(plan, {
        style: useColor(process.stdout, o.color) ? COLOR : PLAIN,
        verbose: o.verbose === true,
        width: terminalWidth(process.stdout),
        showTickets: o.showTickets === true,
      });
  }
}

/**
 * The plan with the identity a saved plan needs: a hash of its entries and of every
 * manifest it was made from (apply refuses it when either changed).
 */
export function bindToManifests(
  plan: Plan,
  o: { paths: readonly string[]; files: readonly string[]; config?: string; planFile?: string },
): Plan {
  return {
    ...plan,
    manifests: describeManifests({
      ...o,
      paths: o.paths.length > 0 ? o.paths : ["."],
      cwd: process.cwd(),
    }),
    entriesDigest: entriesDigest(plan.entries),
  };
}
