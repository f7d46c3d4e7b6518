/**
 * `phctl plan PATHS --base DIR`: what this change does, apart from drift already present.
 * Both configs are loaded without the API (src/cli/plan-load.ts), the objects the change
 * touches computed (src/engine/scope.ts), live state read once for both plans (one
 * ReadContext: every read is shared), both planned, and the head plan split by the base
 * plan (src/engine/base-split.ts). `--full` plans everything, still split; `--target`
 * scopes by its targets instead of by the change.
 */
import type { Command } from "commander";
import equal from "fast-deep-equal";
import { userError } from "../errors.js";
import { splitByBase } from "../engine/base-split.js";
import { ReadContext } from "../engine/read-context.js";
import { runPlanWithLive, type RunPlanOptions } from "../engine/run-plan.js";
import { changeScope } from "../engine/scope.js";
import { formatDiagnostic } from "../manifest/diagnostics.js";
import type { LoadResult } from "../manifest/types.js";
import { plural } from "../render/style.js";
import { checkLoaded, openService, readProgress, type PlanRun } from "./plan-common.js";
import { loadHeadAndBase } from "./plan-load.js";
import { escapeHiddenLines } from "../visible.js";

export interface BaseOptions {
  /** The base checkout's config directory. */
  base: string;
  /** Plan everything, not only what the change touches. */
  full: boolean;
  targets: readonly string[];
}

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

/** Which top-level objects to plan (undefined: everything), said on stderr. */
function scopeFor(
  o: BaseOptions,
  found: ReturnType<typeof changeScope>,
  note: (s: string) => void,
): string[] | undefined {
  if (o.targets.length > 0 || o.full) return undefined;
  if (found.settings.length > 0) {
    note(`phctl.yaml changes ${found.settings.join(", ")}: planning everything`);
    return undefined;
  }
  if (found.keys.length === 0) note("the change touches nothing phctl manages");
  else
    note(
      `planning the ${plural(found.keys.length, "object")} the change touches (${found.keys.slice(0, 3).join(", ")}${found.keys.length > 3 ? ", …" : ""}); --full plans everything`,
    );
  return found.keys;
}

export async function makeBasePlan(
  paths: string[],
  o: BaseOptions,
  cmd: Command,
): Promise<PlanRun> {
  const loaded = await loadHeadAndBase(paths, o.base);
  const { state, diagnostics, files } = checkLoaded(loaded.head, paths);
  const baseState = checkBase(loaded.base, o.base);
  const note = (s: string) => process.stderr.write(`phctl: ${escapeHiddenLines(s)}\n`);
  const scope = scopeFor(o, changeScope(baseState, state), note);

  const { connection, apiUrl, facts } = await openService(state, cmd);
  try {
    const api = connection.client;
    const callsBefore = api.metrics.snapshot().calls;
    const started = performance.now();
    // One ReadContext: what both plans read is read once.
    const common = { api, apiUrl, facts, rc: new ReadContext(api, facts) };
    const basePlan = (s: readonly string[] | undefined) =>
      runPlanWithLive({
        ...common,
        state: baseState,
        // The base is only compared with: its references are not the change's to fix.
        checkReferences: false,
        closeScope: false,
        ...(s ? { scope: s } : {}),
      } satisfies RunPlanOptions);
    const reads = async () => {
      const headRun = runPlanWithLive({
        ...common,
        state,
        diagnostics,
        ...(o.targets.length > 0 ? { targets: o.targets } : scope ? { scope } : {}),
      });
      // The base is planned alongside, unless its scope waits on the targets'.
      const early = o.targets.length > 0 ? undefined : basePlan(scope);
      const [head, first] = await Promise.all([headRun, early]);
      const base =
        first && equal(first.plan.scope, head.plan.scope) ? first : await basePlan(head.plan.scope);
      return { head, base };
    };
    const progress = readProgress("plan", "live state", api, cmd.optsWithGlobals());
    const { head, base } = await progress.around(reads);
    const plan = splitByBase(head.plan, base.plan);
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
