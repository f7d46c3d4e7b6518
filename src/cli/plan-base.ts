/**
 * `phctl plan PATHS --base DIR`: what this change does, apart from drift already present.
 * Both configs are loaded without the API (src/cli/plan-load.ts), the objects the change
 * touches computed (src/engine/scope.ts), live state read once for both plans (one
 * ReadContext: every read is shared), both planned, and the head plan split by the base
 * plan (src/engine/base-split.ts). `--full` plans everything, still split; `--target`
 * scopes by its targets instead of by the change.
 *
 * `--applied DIR` (the config of the last commit an apply carried out: CI checks it out from
 * the applied record, src/cli/applied-record.ts) adds what changed between it and the base —
 * merged, never applied — to the scope, and splits what was already there into "merged but
 * not applied" and drift made live. Without it, the plan says that it cannot know.
 *
 * What a change touches comes from src/engine/change-touch.ts: its objects, and every object a
 * changed Defaults or Policy document selects — those are planned (and read), and the plan
 * lists the documents with their counts (`plan.layers`, `plan.policyChanges`).
 */
import type { Command } from "commander";
import equal from "fast-deep-equal";
import { userError } from "../errors.js";
import { blameChangedLayers } from "../engine/base-blame.js";
import { splitByBase } from "../engine/base-split.js";
import { ReadContext } from "../engine/read-context.js";
import { runPlanWithLive, type RunPlanOptions } from "../engine/run-plan.js";
import type { ChangeScope } from "../engine/scope.js";
import { changeTouches } from "../engine/change-touch.js";
import type { AppliedInfo } from "../engine/plan.js";
import { formatDiagnostic } from "../manifest/diagnostics.js";
import type { DesiredState } from "../manifest/types.js";
import type { LoadResult } from "../pipeline/types.js";
import { plural } from "../render/style.js";
import { checkLoaded, openService, readProgress, type PlanRun } from "./plan-common.js";
import { loadHeadAndBase } from "./plan-load.js";
import { escapeHiddenLines } from "../visible.js";
import { appliedRecordFileOf, readAppliedRecord } from "./applied-record.js";
import { journalFileOf } from "./run-journal.js";
import { exceptionChanges } from "../engine/policy-exceptions.js";
import { planPoliciesOf } from "./plan-policies.js";
import { approvalsFor } from "../owners/index.js";
import { configRootOf, ownerIndexOf } from "./owners-file.js";

export interface BaseOptions {
  /** The base checkout's config directory. */
  base: string;
  /** Plan everything, not only what the change touches. */
  full: boolean;
  targets: readonly string[];
  /** The config of the last commit an apply carried out (a checkout of it). */
  applied?: string | undefined;
}

/** Without `--applied`: what a scoped plan cannot show, said in the plan. */
const UNKNOWN =
  "no record of the last applied commit: changes merged earlier and not applied are not shown; run phctl plan CONFIG (without --base) to see them";

/** The base must load cleanly: its errors are printed as the base's and refused. */
function checkBase(base: LoadResult, dir: string) {
  const errors = base.diagnostics.filter((d) => d.severity === "error");
  for (const d of errors) process.stderr.write(`base: ${formatDiagnostic(d)}\n`);
  if (base.files.length === 0)
    throw userError("NO_MANIFESTS", `no manifest files (*.yaml, *.yml) in the base ${dir}`);
  if (!base.state)
    throw userError(
      "INVALID_BASE",
      `${plural(errors.length, "error")} in the base config ${dir}; nothing was planned (--base names the config the change starts from: a checkout of the target branch)`,
    );
  return base.state;
}

const firstKeys = (keys: readonly string[]) =>
  `${keys.slice(0, 3).join(", ")}${keys.length > 3 ? ", …" : ""}`;

/**
 * Which top-level objects to plan (undefined: everything), said on stderr: what the change
 * touches and, given `stranded`, what changed between the last applied commit and the base.
 */
function scopeFor(
  o: BaseOptions,
  found: ChangeScope,
  stranded: ChangeScope | undefined,
  note: (s: string) => void,
): string[] | undefined {
  if (o.targets.length > 0 || o.full) return undefined;
  if (found.settings.length > 0) {
    note(`phctl.yaml changes ${found.settings.join(", ")}: planning everything`);
    return undefined;
  }
  if (stranded && stranded.settings.length > 0) {
    note(
      `phctl.yaml's ${stranded.settings.join(", ")} changed since the last applied commit and was never applied: planning everything`,
    );
    return undefined;
  }
  const mine = new Set(found.keys);
  const earlier = (stranded?.keys ?? []).filter((k) => !mine.has(k));
  if (found.keys.length === 0 && earlier.length === 0)
    note("the change touches nothing phctl manages");
  else
    note(
      `planning the ${plural(found.keys.length, "object")} the change touches${found.keys.length > 0 ? ` (${firstKeys(found.keys)})` : ""}${earlier.length > 0 ? ` and ${plural(earlier.length, "object")} merged earlier and not applied (${firstKeys(earlier)})` : ""}; --full plans everything`,
    );
  return [...mine, ...earlier].sort();
}

/** The applied config, or why it cannot be used (said on stderr; the plan says it too). */
function appliedState(loaded: LoadResult | undefined, dir: string | undefined) {
  if (loaded === undefined || dir === undefined) return { info: { known: false, note: UNKNOWN } };
  const errors = loaded.diagnostics.filter((d) => d.severity === "error").length;
  if (loaded.state && loaded.files.length > 0) return { state: loaded.state };
  const why =
    loaded.files.length === 0
      ? `no manifest files in the applied config ${dir}`
      : `${plural(errors, "error")} in the applied config ${dir}`;
  return {
    info: {
      known: false,
      note: `${why}: changes merged earlier and not applied are not shown; run phctl plan CONFIG (without --base) to see them`,
    },
  };
}

export async function makeBasePlan(
  paths: string[],
  o: BaseOptions,
  cmd: Command,
): Promise<PlanRun> {
  const loaded = await loadHeadAndBase(paths, o.base, process.cwd(), o.applied);
  const { state, diagnostics, files, policies: headPolicies } = checkLoaded(loaded.head, paths);
  const baseState = checkBase(loaded.base, o.base);
  // A removal is located in the base: restrictions read its file relative to the base's root.
  const policies = {
    ...headPolicies,
    roots: [...(headPolicies.roots ?? []), configRootOf(baseState, [o.base])],
  };
  const note = (s: string) => process.stderr.write(`phctl: ${escapeHiddenLines(s)}\n`);
  const applied = appliedState(loaded.applied, o.applied);
  if (applied.info && o.applied !== undefined) note(applied.info.note);
  // What this change touches, and what was merged before it and never applied.
  const baseSide = { ...loaded.base, state: baseState };
  const found = changeTouches(baseSide, { ...loaded.head, state });
  const stranded = applied.state
    ? changeTouches({ ...loaded.applied, state: applied.state }, baseSide)
    : undefined;
  const scope = scopeFor(o, found, stranded, note);

  const { connection, apiUrl, facts } = await openService(state, cmd);
  try {
    const api = connection.client;
    const callsBefore = api.metrics.snapshot().calls;
    const started = performance.now();
    // One ReadContext: what both plans read is read once.
    const common = { api, apiUrl, facts, rc: new ReadContext(api, facts) };
    const otherPlan = (other: typeof baseState, s: readonly string[] | undefined) =>
      runPlanWithLive({
        ...common,
        state: other,
        // The base is only compared with: its references are not the change's to fix.
        checkReferences: false,
        closeScope: false,
        ...(s ? { scope: s } : {}),
      } satisfies RunPlanOptions);
    const basePlan = (s: readonly string[] | undefined) => otherPlan(baseState, s);
    const reads = async () => {
      const headRun = runPlanWithLive({
        ...common,
        state,
        diagnostics,
        // Ratchet rules are judged against the base config: what was there before the change.
        policies: policies.docs
          ? { ...policies, baseDocs: loaded.base.layers?.docs ?? [] }
          : policies,
        ...(o.targets.length > 0 ? { targets: o.targets } : scope ? { scope } : {}),
      });
      // The base is planned alongside, unless its scope waits on the targets'.
      const early = o.targets.length > 0 ? undefined : basePlan(scope);
      const [head, first] = await Promise.all([headRun, early]);
      const base =
        first && equal(first.plan.scope, head.plan.scope) ? first : await basePlan(head.plan.scope);
      // The applied config, over the same scope (its reads are the base's, already made).
      const before = applied.state ? await otherPlan(applied.state, head.plan.scope) : undefined;
      return { head, base, before };
    };
    const progress = readProgress("plan", "live state", api, cmd.optsWithGlobals());
    const { head, base, before } = await progress.around(reads);
    // What the objects in scope need (their users, organizations, fork sources) is planned
    // too: said here with the count the comment's footer gives.
    const planned = head.plan.scope ?? [];
    if (scope && planned.length > scope.length) {
      const asked = new Set(scope);
      const more = planned.filter((k) => !asked.has(k));
      note(
        `planned ${plural(planned.length, "object")}: those and ${plural(more.length, "object")} they need (${firstKeys(more)})`,
      );
    }
    const plan = splitByBase(head.plan, base.plan, before?.plan);
    // A change a layer's edit causes names that layer, not the object's own file.
    blameChangedLayers(plan.entries, baseState, state, found.layers);
    plan.applied = applied.info ?? knownApplied(cmd, state, apiUrl);
    // Exceptions the change grants or extends: called out at the top of the comment.
    const granted = exceptionChanges(planPoliciesOf(loaded.base).policies, policies.policies);
    if (granted) plan.policyExceptions = granted;
    // The Defaults documents this change touches, and what each selects: not the head's own.
    if (found.layers.length > 0) plan.layers = found.layers;
    else delete plan.layers;
    // The policies this change adds, removes or alters: their objects' violations are its doing.
    if (found.policies.length > 0) plan.policyChanges = found.policies;
    // Whose approval each touched object needs, by the target branch's owners.
    const approvals = approvalsFor(
      plan.entries,
      ownerIndexOf(loaded.base, baseState, [o.base]),
      ownerIndexOf(loaded.head, state, paths),
    );
    if (approvals.length > 0) plan.owners = approvals;
    plan.stats = {
      objectsRead: common.rc.objects,
      apiCalls: api.metrics.snapshot().calls - callsBefore,
      durationMs: Math.round(performance.now() - started),
    };
    return { plan, state, files, connection, close: () => connection.close() };
  } catch (e) {
    await connection.close();
    throw e;
  }
}

/** `--applied` was given: the commit it is, as the applied record beside the journal names it. */
function knownApplied(cmd: Command, state: DesiredState, apiUrl: string): AppliedInfo {
  const flag = cmd.optsWithGlobals<{ journal?: string }>().journal;
  const record = readAppliedRecord(appliedRecordFileOf(journalFileOf(flag, state)), apiUrl);
  return { known: true, ...(record ? { commit: record.commit, at: record.at } : {}) };
}
